package bot

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/dixgame/dixbot/bot/present"
	rules "github.com/dixgame/dixbot/engine/qwixx"

	botqwixx "github.com/dixgame/dixbot/bot/qwixx"
	"github.com/dixgame/dixbot/internal/redistest"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
	"github.com/dixgame/dixbot/store"
	"github.com/stretchr/testify/require"
)

// newQwixxHarness is a harness whose bot also hosts Qwixx.
func newQwixxHarness(t *testing.T, pictures bool) *harness {
	t.Helper()
	h := newHarness(t)
	b, err := New(Options{Store: h.db, DefaultLanguage: "en", Seed: func() int64 { return 11 }, Observer: h.obs,
		NoPictures: !pictures, Games: []present.Game{botqwixx.Game()}})
	require.NoError(t, err)
	b.WorkBudget = harnessBudget
	h.b = b
	return h
}

// qcommand runs /qwixx <sub> with options (name, value pairs).
func (h *harness) qcommand(user, sub string, opts ...any) result {
	h.t.Helper()
	i := h.base(user, discordgo.InteractionApplicationCommand)
	so := &discordgo.ApplicationCommandInteractionDataOption{Name: locales.T("en", "cmd_"+sub+"_name", nil), Type: discordgo.ApplicationCommandOptionSubCommand}
	for k := 0; k+1 < len(opts); k += 2 {
		so.Options = append(so.Options, &discordgo.ApplicationCommandInteractionDataOption{
			Name: locales.T("en", "opt_"+opts[k].(string)+"_name", nil), Value: opts[k+1], Type: discordgo.ApplicationCommandOptionString})
	}
	i.Data = discordgo.ApplicationCommandInteractionData{Name: "qwixx", Options: []*discordgo.ApplicationCommandInteractionDataOption{so}}
	return h.run(i)
}

// qfind returns the custom id of msg's component with the verb (and, when
// given, the argument).
func qfind(msg *tabletest.Message, verb, arg string) (string, bool) {
	for _, id := range tabletest.ComponentIDs(msg.Components) {
		p, err := ParseContractID(id)
		if err == nil && strings.HasPrefix(id, "qwixx:") && p.Verb == verb && (arg == "" || p.Arg == arg) {
			return id, true
		}
	}
	return "", false
}

func (h *harness) qmust(msg *tabletest.Message, verb, arg string) string {
	h.t.Helper()
	id, ok := qfind(msg, verb, arg)
	require.True(h.t, ok, "no %s:%s among %v", verb, arg, tabletest.ComponentIDs(msg.Components))
	return id
}

// qstate is the channel's Qwixx game and table data (nil game: a lobby).
func (h *harness) qstate() (*rules.Game, *TableData, uint64) {
	h.t.Helper()
	r, err := h.db.Get(context.Background(), h.channel)
	require.NoError(h.t, err)
	require.Equal(h.t, "qwixx", r.Game)
	td, err := DecodeTableData(r.Meta)
	require.NoError(h.t, err)
	if r.Data == nil {
		return nil, td, r.Version
	}
	st, err := rules.Rules{}.Decode(r.Data)
	require.NoError(h.t, err)
	return st.(rules.State).Game(), td, r.Version
}

// openQwixx opens a table with the people given and computer seats of the
// levels given, starts it, and returns the board.
func (h *harness) openQwixx(people []string, cpus ...string) *tabletest.Message {
	h.t.Helper()
	res := h.qcommand(people[0], "start")
	lobby := res.shown(nil)
	require.NotNil(h.t, lobby)
	for _, u := range people[1:] {
		lobby = h.clickOn(u, lobby, h.qmust(lobby, CverbJoin, "")).shown(lobby)
	}
	for _, l := range cpus {
		lobby = h.clickOn(people[0], lobby, h.qmust(lobby, CverbCPU, l)).shown(lobby)
	}
	return h.clickOn(people[0], lobby, h.qmust(lobby, CverbGo, "")).shown(lobby)
}

// dcommand runs /dixxit <sub> with options (name, value pairs).
func (h *harness) dcommand(user, sub string, opts ...any) result {
	h.t.Helper()
	i := h.base(user, discordgo.InteractionApplicationCommand)
	i.ID = h.dnow()
	so := &discordgo.ApplicationCommandInteractionDataOption{Name: locales.T("en", "cmd_"+sub+"_name", nil), Type: discordgo.ApplicationCommandOptionSubCommand}
	for k := 0; k+1 < len(opts); k += 2 {
		so.Options = append(so.Options, &discordgo.ApplicationCommandInteractionDataOption{
			Name: locales.T("en", "opt_"+opts[k].(string)+"_name", nil), Value: opts[k+1], Type: discordgo.ApplicationCommandOptionString})
	}
	i.Data = discordgo.ApplicationCommandInteractionData{Name: "dixxit", Options: []*discordgo.ApplicationCommandInteractionDataOption{so}}
	return h.run(i)
}

// rematchID is the Rematch button's id on a Qwixx scoreboard.
var rematchID = ContractID("qwixx", CverbAgain, 0, "")

// texts are every text the calls showed a user.
func (r result) texts() string {
	var sb strings.Builder
	for _, c := range r.calls {
		switch {
		case c.Resp != nil && c.Resp.Data != nil:
			sb.WriteString(c.Resp.Data.Content + "\n")
		case c.Params != nil:
			sb.WriteString(c.Params.Content + "\n")
		case c.Edit != nil && c.Edit.Content != nil:
			sb.WriteString(*c.Edit.Content + "\n")
		}
	}
	return sb.String()
}

// redisHarness is a harness on a Redis store of its own.
func redisHarness(t *testing.T) (*harness, *store.Redis, *redistest.Server) {
	srv := redistest.Start(t)
	rs, err := store.OpenRedis(context.Background(), store.Options{URL: srv.URL(), Prefix: fmt.Sprintf("rt%d:", time.Now().UnixNano())})
	require.NoError(t, err)
	t.Cleanup(func() { rs.Close() })
	return newHarnessOn(t, rs), rs, srv
}

// dnow is the harness's snowflake clock: every interaction one millisecond
// after the previous.
func (h *harness) dnow() string { return snowflake(uint64(1_000_000+h.n), 0) }

// snowflake is an interaction id received at millisecond ms (since the
// Discord epoch) with the increment inc.
func snowflake(ms, inc uint64) string { return strconv.FormatUint(ms<<22|inc&0xfff, 10) }
