package bot

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/randfill"
)

// midGameTableData is the table data of a four-seat game under way: a
// computer seat, clocks, a ping, a board edit and a ping edit owed.
func midGameTableData() *tableData {
	via := &Via{App: "1577551606021357568", Token: "aW50ZXJhY3Rpb246MTU3NzU1MTYwNzUxMDMzNTQ4ODpzZWNyZXQtdG9rZW4tb2YtdGhlLWludGVyYWN0aW9u", At: 1796188017123, Orig: "1577551606424010752"}
	return &tableData{
		V: tableDataVersion, Creator: "1577551606021357570", Lang: "fr",
		Seats: []tableSeat{{User: "1577551606021357570", Name: "Alice"}, {User: "1577551606021357571", Name: "Bruno"},
			{User: "1577551606021357572", Name: "Carol", Late: 1}, {Name: "Robot 4 (normal)", Level: "normal"}},
		Lobby: 7, Board: "1577551606424010752", Opened: "1577551606021357999", Seed: 8674665223082153551,
		Open: []uint64{41, 41, 40, 41},
		Log: []string{"🎲 Alice rolled 3 4 2 6 1 5", "✅ Bruno marked yellow 7", "⏭️ Carol passed", "🤖 Robot 4 marked red 9",
			"✅ Alice marked blue 11", "❌ Carol took a penalty", "🎲 Bruno rolled 6 6 1 2 3 4"},
		Pace: "evening", Acted: []int64{1796188010000, 1796188011000, 1796188005000, 0},
		OpenAt: []int64{1796188017000, 1796188017000, 1796188016000, 1796188017000},
		Ping:   &pingMsg{ID: "1577551607044767744", Via: via, Users: []string{"1577551606021357572"}, Names: []string{"Carol"}, Opens: []uint64{40}},
		Banks:  []int64{86400000, 86100000, 85000000, 86400000},
		Outbox: []effect{{ID: 12, Kind: "cedit", Msg: "1577551606424010752", Via: via},
			{ID: 13, Kind: "pedit", Msg: "1577551607044767744", Users: []string{"1577551606021357572"}, Text: "⏳ Carol, à vous : marquer ou passer."}},
		NextEffect: 13, BoardVia: via, Reminded: []uint64{0, 0, 41, 0},
		Pic:  &boardPic{Msg: "1577551606424010752", Key: "q5f3a9c2e7b1d4086"},
		Opts: map[string]string{"variant": "classic"},
	}
}

func BenchmarkDecodeTableData(b *testing.B) {
	data := midGameTableData().Encode()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeTableData(data); err != nil {
			b.Fatal(err)
		}
	}
}

// The table data reads back as it was written.
func TestTableDataRoundTrip(t *testing.T) {
	t.Parallel()
	td := midGameTableData()
	got, err := decodeTableData(td.Encode())
	require.NoError(t, err)
	require.Equal(t, td, got)
}

func BenchmarkEncodeTableData(b *testing.B) {
	td := midGameTableData()
	b.ReportAllocs()
	for b.Loop() {
		td.Encode()
	}
}

// The table data's bytes and its reading are those of encoding/json, on
// random table data whose strings hold what JSON escapes.
func TestTableDataAsEncodingJSON(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 2000 {
		var td tableData
		randfill.Fill(r, reflect.ValueOf(&td).Elem(), []string{"", "a", "Zoé", "<b>&amp;</b>", "\u2028\u2029", "\xff\xfe", "\"q\\", "\t\n\x01", "🎲 3 4", "1577551606021357570"})
		want, err := json.Marshal(&td)
		require.NoError(t, err)
		require.Equal(t, string(want), string(td.Encode()), "table data %d", i)
		var std tableData
		require.NoError(t, json.Unmarshal(want, &std))
		got, err := decodeTableData(want)
		if std.V > tableDataVersion {
			require.Error(t, err)
			continue
		}
		require.NoError(t, err)
		require.Equal(t, &std, got, "table data %d", i)
	}
}
