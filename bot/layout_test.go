package bot

import (
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// isGamePackage reports whether an import path is one game's package
// (its rules, computer player, drawings or presenter).
func isGamePackage(path string) bool {
	rest, ok := strings.CutPrefix(path, "github.com/dixgame/dixbot/")
	if !ok || path == "github.com/dixgame/dixbot/bot/present" {
		return false
	}
	for _, top := range []string{"engine/", "computer/", "picture/", "bot/"} {
		if strings.HasPrefix(rest, top) {
			return true
		}
	}
	return false
}

// The table imports no game: no file of the package imports a game's
// package.
func TestTableImportsNoGame(t *testing.T) {
	t.Parallel()
	paths, err := filepath.Glob("*.go")
	require.NoError(t, err)
	require.NotEmpty(t, paths)
	fset := token.NewFileSet()
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		require.NoError(t, err)
		for _, im := range f.Imports {
			path := strings.Trim(im.Path.Value, `"`)
			assert.False(t, isGamePackage(path), "%s is the table's and imports the game %s", p, path)
		}
	}
}

// Nor does anything the table depends on: go list -deps, the structure
// drawing of the module, finds no game's package below it.
func TestTableDependsOnNoGame(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	require.NoError(t, err)
	deps := strings.Fields(string(out))
	require.Contains(t, deps, "github.com/dixgame/dixbot", "the list holds the table's dependencies")
	for _, d := range deps {
		assert.False(t, isGamePackage(d), "the table depends on the game %s", d)
	}
}
