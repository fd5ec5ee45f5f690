package dixxit

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	computer "github.com/dixgame/dixbot/computer/dixxit"
	"github.com/dixgame/dixbot/engine"
	rules "github.com/dixgame/dixbot/engine/dixxit"
)

// raceTurns is how many turns each race of TestAPersonCanWinTheRace plays
// (docs/dixxit-race.md: go test ./bot/dixxit -run Race -race-turns 3000 -v).
var raceTurns = flag.Int("race-turns", 150, "turns of each simulated Dixxit race")

// raceStats is what one simulated race measured.
type raceStats struct {
	turns, found, personFirst, personFound, computerFirstFinger int
}

// raceTurn plays one turn of a four-seat game seeded seed: the computer
// gives the clue from seat 0, a person on seat 1 clicks at a time drawn in
// [1 s, 4 s) after it, two computer guessers of level on seats 2 and 3 put
// their fingers down after their Reaction. knows: the person clicks the
// target; otherwise the square its judgement (the computer's ranking,
// Guess) picks when it clicks. The fingers go down in the order of their
// times, each deciding on the grid as it stands then, as the table does.
func raceTurn(p computer.Player, level string, seed uint64, knows bool, st *raceStats) error {
	s, err := rules.Rules{}.New(engine.Setup{Players: 4, Seed: int64(seed), First: 0})
	if err != nil {
		return err
	}
	g := s.(*rules.Game)
	r := rand.New(rand.NewPCG(seed, 0x72616365))
	m, err := p.Decide(g, 0, r)
	if err != nil {
		return err
	}
	if _, err := g.Apply(0, m); err != nil {
		return err
	}
	if g.Phase() != rules.PhaseGuess {
		return nil // skipped
	}
	target := g.ViewOf(0).Secret.Target
	turn := g.ViewOf(engine.Public).Turn
	st.turns++
	type click struct {
		seat int
		at   time.Duration
	}
	clicks := []click{{seat: 1, at: time.Second + time.Duration(r.Int64N(int64(3*time.Second)))}}
	for _, seat := range []int{2, 3} {
		clicks = append(clicks, click{seat: seat, at: Reaction(g, seat, level, LiveGuess, r)})
	}
	slices.SortStableFunc(clicks, func(a, b click) int { return int(a.at - b.at) })
	first := true
	for _, c := range clicks {
		if g.ViewOf(engine.Public).Turn != turn || !slices.Contains(g.ToDecide(), c.seat) {
			break
		}
		sq := p.Guess(g.ViewOf(c.seat), r)
		if c.seat == 1 && knows {
			sq = target
		}
		if first && c.seat != 1 && sq == target {
			st.computerFirstFinger++
		}
		first = false
		if _, err := g.Apply(c.seat, rules.FingerMove(sq, uint64(c.at.Milliseconds()))); err != nil {
			return fmt.Errorf("seat %d on %d: %w", c.seat, sq, err)
		}
		if g.ViewOf(engine.Public).Turn != turn {
			st.found++
			if c.seat == 1 {
				st.personFound++
			}
			break
		}
	}
	if last := g.ViewOf(engine.Public).Last; last != nil && last.Turn == turn && last.Found == target {
		for _, f := range last.Fingers {
			if f.Square == target && f.Seat == 1 {
				st.personFirst++
			}
		}
	}
	return nil
}

// A person clicking 1–4 s after the clue against two computer guessers
// of each level: a person who knows the picture is first on it on most
// turns, the more often the easier the computer, and always when they
// click within a second and a half, before any level's quickest reaction
// (docs/dixxit-race.md gives the figures).
func TestAPersonCanWinTheRace(t *testing.T) {
	t.Parallel()
	p := playerIn("en").(computer.Player)
	share := map[string]float64{}
	for _, level := range []string{"easy", "normal", "strong"} {
		for _, knows := range []bool{true, false} {
			var st raceStats
			for i := range *raceTurns {
				require.NoError(t, raceTurn(p, level, uint64(i), knows, &st))
			}
			require.Positive(t, st.turns)
			pct := func(n, of int) float64 { return 100 * float64(n) / float64(max(of, 1)) }
			if knows {
				share[level] = pct(st.personFirst, st.turns)
				t.Logf("%-6s person knows the picture: first on the target %.1f%% of %d turns", level, share[level], st.turns)
			} else {
				t.Logf("%-6s person judges as the computer does: found it %.1f%% of the turns found (%d of %d), computer's first finger on the target %.1f%%",
					level, pct(st.personFound, st.found), st.personFound, st.found, pct(st.computerFirstFinger, st.turns))
			}
		}
	}
	assert.GreaterOrEqual(t, share["easy"], share["normal"], "a slower computer loses the race as often or more")
	assert.GreaterOrEqual(t, share["normal"], share["strong"], "a slower computer loses the race as often or more")
	assert.Greater(t, share["strong"], 50.0, "a person who knows the picture wins most races, even against the strong computer")
}

// A person who clicks the picture within a second and a half of the clue
// beats every level's computer guesser: no level reacts that fast at the
// live pace, however sure it is.
func TestNoComputerBeatsAQuickPerson(t *testing.T) {
	t.Parallel()
	for level, re := range reactions {
		assert.Greater(t, re.least, 1500*time.Millisecond, level)
	}
	s, err := rules.Rules{}.New(engine.Setup{Players: 4, Seed: 1, First: 0})
	require.NoError(t, err)
	g := s.(*rules.Game)
	_, err = g.Apply(0, "clue night")
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		for _, level := range []string{"easy", "normal", "strong", "unknown"} {
			assert.Greater(t, Reaction(g, 2, level, LiveGuess, r), 1500*time.Millisecond, level)
		}
	}
}

// Reaction is a person's: none for the clue-giver nor before the clue;
// seconds at the live pace, longer when the clue was said aloud (no
// computer can hear it, so it is unsure), and scaled with the pace's
// guessing time.
func TestReactionScalesWithPaceAndDoubt(t *testing.T) {
	t.Parallel()
	s, err := rules.Rules{}.New(engine.Setup{Players: 4, Seed: 5, First: 0})
	require.NoError(t, err)
	g := s.(*rules.Game)
	r := rand.New(rand.NewPCG(3, 4))
	assert.Zero(t, Reaction(g, 2, Level, LiveGuess, r), "before the clue")
	_, err = g.Apply(0, "aloud")
	aloud := g
	require.NoError(t, err)
	var live, relaxed, doubt time.Duration
	for i := range 100 {
		c := rand.New(rand.NewPCG(uint64(i), 9))
		live += Reaction(aloud, 2, Level, LiveGuess, c)
		c = rand.New(rand.NewPCG(uint64(i), 9))
		relaxed += Reaction(aloud, 2, Level, 2*time.Minute, c)
	}
	assert.InDelta(t, float64(live)*120/45, float64(relaxed), float64(100*time.Millisecond), "scaled with the pace")
	assert.Zero(t, Reaction(aloud, 0, Level, LiveGuess, r), "the clue-giver")
	// A clue said aloud: the computer is unsure, slower than its least.
	doubt = live / 100
	re := reactions[Level]
	assert.Greater(t, doubt, re.least+re.unsure/2, "unsure: %v", doubt)
	assert.LessOrEqual(t, doubt, re.least+re.unsure+re.spread)
}
