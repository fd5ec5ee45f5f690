package randfill

import (
	"math/rand/v2"
	"reflect"
)

// Fill sets v's exported fields, recursively, to random values: strings
// drawn from strs, integers among small, large and extreme values of
// their type, slices and maps nil, empty or of up to three elements,
// pointers nil or set. More than four levels down, slices, maps and
// pointers stay nil, so recursive types end.
func Fill(r *rand.Rand, v reflect.Value, strs []string) {
	fill(r, v, strs, 0)
}

func fill(r *rand.Rand, v reflect.Value, strs []string, depth int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(strs[r.IntN(len(strs))])
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if x := []int64{0, 1, -1, 3, 127, -128, 1 << 40, -1 << 62}[r.IntN(8)]; !v.OverflowInt(x) {
			v.SetInt(x)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if x := r.Uint64() >> r.IntN(64); !v.OverflowUint(x) {
			v.SetUint(x)
		}
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Pointer:
		if r.IntN(2) == 0 || depth > 4 {
			return
		}
		p := reflect.New(v.Type().Elem())
		fill(r, p.Elem(), strs, depth+1)
		v.Set(p)
	case reflect.Slice:
		n := r.IntN(5) - 1 // -1: nil
		if n < 0 || depth > 4 {
			return
		}
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			fill(r, s.Index(i), strs, depth+1)
		}
		v.Set(s)
	case reflect.Map:
		n := r.IntN(5) - 1
		if n < 0 || depth > 4 {
			return
		}
		m := reflect.MakeMap(v.Type())
		for range n {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(r, k, strs, depth+1)
			fill(r, e, strs, depth+1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(r, v.Field(i), strs, depth+1)
			}
		}
	}
}

// Shared reports whether a and b share memory: a pointer, a slice's array
// or a map that both refer to, at any depth (strings aside: they never
// change).
func Shared(a, b any) bool {
	in := map[uintptr]bool{}
	addresses(reflect.ValueOf(a), in)
	other := map[uintptr]bool{}
	addresses(reflect.ValueOf(b), other)
	for p := range other {
		if in[p] {
			return true
		}
	}
	return false
}

// addresses collects the memory v refers to: what its pointers point to,
// its slices' arrays and its maps.
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
	case reflect.Map:
		if !v.IsNil() {
			into[v.Pointer()] = true
			for it := v.MapRange(); it.Next(); {
				addresses(it.Value(), into)
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			addresses(v.Field(i), into)
		}
	case reflect.Interface:
		if !v.IsNil() {
			addresses(v.Elem(), into)
		}
	}
}
