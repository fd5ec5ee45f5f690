package randfill

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
)

type inner struct {
	N    int8
	U    uint16
	S    string
	Next *inner
}

type outer struct {
	A      []inner
	M      map[string]*inner
	P      *inner
	B      bool
	hidden string
}

// Fill reaches every kind it knows, leaves unexported fields alone, and
// varies what it sets.
func TestFill(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 6))
	seen := map[string]bool{}
	for range 200 {
		var o outer
		Fill(r, reflect.ValueOf(&o).Elem(), []string{"x", "y"})
		assert.Empty(t, o.hidden)
		seen["nil slice"] = seen["nil slice"] || o.A == nil
		seen["empty slice"] = seen["empty slice"] || (o.A != nil && len(o.A) == 0)
		seen["long slice"] = seen["long slice"] || len(o.A) == 3
		seen["map"] = seen["map"] || len(o.M) > 0
		seen["pointer"] = seen["pointer"] || o.P != nil
		seen["true"] = seen["true"] || o.B
		for _, in := range o.A {
			seen["negative"] = seen["negative"] || in.N < 0
			seen["string"] = seen["string"] || in.S != ""
			seen["uint"] = seen["uint"] || in.U != 0
			seen["nested"] = seen["nested"] || in.Next != nil
		}
	}
	for _, k := range []string{"nil slice", "empty slice", "long slice", "map", "pointer", "true", "string", "uint", "nested", "negative"} {
		assert.True(t, seen[k], k)
	}
}

// Shared finds memory two values share at any depth, and none between a
// value and its deep copy.
func TestShared(t *testing.T) {
	t.Parallel()
	leaf := &inner{N: 1}
	a := outer{A: []inner{{Next: leaf}}, M: map[string]*inner{"k": {N: 2}}, P: &inner{}}
	deep := outer{A: []inner{{Next: &inner{N: 1}}}, M: map[string]*inner{"k": {N: 2}}, P: &inner{}}
	assert.False(t, Shared(a, deep), "a deep copy")
	assert.True(t, Shared(a, outer{P: &inner{Next: leaf}}), "a pointer deep down")
	assert.True(t, Shared(a, outer{A: a.A[:0]}), "a slice's array, even empty")
	assert.True(t, Shared(a, outer{M: a.M}), "a map")
	assert.True(t, Shared(a, outer{M: map[string]*inner{"j": a.M["k"]}}), "a map's value")
	assert.False(t, Shared(outer{}, outer{}), "nothing at all")
}
