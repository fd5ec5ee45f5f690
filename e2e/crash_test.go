package e2e

import (
	"context"
	"os"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	dixbot "github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/internal/redistest"
	"github.com/dixgame/dixbot/store"
)

// turnEndVerbs end the turn in one click, so the next board is owed.
var turnEndVerbs = []string{"money", "end"}

// TestKilledAfterSavingStillPostsTheBoard: the bot is killed (SIGKILL) after
// saving a click that ends a turn and before posting the next board (the
// test hook DIX_TEST_EFFECT_DELAY holds that work back to widen the window).
// Started again, within 5 s the channel has exactly one board with
// buttons, for the game as saved.
// E2E_KILLS sets how many kills each store gets (default 2).
func TestKilledAfterSavingStillPostsTheBoard(t *testing.T) {
	t.Parallel()
	kills := 2
	if v, err := strconv.Atoi(os.Getenv("E2E_KILLS")); err == nil && v > 0 {
		kills = v
	}
	for _, tc := range []struct {
		name  string
		redis bool
	}{{"redis", true}, {"embedded", false}} {
		t.Run(tc.name, func(t *testing.T) {
			fake := fakediscord.Start(t, fakediscord.Options{DisableWeb: true})
			redisURL := ""
			if tc.redis {
				redisURL = redistest.Start(t).URL()
			}
			cfg := baseConfig(t, fake, redisURL)
			env := []string{
				"DISCORD_TOKEN=" + fake.Token(),
				"DISCORD_API_URL=" + fake.URL(),
				"REDIS_URL=" + redisURL,
				"REDIS_PREFIX=" + cfg.RedisPrefix,
				"DIX_DATA_FILE=" + cfg.DataFile,
				"LOG_LEVEL=debug",
			}
			// readRecord reads the saved game while no bot runs (the
			// embedded store's file is locked while one does).
			readRecord := func(channel string) *dixbot.Record {
				t.Helper()
				var st dixbot.Store
				var err error
				if tc.redis {
					st, err = store.OpenRedis(context.Background(), store.Options{URL: redisURL, Prefix: cfg.RedisPrefix})
				} else {
					st, err = store.OpenFile(cfg.DataFile, store.Options{})
				}
				require.NoError(t, err)
				defer st.Close()
				r, err := getRecord(waitCtx(t), st, channel)
				require.NoError(t, err)
				return r
			}

			w := &world{fake: fake, cfg: cfg}
			w.bot = startApp(t, cfg)
			tb := w.table(t, "en-US", "Alice", "Bob", "Chloe")
			tb.lobby("/dix start")
			dead := 0
			var gaps []time.Duration
			for kill := 0; kill < kills; kill++ {
				// Play in process up to a turn-ending decision, then hand
				// the table to the binary for the click.
				rec, board, buttons, user := tb.untilVerbs(turnEndVerbs, 300)
				w.bot.stop()
				p := startProcess(t, append(env, "DIX_TEST_EFFECT_DELAY=1500ms"))
				id := buttons[turnEndVerbs[slices.IndexFunc(turnEndVerbs, func(v string) bool { _, ok := buttons[v]; return ok })]]
				ix, err := fake.Click(waitCtx(t), user.ID, board.ID, id.raw)
				require.NoError(t, err)
				r, err := ix.Wait(waitCtx(t)) // answered: saved, the board not yet posted
				require.NoError(t, err, "the click was answered; log:\n%s", p.log())
				require.False(t, r.Ephemeral(), "the click was applied: %s", describe(r))
				require.NoError(t, p.cmd.Process.Signal(syscall.SIGKILL))
				<-p.done

				saved := readRecord(tb.channel.ID)
				require.Greater(t, dixOf(saved).Seq, dixOf(rec).Seq, "the click was saved")
				if len(liveBoards(fake, tb.channel.ID, version(t, saved))) == 0 {
					dead++ // nothing to click on until the bot repairs it
				}
				start := time.Now()
				p2 := startProcess(t, env)
				var live []fakediscord.Message
				require.NoError(t, waitUntil(waitCtx(t), fake, func() bool {
					live = liveBoards(fake, tb.channel.ID, version(t, saved))
					return len(live) > 0
				}), "no board with current buttons after the restart; log:\n%s", p2.log())
				gaps = append(gaps, time.Since(start))
				assert.Less(t, time.Since(start), 5*time.Second+waitSlack, "the board is back within 5 s of the restart")
				assert.Len(t, liveBoards(fake, tb.channel.ID, 0), 1, "exactly one board with buttons")
				require.Equal(t, 0, p2.terminate())
				w.bot = startApp(t, cfg)
			}
			t.Logf("%d kills after saving: %d left no board until the restart; every restart posted it (took %v)", kills, dead, gaps)
		})
	}
}

// waitSlack absorbs the start-up of the process under the race detector.
const waitSlack = 2 * time.Second

// liveBoards are the channel's public messages carrying game buttons (of
// state version seq, or of any version when seq is 0).
func liveBoards(fake *fakediscord.Server, channel string, seq uint32) []fakediscord.Message {
	var out []fakediscord.Message
	for _, m := range fake.Transcript(channel) {
		if m.Deleted || m.Ephemeral() {
			continue
		}
		for _, c := range components(m) {
			if id, ok := parseCustomID(c.CustomID); ok && slices.Contains(gameVerbs, id.verb) && (seq == 0 || id.version == uint64(seq)) {
				out = append(out, m)
				break
			}
		}
	}
	return out
}
