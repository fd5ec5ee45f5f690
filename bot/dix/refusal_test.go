package dixview

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

// Every refusal of a move reads in full in both languages, for every
// error the rules give a move: the key exists and each field the message
// names is given.
func TestEveryRefusalReads(t *testing.T) {
	t.Parallel()
	g, err := dix.New(dix.Options{Players: 3, Seed: 5, FirstPlayer: 0})
	require.NoError(t, err)
	errs := []error{dix.ErrBadCard, dix.ErrBidTooHigh, dix.ErrBidTooLow, dix.ErrCannotAfford, dix.ErrDeckEmpty, dix.ErrGameOver,
		dix.ErrIdenticalCard, dix.ErrMustDraw, dix.ErrNotInMarket, dix.ErrNotOwned, dix.ErrNotYourTurn, dix.ErrPaymentShort,
		dix.ErrSoloPayment, dix.ErrSuperfluousPayment, dix.ErrUnknownAction, dix.ErrUnknownPlayer, dix.ErrWildPayment, dix.ErrWrongPhase,
		engine.ErrBadMove, engine.ErrNotYourTurn, engine.ErrGameOver}
	for _, seat := range []int{0, 1} {
		for _, e := range errs {
			for _, lang := range locales.Languages {
				rf := Presenter{}.Refusal(lang, dix.StateOf(g), seat, "d", e)
				s := locales.T(lang, rf.Key, rf.DataWith(func(int) string { return "Ann" }))
				assert.NotEqual(t, locales.Missing(rf.Key), s, "%s seat %d: %v", lang, seat, e)
				assert.NotContains(t, s, "<no value>", "%s seat %d: %v: %s", lang, seat, e, rf.Key)
			}
		}
	}
}
