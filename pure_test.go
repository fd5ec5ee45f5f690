package dixbot_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// singleThreaded are the folders whose packages the test command runs
// without the race detector (scripts/test.sh): the games' rules and
// computer players, which share no memory between goroutines, so the
// detector has nothing to find there and only slows them tenfold.
var singleThreaded = []string{"engine", "computer"}

// The rules and the computer players start no goroutine and use no
// synchronisation, in their code or their tests: what lets the test
// command run them without the race detector stays true. The one
// exception is sync's Once family, which builds a read-only value once
// (a table the players read from every goroutine of the bot) and which
// the detector has nothing to check in.
func TestRulesAndComputersAreSingleThreaded(t *testing.T) {
	fset := token.NewFileSet()
	files := 0
	for _, root := range singleThreaded {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
				return err
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			files++
			for _, imp := range f.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				assert.False(t, strings.HasPrefix(p, "sync/") || p == "golang.org/x/sync/errgroup",
					"%s imports %s", path, p)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.GoStmt:
					t.Errorf("%s: a goroutine is started", fset.Position(n.Pos()))
				case *ast.SelectorExpr:
					if n.Sel.Name == "Parallel" {
						t.Errorf("%s: a test runs in parallel", fset.Position(n.Pos()))
					}
					if x, ok := n.X.(*ast.Ident); ok && x.Name == "sync" && !onceFamily[n.Sel.Name] {
						t.Errorf("%s: sync.%s is used", fset.Position(n.Pos()), n.Sel.Name)
					}
				}
				return true
			})
			return nil
		})
		require.NoError(t, err)
	}
	assert.Greater(t, files, 50, "the packages were read")
}

// onceFamily are the names of package sync the rules and computer players
// may use.
var onceFamily = map[string]bool{"Once": true, "OnceFunc": true, "OnceValue": true, "OnceValues": true}
