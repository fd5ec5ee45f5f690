package bot

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dixSeams are the names of DIX's table (dixtable*.go) that the rest of
// the table uses: the points listed in the package comment.
var dixSeams = []string{
	"answerApplied", "answerOver", "applyDix", "command",
	"defaultDifficulty", "dixComeBack", "dixCommand", "dixErrorKeys", "dixOver",
	"dixRefusal", "dixRefusalKey", "dixVerbs", "maxDifficulty",
	"minDifficulty", "repost", "retryMissing", "runDixDue", "seenMissing",
	"staleText", "verbLog",
}

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

// The table part of the package imports no game, and reaches DIX's table
// only at its listed points: a file that is not DIX's imports no game's
// package, and names of DIX's files it uses are dixSeams.
func TestTableImportsNoGame(t *testing.T) {
	paths, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		src, err := os.ReadFile(p)
		require.NoError(t, err)
		f, err := parser.ParseFile(fset, p, src, 0)
		require.NoError(t, err)
		files[p] = f
	}
	dixFile := func(p string) bool { return strings.HasPrefix(p, "dixtable") }

	// Top-level names and method names of each part.
	dixNames, tableNames := map[string]bool{}, map[string]bool{}
	for p, f := range files {
		names := tableNames
		if dixFile(p) {
			names = dixNames
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				names[d.Name.Name] = true
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						names[s.Name.Name] = true
						if st, ok := s.Type.(*ast.StructType); ok && !dixFile(p) {
							for _, fl := range st.Fields.List {
								for _, n := range fl.Names {
									names[n.Name] = true // a field's name is no seam
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							names[n.Name] = true
						}
					}
				}
			}
		}
	}
	used := map[string]bool{}
	for p, f := range files {
		var games []string
		for _, im := range f.Imports {
			if path := strings.Trim(im.Path.Value, `"`); isGamePackage(path) {
				games = append(games, path)
			}
		}
		if dixFile(p) {
			continue
		}
		assert.Empty(t, games, "%s is the table's and imports a game", p)
		pkgs := map[string]bool{}
		for _, im := range f.Imports {
			path := strings.Trim(im.Path.Value, `"`)
			pkgs[path[strings.LastIndex(path, "/")+1:]] = true
			if im.Name != nil {
				pkgs[im.Name.Name] = true
			}
		}
		// A name used alone is the package's when the file does not
		// declare it (parser's Unresolved); after a dot, a method's or a
		// field's, counted when only DIX's part declares it.
		for _, id := range f.Unresolved {
			if dixNames[id.Name] && !tableNames[id.Name] && !pkgs[id.Name] {
				used[id.Name] = true
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			s, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := s.X.(*ast.Ident); ok && pkgs[x.Name] {
				return true // another package's name
			}
			if dixNames[s.Sel.Name] && !tableNames[s.Sel.Name] {
				used[s.Sel.Name] = true
			}
			return true
		})
	}
	var got []string
	for n := range used {
		got = append(got, n)
	}
	slices.Sort(got)
	assert.Equal(t, dixSeams, got, "the names of DIX's table the rest of the table uses")
}
