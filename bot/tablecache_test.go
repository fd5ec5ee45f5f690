package bot

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/randfill"
)

// readBack is the table data as its JSON reads back, on random table data
// (strings JSON escapes and bytes that are not UTF-8 included; what is
// never stored set), and shares no memory with it.
func TestReadBackAsJSON(t *testing.T) {
	t.Parallel()
	strs := []string{"", "a", "Zoé", "<b>&amp;</b>", "\u2028\u2029", "\xff\xfe", "Zo\xc3", "\"q\\", "\t\n\x01", "🎲 3 4", "1577551606021357570"}
	r := rand.New(rand.NewPCG(11, 12))
	for i := range 3000 {
		var td tableData
		randfill.Fill(r, reflect.ValueOf(&td).Elem(), strs)
		td.V = tableDataVersion
		td.fresh, td.round, td.forgot = []string{"x"}, 2, true
		if td.BoardVia != nil {
			td.BoardVia.held = time.Now()
		}
		if td.Missing != nil && i%2 == 0 {
			td.Missing.Since, td.Missing.Next = time.Now(), time.Now().Add(time.Minute).In(time.FixedZone("X", 3600))
		}
		want, err := decodeTableData(td.Encode())
		require.NoError(t, err, "table data %d", i)
		got := readBack(&td)
		require.Equal(t, want, got, "table data %d", i)
		require.False(t, randfill.Shared(&td, got), "table data %d: the copy shares memory with it", i)
	}
}

// A change starts from the table data this process wrote last in the
// channel, a copy of its own each time, and only from the very bytes
// written.
func TestTableCacheGivesCopies(t *testing.T) {
	t.Parallel()
	var tc tableCache
	td := midGameTableData()
	meta := td.Encode()
	tc.put("c1", meta, td)
	td.Seats[0].Name = "changed after the write"

	a, b := tc.get("c1", meta), tc.get("c1", meta)
	require.NotNil(t, a)
	want, err := decodeTableData(meta)
	require.NoError(t, err)
	assert.Equal(t, want, a, "as the bytes read")
	assert.False(t, randfill.Shared(a, b), "two takers, two copies")
	a.Seats[1].Name = "changed by a taker"
	assert.Equal(t, want, tc.get("c1", meta), "the kept copy unchanged")

	assert.Nil(t, tc.get("c2", meta), "another channel")
	other := append([]byte(nil), meta...)
	other[len(other)-2] ^= 1
	assert.Nil(t, tc.get("c1", other), "other bytes")
}

// FuzzReadBack is TestReadBackAsJSON and TestTableDataAsEncodingJSON on
// table data filled from any seed with any strings (split at '|'): its
// bytes are encoding/json's, and the copy kept is what they read back.
func FuzzReadBack(f *testing.F) {
	f.Add(uint64(1), "Zoé|\xff\xfe|\u2028")
	f.Add(uint64(2), "<b>&amp;</b>|\"q\\|\t\n\x01")
	f.Add(uint64(3), "Zo\xc3|🎲 3 4|1577551606021357570")
	f.Fuzz(func(t *testing.T, seed uint64, s string) {
		strs := append(strings.Split(s, "|"), "")
		var td tableData
		randfill.Fill(rand.New(rand.NewPCG(seed, 7)), reflect.ValueOf(&td).Elem(), strs)
		td.V = tableDataVersion
		std, err := json.Marshal(&td)
		require.NoError(t, err)
		require.Equal(t, string(std), string(td.Encode()), "encoding/json's bytes")
		want, err := decodeTableData(td.Encode())
		require.NoError(t, err)
		require.Equal(t, want, readBack(&td))
	})
}
