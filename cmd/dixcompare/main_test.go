package main

import (
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/dixgame/dixbot/internal/loadtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func fixture(t *testing.T, name string) loadtest.Report {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	require.NoError(t, err)
	r, err := decodeReport(b)
	require.NoError(t, err)
	return r
}

// The reports of today's load tool and of b0f6735's (which counted no
// uploads) both read.
func TestDecodeReport(t *testing.T) {
	t.Parallel()
	now := fixture(t, "report.json")
	assert.InDelta(t, 2.0588, now.Bot.CPUPerInteractionMS, 1e-3)
	assert.Equal(t, 34, now.Answers.Answered)
	assert.Equal(t, 0, late(now))
	assert.InDelta(t, 6.247, now.Answers.Latency.P99, 1e-9)
	assert.Contains(t, result{report: now}.line(), "16.1 KiB uploaded a turn")

	old := fixture(t, "report-b0f6735.json")
	assert.InDelta(t, 3.1429, old.Bot.CPUPerInteractionMS, 1e-3)
	assert.Contains(t, result{report: old}.line(), "— uploaded a turn", "b0f6735's load tool counted no uploads")

	_, err := decodeReport([]byte(`{"bot":{"measured":false},"answers":{"answered":3}}`))
	assert.ErrorContains(t, err, "measured no interaction")
	_, err = decodeReport([]byte(`{"bot":`))
	assert.ErrorContains(t, err, "report")
}

func TestLateCountsTheUnanswered(t *testing.T) {
	t.Parallel()
	var r loadtest.Report
	r.Answers.Dispatched, r.Answers.InTime, r.Answers.Unanswered = 100, 97, 1
	assert.Equal(t, 3, late(r), "two answered late and one never")
}

func TestOrderAlternates(t *testing.T) {
	t.Parallel()
	other, here := side{name: "b0f6735"}, side{name: "this tree"}
	assert.Equal(t, []side{other, here}, order(1, other, here))
	assert.Equal(t, []side{here, other}, order(2, other, here))
	assert.Equal(t, []side{other, here}, order(3, other, here))
}

func TestTableGivesTheRatioOfEachPair(t *testing.T) {
	t.Parallel()
	now, old := fixture(t, "report.json"), fixture(t, "report-b0f6735.json")
	o := options{game: "qwixx", games: 450, think: 3 * time.Second, duration: 90 * time.Second, pairs: 2}
	runs := []result{
		{pair: 1, side: "33d6b8c", report: old}, {pair: 1, side: "this tree", report: now},
		{pair: 2, side: "this tree", report: now}, {pair: 2, side: "33d6b8c", report: old},
	}
	out := table(o, "33d6b8c", "this tree", runs)
	assert.Contains(t, out, "`dixload -bot <bin> -games 450 -think 3s -duration 1m30s -q -game qwixx`")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 6, out)
	assert.True(t, strings.HasPrefix(lines[4], "| 1 | 33d6b8c | 3.14 ms; p99 6.3 ms; 0 late; others 0.00 cores | 2.06 ms; p99 6.2 ms; 0 late; others 0.00 cores | 0.66 |"), lines[4])
	assert.True(t, strings.HasPrefix(lines[5], "| 2 | this tree | 3.14 ms"), lines[5])
	assert.True(t, strings.HasSuffix(lines[5], "| 0.66 |"), lines[5])

	o.hereSocket = true
	assert.Contains(t, table(o, "33d6b8c", "this tree", runs), "-game qwixx`, each bot with its own load tool, this tree's with `-redis-socket`:")
}

func TestParseRefuses(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"-game", "chess"},
		{"-against", ""},
		{"-games", "0"},
		{"-pairs", "0"},
		{"-duration", "0s"},
		{"extra"},
	} {
		_, err := parse(args, io.Discard)
		assert.Error(t, err, "%v", args)
	}
	o, err := parse(nil, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, options{against: "b0f6735", game: "dix", games: 1000, think: 3 * time.Second, duration: 90 * time.Second, pairs: 2}, o)
}
