package bot

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/locales"
)

// keyUse finds the message keys written literally in the table and the
// games' presenters: the second argument of locales.T/N, and the key
// argument of Button and Refuse.
var keyUse = regexp.MustCompile(`(?:locales\.[TN]\([^,()]+, |Button\([^,()]+, |Refuse\([^,()]+, |key = |key := )"([a-z0-9_]+)"`)

// Every message key written literally in the table or a presenter exists
// in every language, and so do the keys the table builds from the games'
// names and its subcommands.
func TestEveryLiteralKeyExists(t *testing.T) {
	t.Parallel()
	var files []string
	for _, dir := range []string{".", "dix", "qwixx", "dixxit", "present"} {
		more, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		files = append(files, more...)
	}
	found := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range keyUse.FindAllStringSubmatch(string(src), -1) {
			found++
			if strings.HasSuffix(m[1], "_") {
				// A prefix completed at run time: the rendering tests catch
				// a missing completion (it shows as ⟦key⟧).
				assert.True(t, hasKeyPrefix(m[1]), "%s: no key starts with %q", f, m[1])
				continue
			}
			for _, lang := range locales.Languages {
				assert.True(t, locales.Has(lang, m[1]), "%s: key %q missing in %s", f, m[1], lang)
			}
		}
	}
	assert.Greater(t, found, 300, "the pattern finds the keys")
	// Keys built from parts.
	h := newGamesHarness(t, nil, "en")
	for name, g := range h.b.games {
		ids := append([]string{"solo"}, gameSubcommands...)
		for _, id := range append(ids, g.Views...) {
			for _, lang := range locales.Languages {
				assert.True(t, locales.Has(lang, "cmd_"+id+"_name"), id)
				if id != "solo" || g.MinSeats == 1 {
					assert.True(t, locales.Has(lang, name+"_cmd_"+id+"_desc") || id == "hint", "%s %s", name, id)
				}
			}
		}
		for _, lang := range locales.Languages {
			assert.True(t, locales.Has(lang, name+"_title"), name)
		}
	}
}

func hasKeyPrefix(p string) bool {
	for _, k := range locales.Keys("en") {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}
