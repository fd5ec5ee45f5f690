package bot

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	rules "github.com/dixgame/dixbot/engine/qwixx"

	botdix "github.com/dixgame/dixbot/bot/dix"
	botdixxit "github.com/dixgame/dixbot/bot/dixxit"
	botqwixx "github.com/dixgame/dixbot/bot/qwixx"
	"github.com/dixgame/dixbot/internal/redistest"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/store"
	"github.com/stretchr/testify/require"
)

// newQwixxHarness is a harness whose bot also hosts Qwixx.
func newQwixxHarness(t *testing.T, pictures bool) *harness {
	t.Helper()
	h := newHarness(t)
	b, err := New(Options{Store: h.Db, DefaultLanguage: "en", Seed: func() int64 { return 11 }, Observer: h.Obs,
		NoPictures: !pictures, Games: []present.Game{botqwixx.Game()}})
	require.NoError(t, err)
	b.workBudget, b.deferAfter = harnessBudget, harnessBudget
	h.b = b
	return h
}

// newEveryGameHarness is a harness whose table hosts the three games,
// without pictures.
func newEveryGameHarness(t *testing.T) *harness {
	t.Helper()
	return newEveryGameHarnessOn(t, nil)
}

// newEveryGameHarnessOn is newEveryGameHarness on the store db (nil: a
// MemStore).
func newEveryGameHarnessOn(t testing.TB, db dixbot.Store) *harness {
	t.Helper()
	h := newHarnessOn(t, db)
	h.b = h.everyGameBot()
	return h
}

// everyGameBot is another process of the table of the three games, on the
// harness's store, without pictures.
func (h *harness) everyGameBot() *Bot {
	h.T.Helper()
	b, err := New(Options{Store: h.Db, DefaultLanguage: "en", Seed: func() int64 { return 11 }, Observer: h.Obs,
		NoPictures: true, Games: []present.Game{botdix.Game(), botqwixx.Game(), botdixxit.Game()}})
	require.NoError(h.T, err)
	b.workBudget, b.deferAfter = harnessBudget, harnessBudget
	return b
}

// qcommand runs /qwixx <sub> with options (name, value pairs).
func (h *harness) qcommand(user, sub string, opts ...any) result {
	h.T.Helper()
	return h.Run(h.GameCommandIx("qwixx", user, sub, opts...))
}

// gameFind returns the custom id of msg's component of game with the
// verb (and, when given, the argument).
func gameFind(game string, msg *tabletest.Message, verb, arg string) (string, bool) {
	for _, id := range tabletest.ComponentIDs(msg.Components) {
		p, err := parseID(id, gameVerbs)
		if err == nil && strings.HasPrefix(id, game+":") && p.Verb == verb && (arg == "" || p.Arg == arg) {
			return id, true
		}
	}
	return "", false
}

// qfind returns the custom id of msg's Qwixx component with the verb
// (and, when given, the argument).
func qfind(msg *tabletest.Message, verb, arg string) (string, bool) {
	return gameFind("qwixx", msg, verb, arg)
}

func (h *harness) qmust(msg *tabletest.Message, verb, arg string) string {
	h.T.Helper()
	id, ok := qfind(msg, verb, arg)
	require.True(h.T, ok, "no %s:%s among %v", verb, arg, tabletest.ComponentIDs(msg.Components))
	return id
}

// qstate is the channel's Qwixx game and table data (nil game: a lobby).
func (h *harness) qstate() (*rules.Game, *tableData, uint64) {
	h.T.Helper()
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(h.T, err)
	require.Equal(h.T, "qwixx", r.Game)
	td, err := decodeTableData(r.Meta)
	require.NoError(h.T, err)
	if r.Data == nil {
		return nil, td, r.Version
	}
	st, err := rules.Rules{}.Decode(r.Data)
	require.NoError(h.T, err)
	return st.(rules.State).Game(), td, r.Version
}

// openQwixx opens a table with the people given and computer seats of the
// levels given, starts it, and returns the board.
func (h *harness) openQwixx(people []string, cpus ...string) *tabletest.Message {
	h.T.Helper()
	return h.openGame("qwixx", people, nil, cpus...)
}

// startIx is the interaction of /<game> start with the game's own
// options given.
func (h *harness) startIx(game, user string, options map[string]string) *discordgo.Interaction {
	i := h.GameCommandIx(game, user, "start")
	sub := i.Data.(discordgo.ApplicationCommandInteractionData).Options[0]
	for k, v := range options {
		sub.Options = append(sub.Options, &discordgo.ApplicationCommandInteractionDataOption{Name: k, Value: v, Type: discordgo.ApplicationCommandOptionString})
	}
	return i
}

// openGame opens a table of game with the people given, the game's own
// options, and computer seats of the levels given; starts it and returns
// the board.
func (h *harness) openGame(game string, people []string, options map[string]string, cpus ...string) *tabletest.Message {
	h.T.Helper()
	lobby := h.Run(h.startIx(game, people[0], options)).Shown(nil)
	require.NotNil(h.T, lobby)
	must := func(verb, arg string) string {
		h.T.Helper()
		id, ok := gameFind(game, lobby, verb, arg)
		require.True(h.T, ok, "no %s:%s among %v", verb, arg, tabletest.ComponentIDs(lobby.Components))
		return id
	}
	for _, u := range people[1:] {
		lobby = h.ClickOn(u, lobby, must(verbJoin, "")).Shown(lobby)
	}
	for _, l := range cpus {
		lobby = h.ClickOn(people[0], lobby, must(verbCPU, l)).Shown(lobby)
	}
	return h.ClickOn(people[0], lobby, must(verbGo, "")).Shown(lobby)
}

// dcommand runs /dixxit <sub> with options (name, value pairs), its
// interactions' ids on the harness's snowflake clock.
func (h *harness) dcommand(user, sub string, opts ...any) result {
	h.T.Helper()
	i := h.GameCommandIx("dixxit", user, sub, opts...)
	i.ID = h.SnowflakeNow()
	return h.Run(i)
}

// rematchID is the Rematch button's id on a Qwixx scoreboard.
var rematchID = buttonID("qwixx", verbAgain, 0, "")

// testRedisTimeout bounds a call of the tests' Redis stores: the table's
// own timeout (Options.StoreTimeout) bounds the table's calls as in
// production, while the tests' own reads wait out a machine so loaded
// (the race detector, packages side by side) that Redis answers late.
const testRedisTimeout = 5 * time.Second

// redisHarness is a harness on a Redis store of its own.
func redisHarness(t *testing.T) (*harness, *store.Redis, *redistest.Server) {
	srv := redistest.Start(t)
	rs, err := store.OpenRedis(context.Background(), store.Options{URL: srv.URL(), Prefix: fmt.Sprintf("rt%d:", time.Now().UnixNano()), Timeout: testRedisTimeout})
	require.NoError(t, err)
	t.Cleanup(func() { rs.Close() })
	return newHarnessOn(t, rs), rs, srv
}

// firstOption is the first value of the select menu sel of msg that starts
// with prefix ("mv:" a plan, "st:" a step); the test fails without one.
func firstOption(t *testing.T, msg *tabletest.Message, sel, prefix string) string {
	t.Helper()
	for _, v := range tabletest.SelectOptions(msg, sel) {
		if strings.HasPrefix(v, prefix) {
			return v
		}
	}
	t.Fatalf("no choice %q… in the menu", prefix)
	return ""
}
