package e2e

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/internal/app"
	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/locales"
)

// Duel is a game that exists only in this file, to show that the table
// hosts any game written to the engine contract: two seats choose a number
// from 1 to 5 at once, the higher number takes the round, and after
// duelRounds rounds the seat with more rounds wins. Both seats decide at
// once every round; the pace gives the second seat a short clock in the
// last round.

const (
	duelRounds = 3
	duelMax    = 5
	duelSchema = 1
	// duelLastClock is the time the second seat has in the last round;
	// every other decision has an hour, so that a slow machine never runs
	// the first seat out of time.
	duelLastClock = 2 * time.Second
)

type duelRules struct{}

func (duelRules) Name() string { return "duel" }

func (duelRules) New(s engine.Setup) (engine.State, error) {
	if s.Players != 2 {
		return nil, fmt.Errorf("%w: a duel has 2 seats", engine.ErrBadOptions)
	}
	return &duelState{}, nil
}

func (duelRules) Decode(b []byte) (engine.State, error) {
	v, n := binary.Uvarint(b)
	switch {
	case n <= 0:
		return nil, fmt.Errorf("%w: no schema", engine.ErrCorrupt)
	case v > duelSchema:
		return nil, engine.ErrSchemaTooNew
	}
	var st duelState
	if err := json.Unmarshal(b[n:], &st); err != nil {
		return nil, fmt.Errorf("%w: %v", engine.ErrCorrupt, err)
	}
	if err := st.Check(); err != nil {
		return nil, fmt.Errorf("%w: %v", engine.ErrCorrupt, err)
	}
	return &st, nil
}

// duelState: Picks are this round's numbers (0: not chosen yet), secret
// to the other seat until both have chosen.
type duelState struct {
	N     uint64 `json:"n"`
	Round int    `json:"r"`
	Picks [2]int `json:"p"`
	Wins  [2]int `json:"w"`
}

// duelRound is the event of a round decided.
type duelRound struct{ Picks [2]int }

func (s *duelState) Encode() []byte {
	b, _ := json.Marshal(s)
	return append(binary.AppendUvarint(nil, duelSchema), b...)
}

func (s *duelState) Seq() uint64 { return s.N }

func (s *duelState) Over() bool { return s.Round >= duelRounds }

func (s *duelState) ToDecide() []int {
	if s.Over() {
		return nil
	}
	var out []int
	for seat, p := range s.Picks {
		if p == 0 {
			out = append(out, seat)
		}
	}
	return out
}

func (s *duelState) Forced(int) (engine.Move, bool) { return "", false }

func (s *duelState) Apply(seat int, m engine.Move) ([]engine.Event, error) {
	n, err := strconv.Atoi(string(m))
	switch {
	case s.Over():
		return nil, engine.ErrGameOver
	case err != nil || n < 1 || n > duelMax:
		return nil, fmt.Errorf("%w: %q", engine.ErrBadMove, m)
	case seat < 0 || seat > 1 || s.Picks[seat] != 0:
		return nil, engine.ErrNotYourTurn
	}
	s.N++
	s.Picks[seat] = n
	if s.Picks[0] == 0 || s.Picks[1] == 0 {
		return nil, nil
	}
	ev := duelRound{Picks: s.Picks}
	switch {
	case s.Picks[0] > s.Picks[1]:
		s.Wins[0]++
	case s.Picks[1] > s.Picks[0]:
		s.Wins[1]++
	}
	s.Picks = [2]int{}
	s.Round++
	return []engine.Event{ev}, nil
}

// View: everyone sees the round and the wins, and whether each seat has
// chosen; a seat sees its own number too.
func (s *duelState) View(seat int) any {
	v := map[string]any{"round": s.Round, "wins": s.Wins, "chosen": [2]bool{s.Picks[0] != 0, s.Picks[1] != 0}}
	if seat == 0 || seat == 1 {
		v["mine"] = s.Picks[seat]
	}
	return v
}

func (s *duelState) Results() []engine.Result {
	res := []engine.Result{{Seat: 0, Score: s.Wins[0]}, {Seat: 1, Score: s.Wins[1]}}
	engine.Rank(res, func(a, b *engine.Result) bool { return a.Score > b.Score },
		func(r *engine.Result) *int { return &r.Rank })
	return res
}

func (s *duelState) Check() error {
	if s.Round < 0 || s.Round > duelRounds || s.Wins[0]+s.Wins[1] > s.Round {
		return fmt.Errorf("%w: round %d, wins %v", engine.ErrInvariant, s.Round, s.Wins)
	}
	for _, p := range s.Picks {
		if p < 0 || p > duelMax || (s.Over() && p != 0) {
			return fmt.Errorf("%w: picks %v", engine.ErrInvariant, s.Picks)
		}
	}
	return nil
}

// duelPlayer picks at random; out of time, a seat plays 1.
type duelPlayer struct{}

func (duelPlayer) Decide(s engine.State, seat int, r *rand.Rand) (engine.Move, error) {
	if _, ok := s.(*duelState); !ok {
		return "", engine.ErrWrongGame
	}
	return engine.Move(strconv.Itoa(1 + r.IntN(duelMax))), nil
}

func (duelPlayer) Timeout(s engine.State, seat int, r *rand.Rand) (engine.Move, error) {
	if _, ok := s.(*duelState); !ok {
		return "", engine.ErrWrongGame
	}
	return "1", nil
}

// duelPresenter draws the duel as text and five buttons.
type duelPresenter struct{}

func (duelPresenter) Board(t present.Table, st engine.State) present.Board {
	s := st.(*duelState)
	score := map[string]any{"A": t.Name(0), "B": t.Name(1), "WA": s.Wins[0], "WB": s.Wins[1]}
	if s.Over() {
		return present.Board{Content: locales.T(t.Lang, "duel_over", score) + "\n" + strings.Join(t.Log, "\n")}
	}
	score["Round"] = s.Round + 1
	score["Waiting"] = t.NameList(s.ToDecide())
	var row []present.Button
	for n := 1; n <= duelMax; n++ {
		row = append(row, present.Button{Label: strconv.Itoa(n), Move: engine.Move(strconv.Itoa(n)), Style: discordgo.PrimaryButton})
	}
	return present.Board{Content: locales.T(t.Lang, "duel_board", score), Rows: [][]present.Button{row}}
}

func (duelPresenter) Events(t present.Table, evs []engine.Event) []string {
	var out []string
	for _, ev := range evs {
		if r, ok := ev.(duelRound); ok {
			out = append(out, locales.T(t.Lang, "duel_ev_round", map[string]any{"A": t.Name(0), "B": t.Name(1), "PA": r.Picks[0], "PB": r.Picks[1]}))
		}
	}
	return out
}

func (duelPresenter) Refusal(lang string, st engine.State, seat int, m engine.Move, err error) present.Refusal {
	return present.Refusal{Key: "duel_err"}
}

func (duelPresenter) Rules(lang string) string { return locales.T(lang, "duel_rules", nil) }

func duelGame() present.Game {
	return present.Game{
		Rules:     duelRules{},
		Presenter: duelPresenter{},
		Player:    func(_, _ string) engine.Player { return duelPlayer{} },
		Levels:    []string{"normal"},
		Default:   "normal",
		MinSeats:  2,
		MaxSeats:  2,
		Paces: []present.Pace{{Name: "live", Clock: func(st engine.State, seat int) time.Duration {
			if st.(*duelState).Round == duelRounds-1 && seat == 1 {
				return duelLastClock
			}
			return time.Hour
		}}},
	}
}

// The duel's words, in both languages. The table's words for a game's
// command (its subcommands' descriptions) are taken from Qwixx's, so that
// the duel has every subcommand the table gives a game.
func init() {
	words := map[string]map[string]string{
		locales.English: {
			"duel_title": "Duel", "duel_cmd_name": "duel", "duel_cmd_desc": "Play a duel of numbers",
			"duel_board":    "Round {{.Round}}: {{.A}} {{.WA}} – {{.B}} {{.WB}}. Waiting for: {{.Waiting}}",
			"duel_over":     "Duel over: {{.A}} {{.WA}} – {{.B}} {{.WB}}",
			"duel_ev_round": "{{.A}} chose {{.PA}}, {{.B}} chose {{.PB}}",
			"duel_err":      "Not now.", "duel_rules": "Both choose a number at once; the higher takes the round.",
			"duel_pace_live": "live",
		},
		locales.French: {
			"duel_title": "Duel", "duel_cmd_name": "duel", "duel_cmd_desc": "Jouer un duel de nombres",
			"duel_board":    "Manche {{.Round}} : {{.A}} {{.WA}} – {{.B}} {{.WB}}. On attend : {{.Waiting}}",
			"duel_over":     "Duel fini : {{.A}} {{.WA}} – {{.B}} {{.WB}}",
			"duel_ev_round": "{{.A}} a choisi {{.PA}}, {{.B}} a choisi {{.PB}}",
			"duel_err":      "Pas maintenant.", "duel_rules": "Chacun choisit un nombre en même temps ; le plus grand gagne la manche.",
			"duel_pace_live": "direct",
		},
	}
	for lang, w := range words {
		for _, k := range locales.Keys(lang) {
			if rest, ok := strings.CutPrefix(k, "qwixx_cmd_"); ok && strings.HasSuffix(rest, "_desc") {
				w["duel_cmd_"+rest] = "Duel: " + locales.T(lang, k, nil)
			}
		}
		var b strings.Builder
		for k, v := range w {
			fmt.Fprintf(&b, "%s = %q\n", k, v)
		}
		if err := locales.Add(lang, []byte(b.String())); err != nil {
			panic(err)
		}
	}
}

// A game written only in this test plays on the table through the stand-in
// and the real program: a lobby, two seats deciding at once (one after the
// other, then both within the same moment), refusals that change nothing,
// and a clock that decides for a seat that never answers, to the end.
func TestTheTableHostsAGameWrittenInATest(t *testing.T) {
	t.Parallel()
	fake := fakediscord.Start(t, fakediscord.Options{DisableWeb: true})
	t.Cleanup(func() { noViolations(t, fake) })
	cfg := baseConfig(t, fake, "")
	cfg.Games = append(app.Games(), duelGame())
	w := &world{fake: fake, cfg: cfg}
	w.bot = startApp(t, cfg)
	tb := w.table(t, "en-US", "Alice", "Bob")
	alice, bob := tb.users[0], tb.users[1]

	r := tb.command(alice, "/duel start")
	require.NotNil(t, r.Message, "the lobby: %s", describe(r))
	board := tb.gameClick("duel", bob, *r.Message, "join", "")
	board = tb.gameClick("duel", alice, board, "go", "")
	assert.Contains(t, board.Content, "Round 1: Alice 0 – Bob 0. Waiting for: Alice, Bob")

	state := func() *duelState {
		rec := tb.record()
		require.Equal(t, "duel", rec.Game)
		st, err := duelRules{}.Decode(rec.Data)
		require.NoError(t, err)
		return st.(*duelState)
	}

	// Round 1, one after the other: the board says who is still to decide
	// and never what Alice chose.
	board = tb.gameClick("duel", alice, board, "mv", "5")
	assert.Contains(t, board.Content, "Waiting for: Bob")
	// The clock line's timestamp is a number of its own: left out.
	text, _, _ := strings.Cut(board.Content, "\n⏳")
	assert.NotContains(t, text, "5")
	id, ok := gameButton("duel", board, "mv", "4")
	require.True(t, ok)
	r = tb.click(alice, board.ID, id)
	assert.True(t, r.Ephemeral(), "a second choice in the round is refused: %s", describe(r))
	assert.Equal(t, [2]int{5, 0}, state().Picks, "the refusal changed nothing")
	seq := strconv.FormatUint(state().Seq(), 10)
	forged := []string{"duel:mv:999:3", "duel:mv:" + seq + ":9", "duel:mv:" + seq + ":x", "duel:mv:x:3", "duel:zz:" + seq, "duel"}
	msg := postButtons(t, fake, tb.channel.ID, forged)
	for _, id := range forged {
		r = tb.click(bob, msg, id)
		assert.True(t, r.Ephemeral(), "the forged button %s is refused: %s", id, describe(r))
		assert.Equal(t, [2]int{5, 0}, state().Picks, "%s changed nothing", id)
	}
	board = tb.gameClick("duel", bob, board, "mv", "3")
	assert.Contains(t, board.Content, "Round 2: Alice 1 – Bob 0")
	assert.Equal(t, 1, state().Round)

	// Round 2: both click the same board at once; each click counts once.
	var wg sync.WaitGroup
	answers := make([]*fakediscord.Response, 2)
	for i, c := range []struct {
		u fakediscord.User
		n string
	}{{alice, "2"}, {bob, "4"}} {
		id, ok := gameButton("duel", board, "mv", c.n)
		require.True(t, ok)
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i] = tb.click(c.u, board.ID, id)
		}()
	}
	wg.Wait()
	for _, a := range answers {
		assert.False(t, a.Ephemeral(), "both clicks applied: %s", describe(a))
	}
	st := state()
	assert.Equal(t, 2, st.Round)
	assert.Equal(t, [2]int{1, 1}, st.Wins)

	// Round 3: Alice chooses, Bob never does; his clock decides 1 for him.
	now, ok := tb.fake.Message(board.ID)
	require.True(t, ok)
	tb.gameClick("duel", alice, now, "mv", "3")
	require.Eventually(t, func() bool { return tb.record().Finished }, 60*time.Second, 50*time.Millisecond,
		"the clock ends the game")
	st = state()
	assert.Equal(t, [2]int{2, 1}, st.Wins)
	require.Eventually(t, func() bool {
		m, _ := tb.fake.Message(board.ID)
		return strings.Contains(m.Content, "Duel over: Alice 2 – Bob 1")
	}, 30*time.Second, 50*time.Millisecond, "the board shows the end")
	final, _ := tb.fake.Message(board.ID)
	assert.Contains(t, final.Content, "Alice chose 3, Bob chose 1")
	assert.NotContains(t, final.Content, "⟦")
	for _, c := range components(final) {
		assert.NotEqual(t, "mv", strings.SplitN(c.CustomID, ":", 3)[1], "no move buttons left: %s", c.CustomID)
	}
}
