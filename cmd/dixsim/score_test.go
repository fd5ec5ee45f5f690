package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/dix"
)

// emptyRuns is the "colors" field of a collection with no run.
const emptyRuns = `"colors":[{"color":"b","lo":0,"hi":0,"length":0,"bonus":0,"score":0},` +
	`{"color":"g","lo":0,"hi":0,"length":0,"bonus":0,"score":0},` +
	`{"color":"o","lo":0,"hi":0,"length":0,"bonus":0,"score":0},` +
	`{"color":"p","lo":0,"hi":0,"length":0,"bonus":0,"score":0}]`

func TestRunScore(t *testing.T) {
	empty := `{"total":0,` + emptyRuns + `,"wilds":[]}`
	tests := []struct {
		name string
		in   string
		want []string // one JSON object per output line
	}{
		{
			name: "rulebook example",
			in:   "b1 b2 b3 b3 b4 b5 b6 b9 g1 g2 g3 g# g5 g6 *7 g8 g9 p2 p3 p4 p5 p6 p8 o1 o4 o5 o6 o9\n",
			want: []string{`{"total":24,"colors":[` +
				`{"color":"b","lo":1,"hi":6,"length":6,"bonus":0,"score":6},` +
				`{"color":"g","lo":1,"hi":9,"length":9,"bonus":1,"score":10},` +
				`{"color":"o","lo":4,"hi":6,"length":3,"bonus":0,"score":3},` +
				`{"color":"p","lo":2,"hi":6,"length":5,"bonus":0,"score":5}],` +
				`"wilds":[{"card":"g#","color":"g","value":4,"used":true},{"card":"*7","color":"g","value":7,"used":true}]}`},
		},
		{
			name: "R14 wilds only; a black wild goes where it adds",
			in:   "b# b# *9 **\nb1 b2 b3 b4 b5 b6 b7 b8 b9 *5\n",
			want: []string{
				`{"total":4,"colors":[{"color":"b","lo":6,"hi":9,"length":4,"bonus":0,"score":4},` +
					`{"color":"g","lo":0,"hi":0,"length":0,"bonus":0,"score":0},` +
					`{"color":"o","lo":0,"hi":0,"length":0,"bonus":0,"score":0},` +
					`{"color":"p","lo":0,"hi":0,"length":0,"bonus":0,"score":0}],` +
					`"wilds":[{"card":"b#","color":"b","value":6,"used":true},{"card":"b#","color":"b","value":7,"used":true},` +
					`{"card":"*9","color":"b","value":9,"used":true},{"card":"**","color":"b","value":8,"used":true}]}`,
				`{"total":11,"colors":[{"color":"b","lo":1,"hi":9,"length":9,"bonus":1,"score":10},` +
					`{"color":"g","lo":5,"hi":5,"length":1,"bonus":0,"score":1},` +
					`{"color":"o","lo":0,"hi":0,"length":0,"bonus":0,"score":0},` +
					`{"color":"p","lo":0,"hi":0,"length":0,"bonus":0,"score":0}],` +
					`"wilds":[{"card":"*5","color":"g","value":5,"used":true}]}`,
			},
		},
		{name: "empty input", in: "", want: nil},
		{name: "empty lines are empty collections", in: "\n  \n\t\n", want: []string{empty, empty, empty}},
		{
			name: "bad lines are reported and skipped",
			in:   "x3\n$3 b1\nb9 b9\n** **\nb#\n",
			want: []string{
				`{"line":1,"error":"engine: bad card notation: \"x3\""}`,
				`{"line":2,"error":"dixsim: a collection holds no currency cards: $3"}`,
				`{"line":3,"error":"dixsim: more copies than the deck holds: 2 × b9 (at most 1)"}`,
				`{"line":4,"error":"dixsim: more copies than the deck holds: 2 × ** (at most 1)"}`,
				`{"total":1,"colors":[{"color":"b","lo":1,"hi":1,"length":1,"bonus":0,"score":1},` +
					`{"color":"g","lo":0,"hi":0,"length":0,"bonus":0,"score":0},` +
					`{"color":"o","lo":0,"hi":0,"length":0,"bonus":0,"score":0},` +
					`{"color":"p","lo":0,"hi":0,"length":0,"bonus":0,"score":0}],` +
					`"wilds":[{"card":"b#","color":"b","value":1,"used":true}]}`,
			},
		},
		{
			name: "CRLF and no final newline",
			in:   "o1 o2\r\n\r\no3",
			want: []string{
				`{"total":2,"colors":[{"color":"b","lo":0,"hi":0,"length":0,"bonus":0,"score":0},` +
					`{"color":"g","lo":0,"hi":0,"length":0,"bonus":0,"score":0},` +
					`{"color":"o","lo":1,"hi":2,"length":2,"bonus":0,"score":2},` +
					`{"color":"p","lo":0,"hi":0,"length":0,"bonus":0,"score":0}],"wilds":[]}`,
				empty,
				`{"total":1,"colors":[{"color":"b","lo":0,"hi":0,"length":0,"bonus":0,"score":0},` +
					`{"color":"g","lo":0,"hi":0,"length":0,"bonus":0,"score":0},` +
					`{"color":"o","lo":3,"hi":3,"length":1,"bonus":0,"score":1},` +
					`{"color":"p","lo":0,"hi":0,"length":0,"bonus":0,"score":0}],"wilds":[]}`,
			},
		},
		{
			name: "a line too long is reported and skipped",
			in:   strings.Repeat("b1 ", maxScoreLine) + "\n\n" + strings.Repeat(" ", 2*maxScoreLine),
			want: []string{`{"line":1,"error":"dixsim: line too long"}`, empty, `{"line":3,"error":"dixsim: line too long"}`},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			require.NoError(t, runScore(strings.NewReader(tc.in), &out))
			var got []string
			for l := range strings.Lines(out.String()) {
				got = append(got, strings.TrimSuffix(l, "\n"))
			}
			assert.Equal(t, tc.want, got)
			for _, l := range got {
				assert.True(t, json.Valid([]byte(l)), l)
			}
		})
	}
}

// TestRunScoreManyLines feeds a long input of random collections and checks
// each output line against dix.BestScore.
func TestRunScoreManyLines(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	deck, err := dix.BuildDeck(5)
	require.NoError(t, err)
	var in strings.Builder
	var want []int
	for range 2000 {
		r.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
		var coll []dix.Card
		for _, c := range deck[:r.IntN(40)] {
			if c.Kind != dix.KindCurrency {
				coll = append(coll, c)
			}
		}
		in.WriteString(dix.FormatCards(coll) + "\n")
		want = append(want, dix.BestScore(coll).Total)
	}
	var out strings.Builder
	require.NoError(t, runScore(strings.NewReader(in.String()), &out))
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	i := 0
	for ; sc.Scan(); i++ {
		var got scoreOut
		require.NoError(t, json.Unmarshal(sc.Bytes(), &got), sc.Text())
		require.Less(t, i, len(want))
		assert.Equal(t, want[i], got.Total, "line %d", i+1)
		assert.Len(t, got.Colors, 4)
	}
	assert.Equal(t, len(want), i)
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestRunScoreIOErrors(t *testing.T) {
	t.Run("write", func(t *testing.T) {
		err := runScore(strings.NewReader("b1\n"), failingWriter{})
		assert.ErrorContains(t, err, "disk full")
	})
	t.Run("read", func(t *testing.T) {
		var out strings.Builder
		err := runScore(failingReader{}, &out)
		assert.ErrorContains(t, err, "broken pipe")
	})
}
