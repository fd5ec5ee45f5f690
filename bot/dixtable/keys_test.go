package dixtable

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/bot"
	"github.com/dixgame/dixbot/locales"
)

// keyUse finds the message keys written literally in DIX's table, in the
// shared table (bot) and in DIX's presentation (bot/dix): the second argument of locales.T/N, and the
// key argument of button and refuse.
var keyUse = regexp.MustCompile(`(?:locales\.[TN]\([^,()]+, |button\([^,()]+, |refuse\([^,()]+, |key = |key := )"([a-z0-9_]+)"`)

func TestEveryLiteralKeyExists(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	for _, dir := range []string{"..", "../dix"} { // the shared table, DIX's presentation
		more, err := filepath.Glob(dir + "/*.go")
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
				assert.True(t, hasPrefix(m[1]), "%s: no key starts with %q", f, m[1])
				continue
			}
			for _, lang := range locales.Languages {
				assert.True(t, locales.Has(lang, m[1]), "%s: key %q missing in %s", f, m[1], lang)
			}
		}
	}
	assert.Greater(t, found, 100, "the pattern finds the keys")
	// Keys built from parts.
	for _, id := range bot.Subcommands {
		for _, lang := range locales.Languages {
			assert.True(t, locales.Has(lang, "cmd_"+id+"_name"))
			assert.True(t, locales.Has(lang, "cmd_"+id+"_desc"))
		}
	}
	for d := bot.MinDifficulty; d <= bot.MaxDifficulty; d++ {
		assert.True(t, locales.Has("fr", "difficulty_"+bot.Itoa(d)))
	}
	for _, k := range []string{"dix_ping_auction", "dix_ping_pay", "ping_closed"} {
		assert.True(t, locales.Has("en", k) && locales.Has("en", k+"_link"), k)
	}
}

func hasPrefix(p string) bool {
	for _, k := range locales.Keys("en") {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}
