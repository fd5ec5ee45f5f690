package e2e

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	dixbot "github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/internal/app"
	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/internal/redistest"
)

// world is a stand-in Discord, optionally a Redis server, and the program
// running against them.
type world struct {
	fake  *fakediscord.Server
	redis *redistest.Server
	cfg   app.Config
	bot   *running
}

// newWorld starts the stand-in (and Redis when withRedis) and the program.
// When the test ends the program is stopped and the stand-in must have
// recorded no protocol violation.
func newWorld(t *testing.T, withRedis bool) *world {
	t.Helper()
	return newWorldWith(t, withRedis, fakediscord.Options{DisableWeb: true})
}

// newWorldWith is newWorld with the stand-in's options.
func newWorldWith(t *testing.T, withRedis bool, opts fakediscord.Options) *world {
	t.Helper()
	w := &world{fake: fakediscord.Start(t, opts)}
	t.Cleanup(func() { noViolations(t, w.fake) })
	url := ""
	if withRedis {
		w.redis = redistest.Start(t)
		url = w.redis.URL()
	}
	w.cfg = baseConfig(t, w.fake, url)
	w.bot = startApp(t, w.cfg)
	return w
}

// store returns the running program's store.
func (w *world) store() dixbot.Store { return w.bot.started.Store }

// restart stops the program and starts it again with the same configuration.
func (w *world) restart(t *testing.T) {
	t.Helper()
	w.bot.stop()
	w.bot = startApp(t, w.cfg)
}

func (w *world) table(t *testing.T, guildLocale string, names ...string) *table {
	tb := newTable(t, w.fake, guildLocale, names...)
	tb.store = w.store
	return tb
}

func TestFullGame(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		redis bool
	}{
		{"redis", true},
		{"embedded", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, tc.redis)
			tb := w.table(t, "en-US", "Alice", "Bob", "Chloe")
			tb.lobby("/dix start")
			tb.playToEnd()
			tb.checkScoreboard([]string{"Alice", "Bob", "Chloe"})

			// The channel is free again.
			r := tb.command(tb.users[1], "/dix start")
			assert.False(t, r.Ephemeral(), "a new lobby opens after the game: %s", describe(r))
		})
	}
}

func TestSoloAgainstALIX(t *testing.T) {
	t.Parallel()
	w := newWorld(t, true)
	tb := w.table(t, "en-US", "Dana")
	r := tb.command(tb.users[0], "/dix solo difficulty:7")
	require.False(t, r.Ephemeral(), "the solo game starts: %s", describe(r))
	rec := tb.record()
	require.NotNil(t, dixOf(rec))
	assert.Equal(t, 1, dixOf(rec).Opts.Players)
	assert.Equal(t, 7, dixOf(rec).Opts.Difficulty)
	tb.playToEnd()
	tb.checkScoreboard([]string{"Dana", "ALIX"})
}
