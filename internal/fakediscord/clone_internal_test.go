package fakediscord

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestClonesAsJSON: on random values, the deep copies equal the round
// trip through JSON, and share no memory with the original.
func TestClonesAsJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		var embeds []Embed
		var comps []Component
		var am AllowedMentions
		fill(r, reflect.ValueOf(&embeds).Elem(), 0)
		fill(r, reflect.ValueOf(&comps).Elem(), 0)
		fill(r, reflect.ValueOf(&am).Elem(), 0)

		ce, cc, ca := cloneEmbeds(embeds), cloneComponents(comps), cloneAllowedMentions(am)
		require.Equal(t, cloneJSON(embeds), ce, "embeds %d", i)
		require.Equal(t, cloneJSON(comps), cc, "components %d", i)
		require.Equal(t, cloneJSON(am), ca, "allowed mentions %d", i)
		for _, pair := range [][2]any{{embeds, ce}, {comps, cc}, {am, ca}} {
			orig := map[uintptr]bool{}
			addresses(reflect.ValueOf(pair[0]), orig)
			cp := map[uintptr]bool{}
			addresses(reflect.ValueOf(pair[1]), cp)
			for a := range cp {
				require.False(t, orig[a], "value %d: the copy shares memory with the original", i)
			}
		}
	}
}

// fill sets v to a random value: slices nil, empty or of up to three
// elements, pointers nil or set, strings of a few letters.
func fill(r *rand.Rand, v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString([]string{"", "a", "bé", "x y", "<@1>"}[r.IntN(5)])
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(r.IntN(4)))
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Pointer:
		if r.IntN(2) == 0 {
			v.SetZero()
			return
		}
		p := reflect.New(v.Type().Elem())
		fill(r, p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		n := r.IntN(5) - 1 // -1: nil
		if n < 0 || depth > 3 {
			v.SetZero()
			return
		}
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			fill(r, s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Struct:
		for i := range v.NumField() {
			fill(r, v.Field(i), depth+1)
		}
	}
}

// addresses collects the memory v refers to: what its pointers point to
// and its slices' arrays.
func addresses(v reflect.Value, into map[uintptr]bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			into[v.Pointer()] = true
			addresses(v.Elem(), into)
		}
	case reflect.Slice:
		if v.Cap() > 0 {
			into[v.Pointer()] = true
		}
		for i := range v.Len() {
			addresses(v.Index(i), into)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			addresses(v.Field(i), into)
		}
	}
}
