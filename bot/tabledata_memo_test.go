package bot

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// filled sets every exported field of v, at any depth, to a value that is
// not its zero, strings with characters encoding/json escapes.
func filled(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		filled(v.Elem(), n)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Date(2026, 12, 2, 8, 0, *n, 123456789, time.FixedZone("x", 3600))))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				filled(v.Field(i), n)
			}
		}
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			filled(s.Index(i), n)
		}
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for range 3 {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			filled(k, n)
			filled(e, n)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d <&> \"é\" \u2028 \x01 🎲", *n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(-int64(*n) * 1_000_003)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(*n) * 1_000_003)
	default:
		panic("a field of a kind not filled: " + v.Kind().String())
	}
}

// fullTableData is table data with every field set.
func fullTableData() *tableData {
	var n int
	td := &tableData{}
	filled(reflect.ValueOf(td).Elem(), &n)
	td.V = tableDataVersion
	return td
}

// tableDataCases are table data of several shapes, as written.
func tableDataCases() map[string][]byte {
	noNext := midGameTableData()
	noNext.Missing = &Missing{Kind: missingBoard, Since: time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC), Tries: 2}
	return map[string][]byte{
		"mid-game":    midGameTableData().Encode(),
		"every field": fullTableData().Encode(),
		"missing":     noNext.Encode(),
		"empty":       (&tableData{}).Encode(),
		"empty lists": []byte(`{"v":1,"s":[],"op":[],"oo":{},"ob":[{"i":1,"k":"x","u":[]}]}`),
		"nulls":       []byte(`{"v":1,"s":null,"pg":null,"oo":null}`),
		"other keys":  []byte(`{"V":1,"C":"u","zz":[1,{"a":2}],"s":[{"N":"n","u":"x"}]}`),
	}
}

// stdTableData decodes b with encoding/json alone.
func stdTableData(b []byte) (*tableData, error) {
	var td tableData
	if err := json.Unmarshal(b, &td); err != nil {
		return nil, err
	}
	return &td, nil
}

// Table data read from the memo is what encoding/json reads, the first
// time and the next.
func TestTableDataMemoAsEncodingJSON(t *testing.T) {
	t.Parallel()
	for name, b := range tableDataCases() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			want, err := stdTableData(b)
			require.NoError(t, err)
			for range 3 {
				got, err := decodeTableData(b)
				require.NoError(t, err)
				require.Equal(t, want, got)
			}
		})
	}
}

// Malformed or too new table data is refused every time, with
// encoding/json's error, and not kept.
func TestTableDataMemoRefusals(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	const swaps = `{}[]":,0123456789-.etnaulx\ `
	refused, read := 0, 0
	for _, p := range [][]byte{midGameTableData().Encode(), fullTableData().Encode()} {
		for range 1500 {
			b := append([]byte(nil), p...)
			for range 1 + rng.IntN(2) {
				at := rng.IntN(len(b))
				if rng.IntN(3) == 0 {
					b = append(b[:at], b[at+1:]...)
				} else {
					b[at] = swaps[rng.IntN(len(swaps))]
				}
			}
			want, stdErr := stdTableData(b)
			for range 2 {
				got, err := decodeTableData(b)
				switch {
				case stdErr != nil:
					require.ErrorContains(t, err, stdErr.Error(), "%s", b)
				case want.V > tableDataVersion:
					require.Error(t, err, "%s", b)
				default:
					require.NoError(t, err, "%s", b)
					require.Equal(t, want, got, "%s", b)
				}
			}
			if stdErr != nil || want.V > tableDataVersion {
				require.Nil(t, tableDataMemo.get(b), "a refusal is not kept")
				refused++
			} else {
				read++
			}
		}
	}
	require.Greater(t, refused, 100)
	require.Greater(t, read, 100)
	_, err := decodeTableData([]byte(`{"v":2}`))
	require.Error(t, err)
	_, err = decodeTableData([]byte(`{"v":2}`))
	require.Error(t, err, "too new, the second time too")
}

// refs returns the addresses of the memory v refers to (pointers, slices'
// arrays, maps), at any depth; not strings, which cannot be changed.
func refs(v reflect.Value, out map[uintptr]string, path string) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			out[v.Pointer()] = path
			refs(v.Elem(), out, path+".*")
		}
	case reflect.Slice:
		if v.Cap() > 0 {
			out[v.Pointer()] = path
		}
		for i := range v.Len() {
			refs(v.Index(i), out, fmt.Sprintf("%s[%d]", path, i))
		}
	case reflect.Map:
		if !v.IsNil() {
			out[v.Pointer()] = path
		}
		for it := v.MapRange(); it.Next(); {
			refs(it.Value(), out, path+"["+fmt.Sprint(it.Key())+"]")
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				refs(v.Field(i), out, path+"."+v.Type().Field(i).Name)
			}
		}
	}
}

// Copies handed out share no pointer, slice or map with each other nor
// with the one kept, and the copy of every field is equal to it.
func TestTableDataCopiesShareNothing(t *testing.T) {
	t.Parallel()
	full := fullTableData()
	c := cloneTableData(full)
	require.Equal(t, full, c)

	b := full.Encode()
	a, err := decodeTableData(b)
	require.NoError(t, err)
	bb, err := decodeTableData(b)
	require.NoError(t, err)
	kept := tableDataMemo.get(b)
	require.NotNil(t, kept)
	require.Equal(t, a, bb)
	require.Equal(t, a, kept)
	copies := []*tableData{full, c, a, bb, kept}
	seen := map[uintptr]string{}
	for i, td := range copies {
		mine := map[uintptr]string{}
		refs(reflect.ValueOf(td), mine, fmt.Sprint(i))
		require.Greater(t, len(mine), 25, "the table data's parts")
		for p, path := range mine {
			other, dup := seen[p]
			require.False(t, dup, "%s and %s share memory", path, other)
			seen[p] = path
		}
	}
}

// Copies used and changed at once by concurrent calls (go test -race).
func TestTableDataMemoConcurrent(t *testing.T) {
	t.Parallel()
	b := fullTableData().Encode()
	want, err := stdTableData(b)
	require.NoError(t, err)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				td, err := decodeTableData(b)
				if !reflect.DeepEqual(want, td) || err != nil {
					t.Errorf("goroutine %d, call %d: not the table data written (%v)", g, i, err)
					return
				}
				td.Seats[0].Votes[0] = "changed"
				td.Seats = append(td.Seats, tableSeat{Name: "x"})
				td.Outbox[1].Via.Token = "changed"
				td.Outbox[0].Users[1] = "changed"
				td.Ping.Opens[0]++
				td.Missing.Since = time.Time{}
				for k := range td.Opts {
					td.Opts[k] = "changed"
				}
				td.Opts["new"] = "x"
				td.Pic.Key = "changed"
			}
		})
	}
	wg.Wait()
}

// The memo keeps two generations: an entry of the older one is moved to
// the newer when read, the older one is dropped when the newer is full.
func TestTableDataMemoGenerations(t *testing.T) {
	t.Parallel()
	m := &tdMemo{cur: map[string]*tableData{}}
	key := func(i int) []byte { return fmt.Appendf(nil, `{"v":1,"c":"%d"}`, i) }
	for i := range tableDataMemoSize {
		m.put(key(i), &tableData{Creator: fmt.Sprint(i)})
	}
	m.put(key(tableDataMemoSize), &tableData{})
	require.Len(t, m.cur, 1, "a new generation")
	require.Equal(t, "0", m.get(key(0)).Creator, "from the older generation")
	require.Len(t, m.cur, 2, "moved to the newer")
	for i := range tableDataMemoSize - 2 {
		m.put(key(tableDataMemoSize+1+i), &tableData{})
	}
	require.Len(t, m.cur, tableDataMemoSize)
	m.put(key(3*tableDataMemoSize), &tableData{})
	require.Nil(t, m.get(key(1)), "dropped with its generation")
	require.NotNil(t, m.get(key(0)), "kept when it was read")
}

// BenchmarkDecodeTableDataUnkept reads table data the memo does not
// keep (BenchmarkDecodeTableData reads the same bytes again and again).
func BenchmarkDecodeTableDataUnkept(b *testing.B) {
	td := midGameTableData()
	data := make([][]byte, b.N)
	for i := range data {
		td.Lobby = uint32(i + 1_000_000)
		data[i] = td.Encode()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for _, d := range data {
		if _, err := decodeTableData(d); err != nil {
			b.Fatal(err)
		}
	}
}
