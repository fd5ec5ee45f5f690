package bot

import (
	"errors"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/internal/tabletest"
)

// harness drives a Bot with simulated interactions in one channel
// (tabletest.Harness).
type harness struct {
	*tabletest.Harness
	b *Bot
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
	b, err := New(Options{Store: h.Db, DefaultLanguage: "en", Seed: func() int64 { return 7 }, Observer: h.Obs})
	require.NoError(t, err)
	// A click's work may take longer than Discord's budget here: the race
	// detector slows the computer players' decisions, made inside the
	// click, tenfold, and a busy machine more. Nor is a click deferred
	// for taking long: an answer is the same on any machine. The tests of
	// the budget and of deferral set theirs.
	b.workBudget, b.deferAfter = harnessBudget, harnessBudget
	h.b = b
	h.Serve = func(ic *discordgo.InteractionCreate, raw []byte) { h.b.Serve(h.Rec, ic, raw) }
	return h
}

// runAnswerLost runs the interaction ix as a process that dies before
// answering it: the answer never reaches Discord, which delivers ix again
// later.
func (h *harness) runAnswerLost(ix *discordgo.Interaction) {
	h.T.Helper()
	h.Rec.Mu.Lock()
	h.Rec.Refuse = func(c tabletest.Call) error {
		if c.Op == "respond" && c.Interaction == ix.ID {
			return errors.New("the process died before answering")
		}
		return nil
	}
	h.Rec.Mu.Unlock()
	h.Run(ix)
	h.Rec.Mu.Lock()
	h.Rec.Refuse = nil
	h.Rec.Mu.Unlock()
}

// harnessBudget is the work budget of a harness's clicks.
const harnessBudget = time.Minute
