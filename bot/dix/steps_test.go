package dixview

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/computer"
	cdix "github.com/dixgame/dixbot/computer/dix"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/dix"
)

// steps walks every step of seat's prompt reachable from draft, at most
// limit steps, and returns the moves they offer; each step must fit
// Discord's limits.
func steps(t *testing.T, lang string, st engine.State, seat int, draft string, limit int) map[engine.Move]bool {
	t.Helper()
	moves := map[engine.Move]bool{}
	seen := map[string]bool{}
	todo := []string{draft}
	for len(todo) > 0 && len(seen) < limit {
		d := todo[0]
		todo = todo[1:]
		if seen[d] {
			continue
		}
		seen[d] = true
		p, err := Presenter{}.Prompt(present.Table{Lang: lang}, st, seat, d)
		require.NoError(t, err, "step %q", d)
		require.NoError(t, p.Check(), "step %q", d)
		for _, c := range p.Choices {
			if c.Move != "" {
				moves[c.Move] = true
			} else {
				todo = append(todo, c.Next)
			}
		}
		for _, b := range p.Buttons {
			switch {
			case b.Move != "":
				moves[b.Move] = true
			case b.Next != "":
				todo = append(todo, b.Next)
			}
		}
	}
	return moves
}

// Every prompt of every decision of whole games fits in a Discord
// message, offers only moves the engine accepts, and reaches the bids
// and the market cards the rules allow; a draft that is not a step of the
// decision open is refused as forged.
func TestPromptStepsFitAndOfferLegalMoves(t *testing.T) {
	t.Parallel()
	for _, players := range []int{1, 3} {
		opts := dix.Options{Players: players, Seed: int64(players) * 7, FirstPlayer: -1}
		if players == 1 {
			opts.Difficulty = 5
		}
		g, err := dix.New(opts)
		require.NoError(t, err)
		st := dix.StateOf(g)
		r := rand.New(rand.NewPCG(1, uint64(players)))
		for n := 0; !st.Over(); n++ {
			require.Less(t, n, 2000)
			seat := g.ToAct()
			ch := g.Choices(seat)
			p, err := Presenter{}.Prompt(present.Table{Lang: "en"}, st, seat, "")
			switch {
			case HasAction(ch, dix.ActBuy) && len(ch.Buyable) > 0, HasAction(ch, dix.ActBid), HasAction(ch, dix.ActPay):
				require.NoError(t, err)
				moves := steps(t, "en", st, seat, "", 40)
				for m := range moves {
					cp, err := dix.Rules{}.Decode(st.Encode())
					require.NoError(t, err)
					_, err = cp.Apply(seat, m)
					assert.NoError(t, err, "offered %q", m)
				}
				if HasAction(ch, dix.ActBid) {
					for a := ch.MinBid; a <= ch.MaxBid; a++ {
						assert.True(t, moves[dix.FormatMove(dix.Action{Kind: dix.ActBid, Amount: a})], "bid %d not offered", a)
					}
				}
			default:
				assert.True(t, errors.Is(err, present.ErrNoPrompt), "%v %v", p, err)
			}
			for _, forged := range []string{"b z9", "a 999", "p w.99.0.0", "c purple", "x"} {
				_, err := Presenter{}.Prompt(present.Table{Lang: "en"}, st, seat, forged)
				assert.True(t, errors.Is(err, present.ErrBadDraft) || errors.Is(err, present.ErrNoPrompt), "%q: %v", forged, err)
			}
			a := cdix.Decide(g, seat, computer.Normal, r)
			_, err = st.Apply(seat, dix.FormatMove(a))
			require.NoError(t, err)
		}
		assert.True(t, strings.Contains(Presenter{}.Board(present.Table{Lang: "fr", Names: []string{"Ann", "Bob", "Cy"}[:players]}, st).Embeds[0].Title, "DIX"))
	}
}
