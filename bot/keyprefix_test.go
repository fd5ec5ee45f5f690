package bot

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/locales"
)

// gamePresenters are the presenter packages of the games, beside the table
// (relative to bot/), with the prefix every locale key of their own starts
// with.
var gamePresenters = map[string]string{
	"dix":    "dix_",
	"qwixx":  "qwixx_",
	"dixxit": "dixxit_",
}

// unreferencedKeys are the locale keys no Go file names, with the reason
// they are kept.
var unreferencedKeys = map[string]string{
	"dix_opt_bust_off": "a value of DIX's declared option bust, named by optionValue (<game>_opt_<name>_<value>)",
	"dix_opt_bust_on":  "a value of DIX's declared option bust, named by optionValue (<game>_opt_<name>_<value>)",
}

// goLiterals returns the string literals of the non-test Go files under
// root (every directory below it when deep), made of the characters of a
// locale key and the verb of fmt.Sprintf.
func goLiterals(t *testing.T, root string, deep bool) []string {
	t.Helper()
	var out []string
	goFiles(t, root, deep, func(_ string, _ *token.FileSet, f *ast.File) {
		ast.Inspect(f, func(n ast.Node) bool {
			if bl, ok := n.(*ast.BasicLit); ok && bl.Kind == token.STRING {
				if s, err := strconv.Unquote(bl.Value); err == nil && keyLike(s) {
					out = append(out, s)
				}
			}
			return true
		})
	})
	return out
}

// goFiles calls fn on each non-test Go file under root (every directory
// below it when deep, but hidden ones and testdata), parsed.
func goFiles(t *testing.T, root string, deep bool, fn func(path string, fset *token.FileSet, f *ast.File)) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (!deep || strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, src, 0)
		if err != nil {
			return err
		}
		fn(p, fset, f)
		return nil
	})
	require.NoError(t, err)
}

// keyShapes returns the shapes of the keys the non-test Go files under
// root build by concatenation from a literal start ending in "_" ("cmd_"
// + id + "_name" is ^cmd_.+_name$), and the literals ending in "_" that
// appear elsewhere than at the start of such a concatenation (passed on,
// compared: they may start any key).
func keyShapes(t *testing.T, root string) ([]*regexp.Regexp, map[string]bool) {
	t.Helper()
	var shapes []*regexp.Regexp
	heads := map[*ast.BasicLit]bool{}
	var all []*ast.BasicLit
	goFiles(t, root, true, func(_ string, _ *token.FileSet, f *ast.File) {
		inChain := map[ast.Node]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BinaryExpr:
				if n.Op != token.ADD || inChain[n] {
					return true
				}
				var parts []ast.Expr
				var flatten func(e ast.Expr)
				flatten = func(e ast.Expr) {
					if b, ok := e.(*ast.BinaryExpr); ok && b.Op == token.ADD {
						inChain[b] = true
						flatten(b.X)
						flatten(b.Y)
						return
					}
					parts = append(parts, e)
				}
				flatten(n)
				head, ok := parts[0].(*ast.BasicLit)
				if !ok || head.Kind != token.STRING {
					return true
				}
				h, err := strconv.Unquote(head.Value)
				if err != nil || !keyLike(h) || !strings.HasSuffix(h, "_") {
					return true
				}
				heads[head] = true
				var re strings.Builder
				re.WriteString("^")
				for _, part := range parts {
					if bl, ok := part.(*ast.BasicLit); ok && bl.Kind == token.STRING {
						if v, err := strconv.Unquote(bl.Value); err == nil {
							re.WriteString(regexp.QuoteMeta(v))
							continue
						}
					}
					re.WriteString(".+")
				}
				re.WriteString("$")
				shapes = append(shapes, regexp.MustCompile(re.String()))
			case *ast.BasicLit:
				if n.Kind == token.STRING {
					all = append(all, n)
				}
			}
			return true
		})
	})
	loose := map[string]bool{}
	for _, bl := range all {
		if v, err := strconv.Unquote(bl.Value); err == nil && strings.HasSuffix(v, "_") && !heads[bl] {
			loose[v] = true
		}
	}
	return shapes, loose
}

// startsWithAny reports whether k starts with one of starts.
func startsWithAny(k string, starts map[string]bool) bool {
	for s := range starts {
		if strings.HasPrefix(k, s) {
			return true
		}
	}
	return false
}

func keyLike(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '%') {
			return false
		}
	}
	return true
}

// namedKeys returns the keys among keys that literals name: a literal equal
// to the key, or the fixed start of a key completed at run time (a literal
// ending in "_", or the text before a fmt verb, as in "dix_hint_why_%d").
// A game's bare prefix ("dix_") names no key.
func namedKeys(literals, keys []string) map[string]bool {
	isKey := map[string]bool{}
	for _, k := range keys {
		isKey[k] = true
	}
	named := map[string]bool{}
	for _, l := range literals {
		if isKey[l] {
			named[l] = true
			continue
		}
		if i := strings.IndexByte(l, '%'); i >= 0 {
			l = l[:i]
		}
		if !strings.HasSuffix(l, "_") || len(l) < 4 || isGamePrefix(l) {
			continue
		}
		for _, k := range keys {
			if strings.HasPrefix(k, l) {
				named[k] = true
			}
		}
	}
	return named
}

func isGamePrefix(l string) bool {
	for _, p := range gamePresenters {
		if l == p {
			return true
		}
	}
	return false
}

// composed reports whether key is made of literals put end to end, each
// after the first starting with "_" or following one that ends with "_"
// (as name+"_cmd_"+id+"_desc", key+"_link").
func composed(key string, literal map[string]bool) bool {
	// ends[i]: key[:i] is such a concatenation of at least one literal.
	ends := make([]bool, len(key)+1)
	for i := 1; i <= len(key); i++ {
		if literal[key[:i]] {
			ends[i] = true
		}
	}
	for i := 1; i < len(key); i++ {
		if !ends[i] {
			continue
		}
		for j := i + 1; j <= len(key); j++ {
			if literal[key[i:j]] && (key[i] == '_' || key[i-1] == '_') {
				ends[j] = true
			}
		}
	}
	return ends[len(key)] && !literal[key]
}

// TestGameKeysCarryTheirPrefix: a locale key a game's presenter names is
// that game's own (it starts with the game's prefix) or one the table
// itself names (package bot, outside the games' packages).
func TestGameKeysCarryTheirPrefix(t *testing.T) {
	t.Parallel()
	keys := locales.Keys(locales.English)
	shared := namedKeys(goLiterals(t, ".", false), keys)
	require.Greater(t, len(shared), 200, "the table's keys are found")
	checked := 0
	for dir, prefix := range gamePresenters {
		if _, err := os.Stat(dir); os.IsNotExist(err) {
			continue
		}
		var wrong []string
		for k := range namedKeys(goLiterals(t, dir, true), keys) {
			checked++
			if !strings.HasPrefix(k, prefix) && !shared[k] {
				wrong = append(wrong, k)
			}
		}
		sort.Strings(wrong)
		assert.Empty(t, wrong, "bot/%s names keys that neither start with %q nor are the table's", dir, prefix)
	}
	assert.Greater(t, checked, 300, "the games' keys are found")
}

// TestEveryKeyIsUsed: every English key exists in French and the other way
// round, and some Go file of the repository names it (or builds it), or it
// is listed in unreferencedKeys with the reason it is kept.
func TestEveryKeyIsUsed(t *testing.T) {
	t.Parallel()
	en := locales.Keys(locales.English)
	for _, k := range en {
		assert.True(t, locales.Has(locales.French, k), "%q is in en.toml, not in fr.toml", k)
	}
	for _, k := range locales.Keys(locales.French) {
		assert.True(t, locales.Has(locales.English, k), "%q is in fr.toml, not in en.toml", k)
	}
	literals := goLiterals(t, "..", true)
	// A lone "_" joins any two words: a key composed with it would pass
	// for used whatever it says ("log" "_" "timeout").
	literal := map[string]bool{}
	for _, l := range literals {
		if l != "_" {
			literal[l] = true
		}
	}
	// A start of keys that the code only ever completes in place ("cmd_"
	// + id + "_name") names the keys of that shape, not every key it
	// starts.
	shapes, loose := keyShapes(t, "..")
	var starts []string
	for _, l := range literals {
		if !strings.HasSuffix(l, "_") || loose[l] {
			starts = append(starts, l)
		}
	}
	named := namedKeys(starts, en)
	for _, k := range en {
		for _, re := range shapes {
			if re.MatchString(k) {
				named[k] = true
			}
		}
	}
	// Such a start decides: a key it starts is built in place or not at
	// all, never from words joined elsewhere.
	heads := map[string]bool{}
	for _, l := range literals {
		if strings.HasSuffix(l, "_") && !loose[l] {
			heads[l] = true
		}
	}
	var unused []string
	for _, k := range en {
		if named[k] || unreferencedKeys[k] != "" {
			continue
		}
		if !startsWithAny(k, heads) && composed(k, literal) {
			continue
		}
		unused = append(unused, k)
	}
	assert.Empty(t, unused, "keys no Go file names or builds")
	for k := range unreferencedKeys {
		assert.True(t, locales.Has(locales.English, k), "unreferencedKeys lists %q, which en.toml does not hold", k)
	}
}
