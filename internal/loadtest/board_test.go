package loadtest

import (
	"context"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/locales"
)

func row(ids ...string) fakediscord.Component {
	r := fakediscord.Component{Type: fakediscord.ComponentActionRow}
	for _, id := range ids {
		r.Components = append(r.Components, fakediscord.Component{Type: fakediscord.ComponentButton, CustomID: id})
	}
	return r
}

func TestReadDixBoard(t *testing.T) {
	t.Parallel()
	fields := []fakediscord.EmbedField{{Name: "Tableau: 7"}, {Name: "p1"}, {Name: "👉 p2"}, {Name: "⭐ p3"}}
	embeds := []fakediscord.Embed{{Title: "DIX — p3's turn", Fields: fields}}
	tests := []struct {
		name    string
		msg     fakediscord.Message
		ok      bool
		over    bool
		version uint64
		ids     []string
		actor   string
	}{
		{"a board", fakediscord.Message{Embeds: embeds, Components: []fakediscord.Component{row("dix:mv:12:draw", "dix:mv:12:stop"), row("dix:st:12:hand")}},
			true, false, 12, []string{"dix:mv:12:draw", "dix:mv:12:stop"}, "p2"},
		{"the prompt's button", fakediscord.Message{Embeds: embeds, Components: []fakediscord.Component{row("dix:pr:30", "dix:mv:30:end")}},
			true, false, 30, []string{"dix:pr:30", "dix:mv:30:end"}, "p2"},
		{"older buttons left out", fakediscord.Message{Embeds: embeds, Components: []fakediscord.Component{row("dix:mv:8:bid", "dix:mv:9:pass")}},
			true, false, 9, []string{"dix:mv:9:pass"}, "p2"},
		{"the scoreboard", fakediscord.Message{Embeds: []fakediscord.Embed{{Title: "DIX — final scores"}}, Components: []fakediscord.Component{row("dix:again:0")}},
			true, true, 0, nil, ""},
		{"a lobby", fakediscord.Message{Content: "DIX", Components: []fakediscord.Component{row("dix:join:0", "dix:go:0")}}, false, false, 0, nil, ""},
		{"a ping", fakediscord.Message{Content: "p2, your turn"}, false, false, 0, nil, ""},
		{"not ours", fakediscord.Message{Embeds: embeds, Components: []fakediscord.Component{row("other:mv:1:draw", "dix:mv:x:draw")}}, false, false, 0, nil, ""},
	}
	d := newDixGame("en", []string{"p1", "p2", "p3"})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			v, ok := d.read(tc.msg)
			require.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.over, v.over)
			assert.Equal(t, tc.version, v.version)
			var ids []string
			for _, id := range v.buttons {
				ids = append(ids, id.raw)
			}
			assert.Equal(t, tc.ids, ids)
			if tc.actor != "" {
				assert.Equal(t, []string{tc.actor}, slices.Collect(maps.Keys(v.deciding)))
				assert.Equal(t, "DIX — p3's turn", v.round)
			}
		})
	}
}

// The clue-giver, the guessers still racing and the turn are read from
// Dixxit's board in either language; a computer seat is not a player.
func TestReadDixxitBoard(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"en", "fr"} {
		names := []string{"p1", "p2", "p3"}
		d := newDixxitGame(lang, names)
		title := locales.N(lang, "dixxit_board_title", 40, map[string]any{"Turn": 7, "Name": "p2", "Pile": 40})
		clue := fakediscord.Message{Content: title + "\n" + locales.T(lang, "dixxit_waiting_clue", map[string]any{"Name": "p2"}),
			Components: []fakediscord.Component{row("dixxit:pr:31")}}
		v, ok := d.read(clue)
		require.True(t, ok, lang)
		assert.Equal(t, 7, v.turn, lang)
		assert.Equal(t, uint64(31), v.version, lang)
		assert.Equal(t, []string{"p2"}, slices.Collect(maps.Keys(v.deciding)), lang)

		race := fakediscord.Message{Content: title + "\n" + locales.T(lang, "dixxit_waiting_guess", map[string]any{"Names": "p1 🌙, Robot 1 🤖, p3"}),
			Components: []fakediscord.Component{row("dixxit:mv:32:f 1 7", "dixxit:mv:32:f 2 7")}}
		race.Components[0].Components[1].Style = buttonPrimary
		v, ok = d.read(race)
		require.True(t, ok, lang)
		assert.ElementsMatch(t, []string{"p1", "p3"}, slices.Collect(maps.Keys(v.deciding)), lang)
		free := freeSquares(race, nil)
		require.Len(t, free, 1, "square 1 is held")
		assert.Equal(t, "f 2 7", free[0].arg)
		assert.Empty(t, freeSquares(race, map[string]bool{"f 2 7": true}), "tried already")

		over := fakediscord.Message{Content: locales.T(lang, "dixxit_over_title", nil) + "\n1. p1", Components: []fakediscord.Component{row("dixxit:again:0")}}
		v, ok = d.read(over)
		assert.True(t, ok && v.over, lang)
		_, ok = d.read(fakediscord.Message{Content: "p1, p3: race!"})
		assert.False(t, ok, "a ping")
	}
}

func TestIDAfter(t *testing.T) {
	t.Parallel()
	assert.True(t, idAfter("1000000000000000001", "999999999999999999"), "longer is newer")
	assert.True(t, idAfter("1000000000000000002", "1000000000000000001"))
	assert.False(t, idAfter("1000000000000000001", "1000000000000000001"))
}

func TestPercentiles(t *testing.T) {
	t.Parallel()
	var l []time.Duration
	for i := 1; i <= 200; i++ {
		l = append(l, time.Duration(i)*time.Millisecond)
	}
	assert.Equal(t, Percentiles{Count: 200, P50: 100, P90: 180, P99: 198, Max: 200}, percentiles(l), "nearest rank")
	assert.Equal(t, Percentiles{Count: 1, P50: 7, P90: 7, P99: 7, Max: 7}, percentiles([]time.Duration{7 * time.Millisecond}))
	assert.Equal(t, Percentiles{}, percentiles(nil))
}

func TestProcReadsThisProcess(t *testing.T) {
	t.Parallel()
	// Burn a little CPU so the tick counter moves.
	for deadline := time.Now().Add(50 * time.Millisecond); time.Now().Before(deadline); {
	}
	cpu, err := procCPU(os.Getpid())
	require.NoError(t, err)
	assert.Positive(t, cpu)
	_, err = procRunDelay(os.Getpid())
	require.NoError(t, err)
	st, err := procStatus(os.Getpid())
	require.NoError(t, err)
	assert.Positive(t, st["VmHWM"])
	assert.GreaterOrEqual(t, st["VmHWM"], st["VmRSS"])
	m := readMachine()
	assert.Positive(t, m.CPUs)
	assert.Positive(t, m.MemoryMiB)
	a := readMachineCPU()
	assert.Positive(t, a.busy+a.idle)
}

func TestReadLogProblems(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "bot.log")
	log := `{"time":"t","level":"INFO","msg":"ready"}
{"time":"t","level":"WARN","msg":"effects left for later","err":"429"}
{"time":"t","level":"WARN","msg":"effects left for later","err":"429"}
not json
{"time":"t","level":"ERROR","msg":"interaction failed","err":"boom"}
`
	require.NoError(t, os.WriteFile(path, []byte(log), 0o600))
	p, err := readLogProblems(path)
	require.NoError(t, err)
	assert.Equal(t, LogProblems{Warnings: 2, Errors: 1, First: []string{"WARN effects left for later: 429", "ERROR interaction failed: boom"}}, p)
}

func TestHistogram(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`# HELP dix_interaction_duration_seconds Time taken to handle an interaction.
# TYPE dix_interaction_duration_seconds histogram
dix_interaction_duration_seconds_bucket{le="0.005"} 60
dix_interaction_duration_seconds_bucket{le="0.01"} 90
dix_interaction_duration_seconds_bucket{le="0.05"} 99
dix_interaction_duration_seconds_bucket{le="0.1"} 100
dix_interaction_duration_seconds_bucket{le="+Inf"} 100
dix_interaction_duration_seconds_sum 0.6
dix_interaction_duration_seconds_count 100
dix_active_games 3
dix_redis_commands_sent_total 420
dix_redis_round_trips_total 400
`))
	}))
	defer srv.Close()
	h, err := scrapeHistogram(context.Background(), strings.TrimPrefix(srv.URL, "http://"))
	require.NoError(t, err)
	assert.Equal(t, uint64(100), h.count)
	assert.InDelta(t, 0.0025, h.quantile(0.3), 1e-9, "interpolated in the first bucket")
	assert.InDelta(t, 0.01, h.quantile(0.9), 1e-9)
	assert.InDelta(t, 0.05, h.quantile(0.99), 1e-9)
	assert.Equal(t, uint64(1), h.over(0.05))

	before := histogram{bounds: h.bounds, cum: []uint64{50, 50, 50, 50, 50}, sum: 0.1, count: 50}
	d := h.minus(before)
	assert.Equal(t, uint64(50), d.count)
	assert.Equal(t, []uint64{10, 40, 49, 50, 50}, d.cum)
	assert.InDelta(t, 0.5, d.sum, 1e-9)

	_, sent, err := scrapeMetrics(context.Background(), strings.TrimPrefix(srv.URL, "http://"))
	require.NoError(t, err)
	assert.Equal(t, redisSent{known: true, commands: 420, roundTrips: 400}, sent)

	_, err = scrapeHistogram(context.Background(), "127.0.0.1:1")
	assert.Error(t, err, "nothing listens there")
}
