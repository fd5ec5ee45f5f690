package dixtable

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
)

// fillValue sets every exported field reachable from v to a value of its
// own (slices of two, pointers to filled values), so that a copy sharing
// anything with v shows it.
func fillValue(v reflect.Value, n *int) {
	*n++
	if v.Type() == reflect.TypeOf(time.Time{}) {
		v.Set(reflect.ValueOf(time.Unix(int64(1_700_000_000+*n), 0).UTC()))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d", *n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(*n))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(*n))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(*n))
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fillValue(p.Elem(), n)
		v.Set(p)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fillValue(s.Index(i), n)
		}
		v.Set(s)
	case reflect.Map:
		mp := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fillValue(k, n)
		fillValue(e, n)
		mp.SetMapIndex(k, e)
		v.Set(mp)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fillValue(v.Field(i), n)
			}
		}
	}
}

// shared reports the path of a slice, map or pointer a and b share.
func shared(a, b reflect.Value, path string) string {
	switch a.Kind() {
	case reflect.Pointer, reflect.Map:
		if a.IsNil() || b.IsNil() {
			return ""
		}
		if a.Pointer() == b.Pointer() {
			return path
		}
		if a.Kind() == reflect.Pointer {
			return shared(a.Elem(), b.Elem(), path+".*")
		}
		it := a.MapRange()
		for it.Next() {
			if p := shared(it.Value(), b.MapIndex(it.Key()), path+"[k]"); p != "" {
				return p
			}
		}
	case reflect.Slice:
		if a.Len() > 0 && b.Len() > 0 && a.Index(0).Addr().Pointer() == b.Index(0).Addr().Pointer() {
			return path
		}
		for i := range min(a.Len(), b.Len()) {
			if p := shared(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p
			}
		}
	case reflect.Struct:
		for i := range a.NumField() {
			if f := a.Type().Field(i); f.IsExported() {
				if p := shared(a.Field(i), b.Field(i), path+"."+f.Name); p != "" {
					return p
				}
			}
		}
	}
	return ""
}

// filledMeta is table data with every field set, as encoded.
func filledMeta(t testing.TB) []byte {
	var m dixTable
	n := 0
	fillValue(reflect.ValueOf(&m).Elem(), &n)
	m.V = dixTableVersion
	b, err := json.Marshal(&m)
	require.NoError(t, err)
	return b
}

// Table data decoded again comes from the memo, as JSON decodes it, and
// each caller's copy shares nothing with another's or with the memo's:
// changing one changes nothing the next decodeDixTable returns.
func TestDecodeMetaCopiesShareNothing(t *testing.T) {
	t.Parallel()
	b := filledMeta(t)
	var want dixTable
	require.NoError(t, json.Unmarshal(b, &want))

	first, err := decodeDixTable(b)
	require.NoError(t, err)
	require.NotNil(t, decodedMetas.Get(b), "the decoded table data is kept")
	second, err := decodeDixTable(b)
	require.NoError(t, err)
	require.Equal(t, &want, first)
	require.Equal(t, &want, second)
	require.Empty(t, shared(reflect.ValueOf(first), reflect.ValueOf(second), "meta"))

	// Every field of the first copy changed: the second and the next
	// decoded copies do not see it.
	n := 1000
	fillValue(reflect.ValueOf(first).Elem(), &n)
	first.Seats[0].Votes[1] = "changed"
	first.Outbox = append(first.Outbox[:1], bot.Effect{Kind: "changed"})
	require.Equal(t, &want, second)
	third, err := decodeDixTable(b)
	require.NoError(t, err)
	require.Equal(t, &want, third)
}

// cloneDixTable keeps nil and empty slices apart (they encode differently),
// and copies a dixTable with nothing set.
func TestCloneMetaKeepsNilSlices(t *testing.T) {
	t.Parallel()
	m := &dixTable{V: 1, Seats: []seat{}, Log: nil}
	c := cloneDixTable(m)
	require.NotNil(t, c.Seats)
	require.Nil(t, c.Log)
	require.Equal(t, string(m.Encode()), string(c.Encode()))
	require.Equal(t, &dixTable{}, cloneDixTable(&dixTable{}))
}

// Table data that does not read is refused every time, never kept.
func TestDecodeMetaRefusalsNotKept(t *testing.T) {
	t.Parallel()
	for _, b := range []string{`{"v":1,"s":[`, `{"v":99}`, `{"v":0}`} {
		for range 2 {
			_, err := decodeDixTable([]byte(b))
			require.Error(t, err, b)
		}
		require.Nil(t, decodedMetas.Get([]byte(b)), b)
	}
}

// The memo holds a bounded number of entries: the older half goes.
func TestMetaMemoBounded(t *testing.T) {
	t.Parallel()
	mm := newDixTableMemo(8)
	for i := range 20 {
		mm.put([]byte(fmt.Sprint(i)), &dixTable{V: i})
	}
	require.LessOrEqual(t, len(mm.cur)+len(mm.old), 8)
	require.NotNil(t, mm.Get([]byte("19")))
	require.Nil(t, mm.Get([]byte("0")))
}

// Goroutines decoding the same table data and changing their copies at
// once (run with -race).
func TestDecodeMetaConcurrent(t *testing.T) {
	t.Parallel()
	b := filledMeta(t)
	var want dixTable
	require.NoError(t, json.Unmarshal(b, &want))
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				m, err := decodeDixTable(b)
				if err != nil || !reflect.DeepEqual(m, &want) {
					t.Errorf("goroutine %d: %v", g, err)
					return
				}
				m.Seats[0].Name = fmt.Sprint(i)
				m.Log = append(m.Log, "x")
				m.Clock.Banks[0]++
			}
		}()
	}
	wg.Wait()
}

// BenchmarkDecodeMeta is decodeDixTable on table data decoded before (a copy
// from the memo); BenchmarkDecodeMetaJSON decodes it every time, as
// decodeDixTable does on a miss.
func BenchmarkDecodeMeta(b *testing.B) {
	data := benchMeta(b)
	for b.Loop() {
		if _, err := decodeDixTable(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeMetaJSON(b *testing.B) {
	data := benchMeta(b)
	for b.Loop() {
		var m dixTable
		if err := json.Unmarshal(data, &m); err != nil {
			b.Fatal(err)
		}
	}
}

// benchMeta is the table data of a 5-player game in its second turn: log
// lines, an outbox, a clock.
func benchMeta(b *testing.B) []byte {
	m := &dixTable{V: 1, Creator: "100000000000000001", Lang: "en", Board: "1300000000000000001", Origin: "1200000000000000001",
		Turn: 2, Pace: "live", BoardVia: &bot.Via{App: "app", Token: "tok-0123456789abcdef", At: 1700000000000, Orig: "1300000000000000001"}}
	for s := range 5 {
		m.Seats = append(m.Seats, seat{ID: fmt.Sprint(110000000000000000 + s), Name: fmt.Sprintf("Player %d", s)})
	}
	for i := range 8 {
		m.addLog(fmt.Sprintf("**Player %d** bid %d on the Blue 5.", i%5, 3+i))
	}
	m.owe(&dixbot.Record{}, bot.Effect{Kind: bot.EffEdit}, bot.Effect{Kind: bot.EffPing, Users: []string{"110000000000000001"}, Text: "<@110000000000000001> it is your turn"})
	return m.Encode()
}

// setAll calls f on every settable value of kind k reachable from v.
func setAll(v reflect.Value, k reflect.Kind, f func(reflect.Value)) {
	if v.Kind() == k && v.CanSet() {
		f(v)
	}
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			setAll(v.Elem(), k, f)
		}
	case reflect.Slice:
		for i := range v.Len() {
			setAll(v.Index(i), k, f)
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(time.Time{}) {
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				setAll(v.Field(i), k, f)
			}
		}
	}
}

// What encode keeps for the next decodeDixTable is what decoding its bytes
// gives: with every field set, with every slice empty, with times of the
// clock (monotonic reading, local location) and zero times, and with a
// string that is not valid UTF-8 in any one field (then nothing is kept).
func TestEncodedMetaAsDecoded(t *testing.T) {
	t.Parallel()
	filled := func() *dixTable {
		var m dixTable
		n := 0
		fillValue(reflect.ValueOf(&m).Elem(), &n)
		return &m
	}
	check := func(name string, m *dixTable) {
		t.Helper()
		b := m.Encode()
		var want dixTable
		require.NoError(t, json.Unmarshal(b, &want), name)
		got, ok := decodedOf(m)
		require.True(t, ok, name)
		require.Equal(t, &want, got, name)
		require.True(t, reflect.DeepEqual(&want, got), name)
		kept := decodedMetas.Get(b)
		require.True(t, reflect.DeepEqual(&want, kept), "%s: kept as decoded", name)
	}
	check("every field set", filled())

	m := filled()
	setAll(reflect.ValueOf(m), reflect.Slice, func(v reflect.Value) {
		if v.Type().Elem().Kind() != reflect.Struct {
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		}
	})
	check("slices of values empty", m)
	m = filled()
	m.Outbox, m.Seats = []bot.Effect{}, []seat{}
	check("outbox and seats empty", m)
	m.Seats = nil
	check("no seats", m)

	m = filled()
	now := time.Now()
	m.Clock.Since, m.Clock.PausedAt = now, now.Add(time.Second).In(time.FixedZone("X", 3600))
	m.Missing.Since, m.Missing.Next = now, time.Time{}
	check("times of the clock", m)
	m.Clock.PausedAt = time.Time{}.In(time.FixedZone("X", 3600))
	check("a zero time with a location", m)

	strs := 0
	setAll(reflect.ValueOf(filled()), reflect.String, func(reflect.Value) { strs++ })
	require.Greater(t, strs, 30)
	for i := range strs {
		m := filled()
		j := 0
		setAll(reflect.ValueOf(m), reflect.String, func(v reflect.Value) {
			if j == i {
				v.SetString("a\xffb")
			}
			j++
		})
		b := m.Encode()
		var want dixTable
		require.NoError(t, json.Unmarshal(b, &want))
		if got, ok := decodedOf(m); ok {
			require.Equal(t, &want, got, "string %d", i)
		}
		got, err := decodeDixTable(b)
		require.NoError(t, err)
		require.Equal(t, &want, got, "string %d", i)
	}
}
