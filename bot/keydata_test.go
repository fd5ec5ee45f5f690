package bot

import (
	"go/ast"
	"go/token"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/locales"
)

// keyCall is a place that shows a message by a literal key with data
// whose fields are all written out: the fields it gives, and whether
// the message is counted (locales.N, which adds Count).
type keyCall struct {
	at      string
	key     string
	fields  []string
	counted bool
}

// TestEveryMessageGetsItsFields: wherever the code shows a message by a
// literal key with literal data (locales.T, locales.N, Refuse, a
// present.Refusal), the message renders in every language from the
// fields given, with no "<no value>" where a field it names was left
// out: a refusal seldom seen reads as well as the board does.
func TestEveryMessageGetsItsFields(t *testing.T) {
	t.Parallel()
	calls := keyCalls(t, "..")
	require.Greater(t, len(calls), 300, "the calls are found")
	t.Logf("%d places show a message by a literal key with literal data", len(calls))
	for _, c := range calls {
		data := map[string]any{}
		for _, f := range c.fields {
			data[f] = "x"
		}
		for _, lang := range locales.Languages {
			if !locales.Has(lang, c.key) {
				continue // TestEveryLiteralKeyExists says so
			}
			counts := []int{-1}
			if c.counted {
				counts = []int{1, 2}
			}
			for _, n := range counts {
				var s string
				if n < 0 {
					s = locales.T(lang, c.key, data)
				} else {
					s = locales.N(lang, c.key, n, data)
				}
				assert.NotContains(t, s, "<no value>", "%s: %s in %s with the fields %v", c.at, c.key, lang, c.fields)
			}
		}
	}
}

// The table's errors are said by their keys with no data (classify):
// none of their messages names a field.
func TestErrorMessagesNeedNoFields(t *testing.T) {
	t.Parallel()
	require.NotEmpty(t, allErrorKeys)
	for _, e := range append(allErrorKeys, ErrorKey{Key: "err_internal"}) {
		for _, lang := range locales.Languages {
			s := locales.T(lang, e.Key, nil)
			assert.NotEqual(t, locales.Missing(e.Key), s, "%s in %s", e.Key, lang)
			assert.NotContains(t, s, "<no value>", "%s in %s", e.Key, lang)
		}
	}
}

// keyCalls returns the calls of the non-test Go files under root that
// show a message by a literal key with literal data (a map literal with
// string keys, or nil).
func keyCalls(t *testing.T, root string) []keyCall {
	t.Helper()
	var out []keyCall
	goFiles(t, root, true, func(_ string, fset *token.FileSet, f *ast.File) {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if c, ok := callOf(n); ok {
					c.at = fset.Position(n.Pos()).String()
					out = append(out, c)
				}
			case *ast.CompositeLit:
				if c, ok := refusalOf(n); ok {
					c.at = fset.Position(n.Pos()).String()
					out = append(out, c)
				}
			}
			return true
		})
	})
	return out
}

// callOf reads locales.T(lang, key, data), locales.N(lang, key, n, data)
// and Refuse(err, key, data).
func callOf(call *ast.CallExpr) (keyCall, bool) {
	var name string
	switch fn := call.Fun.(type) {
	case *ast.SelectorExpr:
		if pkg, ok := fn.X.(*ast.Ident); ok && pkg.Name == "locales" {
			name = fn.Sel.Name
		}
	case *ast.Ident:
		if fn.Name == "Refuse" {
			name = fn.Name
		}
	}
	keyAt, dataAt := 1, 2
	switch {
	case name == "T" || name == "Refuse":
	case name == "N":
		dataAt = 3
	default:
		return keyCall{}, false
	}
	if len(call.Args) <= dataAt {
		return keyCall{}, false
	}
	key, ok := stringLit(call.Args[keyAt])
	if !ok {
		return keyCall{}, false
	}
	fields, ok := mapKeys(call.Args[dataAt])
	if !ok {
		return keyCall{}, false
	}
	return keyCall{key: key, fields: fields, counted: name == "N"}, true
}

// refusalOf reads a present.Refusal{Key: key, Data: data, Names: names}
// whose maps, when given, are literals.
func refusalOf(lit *ast.CompositeLit) (keyCall, bool) {
	sel, ok := lit.Type.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Refusal" {
		if id, ok := lit.Type.(*ast.Ident); !ok || id.Name != "Refusal" {
			return keyCall{}, false
		}
	}
	var c keyCall
	found := false
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return keyCall{}, false
		}
		switch id, _ := kv.Key.(*ast.Ident); {
		case id == nil:
			return keyCall{}, false
		case id.Name == "Key":
			if c.key, found = stringLit(kv.Value); !found {
				return keyCall{}, false
			}
		case id.Name == "Data" || id.Name == "Names":
			fields, ok := mapKeys(kv.Value)
			if !ok {
				return keyCall{}, false
			}
			c.fields = append(c.fields, fields...)
		}
	}
	return c, found
}

// stringLit is e's value when e is a string literal.
func stringLit(e ast.Expr) (string, bool) {
	bl, ok := e.(*ast.BasicLit)
	if !ok || bl.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(bl.Value)
	return s, err == nil
}

// mapKeys is the keys of e when e is nil or a map literal whose keys are
// all string literals.
func mapKeys(e ast.Expr) ([]string, bool) {
	if id, ok := e.(*ast.Ident); ok && id.Name == "nil" {
		return nil, true
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return nil, false
	}
	if _, ok := lit.Type.(*ast.MapType); !ok {
		return nil, false
	}
	var keys []string
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return nil, false
		}
		k, ok := stringLit(kv.Key)
		if !ok {
			return nil, false
		}
		keys = append(keys, k)
	}
	return keys, true
}
