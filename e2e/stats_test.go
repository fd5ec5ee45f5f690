package e2e

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	dixbot "github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/internal/redistest"
	"github.com/dixgame/dixbot/store"
)

// statsKillLatency is the latency each way between the killed binary and
// Redis.
const statsKillLatency = 50 * time.Millisecond

// oneClick are the board's decisions made by one click, with their action.
var oneClick = map[string]dix.ActionKind{
	"draw": dix.ActDraw, "stop": dix.ActStop, "num": dix.ActTakeNumbers, "money": dix.ActTakeMoney,
	"end": dix.ActEndTurn, "cons": dix.ActConsolation, "pass": dix.ActPass,
}

// lastMove is the one-click decision of the player to act that ends the
// game, with the decisions the table then takes by itself (those with one
// possible answer that decides nothing: stop, end a turn, pass); "": none.
func lastMove(g *dix.Game) string {
	if g == nil || g.Phase == dix.PhaseOver {
		return ""
	}
	for _, verb := range []string{"end", "stop", "num", "money", "cons", "pass", "draw"} {
		c := g.Clone()
		if _, err := c.Apply(dix.Action{Kind: oneClick[verb], Player: g.ToAct()}); err != nil {
			continue
		}
		for range 50 {
			s := c.ToAct()
			if c.Phase == dix.PhaseOver || s < 0 {
				break
			}
			ch := c.Choices(s)
			if len(ch.Actions) != 1 || (ch.Actions[0] != dix.ActStop && ch.Actions[0] != dix.ActEndTurn && ch.Actions[0] != dix.ActPass) {
				break
			}
			if _, err := c.Apply(dix.Action{Kind: ch.Actions[0], Player: s}); err != nil {
				break
			}
		}
		if c.Phase == dix.PhaseOver {
			return verb
		}
	}
	return ""
}

// TestResultsRecordedOnceOverKills: on each store, games between the same
// two people of one server are played to their last move in process; the
// last click goes to the dixbot binary, whose work after the answer is
// held back 1.5 s (DIX_TEST_EFFECT_DELAY), and the binary is killed
// (SIGKILL) at a random moment from the answer to 1.8 s after it (mostly
// before the result is recorded), or, every other game on Redis starting with the first, as soon as
// the result is recorded, while the effect that recorded it is still owed
// (the binary reaches Redis with 50 ms each way, so the game's effects
// take a few hundred milliseconds more). Started
// again, the bot posts the scoreboard, and the server's statistics count
// every game exactly once: after game k, each person has played k.
// DIX_STATS_KILLS sets the kills per store (default 1: on Redis, one as
// soon as the result is recorded).
func TestResultsRecordedOnceOverKills(t *testing.T) {
	t.Parallel()
	kills := 1
	if v, err := strconv.Atoi(os.Getenv("DIX_STATS_KILLS")); err == nil && v > 0 {
		kills = v
	}
	for _, tc := range []struct {
		name  string
		redis bool
	}{{"redis", true}, {"embedded", false}} {
		t.Run(tc.name, func(t *testing.T) {
			fake := fakediscord.Start(t, fakediscord.Options{DisableWeb: true})
			redisURL, binURL := "", ""
			var rdb *redis.Client
			if tc.redis {
				rs := redistest.Start(t)
				redisURL = rs.URL()
				// The binary reaches Redis with 50 ms each way, which
				// stretches the time from the result's recording to the
				// end of the game's effects; the test watches Redis
				// directly.
				binURL = strings.Replace(redisURL, rs.Addr(), startProxy(t, rs.Addr(), statsKillLatency).Addr(), 1)
				rdb = redis.NewClient(&redis.Options{Addr: rs.Addr()})
				t.Cleanup(func() { rdb.Close() })
			}
			cfg := baseConfig(t, fake, redisURL)
			env := []string{
				"DISCORD_TOKEN=" + fake.Token(),
				"DISCORD_API_URL=" + fake.URL(),
				"REDIS_URL=" + binURL,
				"REDIS_PREFIX=" + cfg.RedisPrefix,
				"DIX_DATA_FILE=" + cfg.DataFile,
				"LOG_LEVEL=debug",
			}
			// played reads, while no bot runs (the embedded store's file
			// is locked while one does), how many games each person has
			// on record.
			played := func(guild string, users ...fakediscord.User) []int {
				t.Helper()
				var st interface {
					dixbot.Store
					dixbot.Stats
				}
				var err error
				if tc.redis {
					st, err = store.OpenRedis(context.Background(), store.Options{URL: redisURL, Prefix: cfg.RedisPrefix})
				} else {
					st, err = store.OpenFile(cfg.DataFile, store.Options{})
				}
				require.NoError(t, err)
				defer st.Close()
				var out []int
				for _, u := range users {
					ps, _, err := st.PlayerStats(context.Background(), guild, u.ID)
					require.NoError(t, err)
					n := 0
					for _, p := range ps {
						if p.Game == "dix" {
							n = p.Played
						}
					}
					out = append(out, n)
				}
				return out
			}

			w := &world{fake: fake, cfg: cfg}
			w.bot = startApp(t, cfg)
			first := w.table(t, "en-US", "Alice", "Bob")
			// Nobody buys (a purchase takes several clicks): the game
			// ends with a one-click decision.
			first.weights = map[string]int{"draw": 5, "stop": 3, "num": 3, "money": 1, "end": 1, "cons": 1, "bbuy": 1, "bid": 3, "pass": 1, "pay": 1}
			rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 29))
			recordedAtKill := 0
			for kill := range kills {
				tb := first
				if kill > 0 {
					// Another channel of the same server, same people.
					c := *first
					ch, err := fake.AddChannel(first.guild.ID, "dix")
					require.NoError(t, err)
					c.channel, c.rng = ch, rand.New(rand.NewPCG(uint64(kill), 3))
					tb = &c
				}
				tb.lobby("/dix start")
				var rec *dixbot.Record
				for i := 0; ; i++ {
					require.Less(t, i, 5000, "the game never reached its last move")
					rec = tb.record()
					if lastMove(dixOf(rec)) != "" {
						break
					}
					require.True(t, tb.decide(), "the game ended before its last move: finished %v, phase %v, seq %d", rec.Finished, dixOf(rec).Phase, dixOf(rec).Seq)
				}
				board, buttons := tb.boardFor(rec)
				end, ok := buttons[lastMove(dixOf(rec))]
				require.True(t, ok, "the last move %q is on the board", lastMove(dixOf(rec)))
				user := tb.user(seats(t, rec)[dixOf(rec).ToAct()])
				w.bot.stop()

				p := startProcess(t, append(env, "DIX_TEST_EFFECT_DELAY=1500ms"))
				ix, err := fake.Click(waitCtx(t), user.ID, board.ID, end.raw)
				require.NoError(t, err)
				r, err := ix.Wait(waitCtx(t))
				require.NoError(t, err, "the last click was answered; log:\n%s", p.log())
				require.False(t, r.Ephemeral(), "the last click was applied: %s", describe(r))
				if tc.redis && kill%2 == 0 {
					// Killed as soon as the result is recorded: the
					// effect that recorded it is still owed.
					pattern := cfg.RedisPrefix + "{g:" + tb.guild.ID + "}:r:dix:" + tb.channel.ID + ":*"
					require.NoError(t, waitUntil(waitCtx(t), fake, func() bool {
						keys, err := rdb.Keys(context.Background(), pattern).Result()
						return err == nil && len(keys) > 0
					}), "the result is recorded; log:\n%s", p.log())
				} else {
					time.Sleep(time.Duration(rng.IntN(1800)) * time.Millisecond)
				}
				require.NoError(t, p.cmd.Process.Signal(syscall.SIGKILL))
				<-p.done

				at := played(tb.guild.ID, tb.users...)
				if at[0] == kill+1 {
					recordedAtKill++
				}
				assert.Contains(t, []int{kill, kill + 1}, at[0], "before the restart")

				p2 := startProcess(t, env)
				_, err = fake.WaitMessage(waitCtx(t), tb.channel.ID, "", func(m fakediscord.Message) bool {
					return !m.Ephemeral() && hasVerb(m, "again")
				})
				require.NoError(t, err, "the scoreboard is posted after the restart; log:\n%s", p2.log())
				if at[0] == kill {
					// The scoreboard is the last click's answer; the result
					// is recorded by the work owed after it, which the
					// restarted process takes over: at once, or once the
					// lease is over (30 s) when the killed process, late on
					// a busy machine, held the effects longer.
					leased, cancel := context.WithTimeout(context.Background(), waitTimeout+30*time.Second)
					defer cancel()
					require.NoError(t, waitUntil(leased, fake, func() bool {
						return strings.Contains(p2.log(), "game result recorded")
					}), "the result is recorded after the restart; log:\n%s", p2.log())
				}
				require.Equal(t, 0, p2.terminate())
				assert.Equal(t, []int{kill + 1, kill + 1}, played(tb.guild.ID, tb.users...), "game %d counted once", kill+1)
				w.bot = startApp(t, cfg)
			}
			w.bot.stop()
			t.Logf("%s: %d kills between a game's last move and its scoreboard, %d of them after its result was recorded",
				tc.name, kills, recordedAtKill)
		})
	}
}
