package dixtable

import (
	"context"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/tabletest"
)

func init() {
	tabletest.ParseID = func(id string) (string, error) {
		p, err := bot.ParseID(id)
		return p.Verb, err
	}
}

// harness drives a Bot with simulated interactions in one channel
// (tabletest.Harness).
type harness struct {
	*tabletest.Harness
	b *bot.Bot
}

// result is what one interaction produced.
type result = tabletest.Result

func newHarness(t testing.TB) *harness {
	t.Helper()
	return newHarnessOn(t, nil)
}

// newHarnessOn is newHarness with the bot on the store db (nil: a MemStore).
func newHarnessOn(t testing.TB, db dixbot.Store) *harness {
	t.Helper()
	h := &harness{Harness: tabletest.NewHarness(t, db)}
	b, err := bot.New(bot.Options{Store: h.Db, DefaultLanguage: "en", Seed: func() int64 { return 7 }, Observer: h.Obs})
	require.NoError(t, err)
	// A click's work may take longer than Discord's budget here: the race
	// detector slows the computer players' decisions, made inside the
	// click, tenfold, and a busy machine more. The budget's own tests set
	// theirs (deferral_test.go).
	b.WorkBudget = harnessBudget
	h.b = b
	h.Serve = func(ic *discordgo.InteractionCreate, raw []byte) { h.b.Serve(h.Rec, ic, raw) }
	return h
}

// harnessBudget is the work budget of a harness's clicks.
const harnessBudget = time.Minute

// Record returns the channel's active record.
func (h *harness) Record() (*dixbot.Record, *dixTable) {
	h.T.Helper()
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(h.T, err)
	m, err := decodeDixTable(r.Meta)
	require.NoError(h.T, err)
	return r, m
}

// board returns the current board message as shown.
func (h *harness) Board() *tabletest.Message {
	h.T.Helper()
	_, m := h.Record()
	require.NotEmpty(h.T, m.Board, "no board message recorded")
	msg := h.Rec.Message(m.Board)
	require.NotNil(h.T, msg, "board message %s was never sent", m.Board)
	return msg
}

// gameOf returns the record's game (nil for a lobby).
func gameOf(r *dixbot.Record) *dix.Game { return dix.GameOf(r.State) }

func mustDixTable(b []byte) *dixTable {
	m, err := decodeDixTable(b)
	if err != nil {
		panic(err)
	}
	return m
}
