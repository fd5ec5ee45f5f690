package dixxit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine"
)

// TestScenarios runs every scenario file of testdata/scenarios (the
// notation of SPEC §7, documented in testdata/scenarios/README.md).
func TestScenarios(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "scenarios", "*.dxt"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".dxt"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			expects, err := runScenario(data)
			require.NoError(t, err)
			assert.Positive(t, expects, "a scenario must check something")
		})
	}
}

// TestScenariosCoverTheRules makes sure every rulebook case and every
// ruling a scenario can show has its file.
func TestScenariosCoverTheRules(t *testing.T) {
	want := []string{
		"rulebook-found", "rulebook-not-found-returns", "rulebook-not-found-nothing-to-return",
		"rulebook-after-the-find-ignored", "rulebook-square-taken", "rulebook-end-grid-not-refilled",
		"rulebook-must-guess", "x04-", "x05-", "x06-", "x07-", "x08-", "x09-",
	}
	files, err := filepath.Glob(filepath.Join("testdata", "scenarios", "*.dxt"))
	require.NoError(t, err)
	for _, w := range want {
		assert.True(t, slices.ContainsFunc(files, func(f string) bool { return strings.HasPrefix(filepath.Base(f), w) }),
			"no scenario for %s", w)
	}
}

// scenario is a scenario file being run.
type scenario struct {
	g       *Game
	names   []string
	last    []Event // of the last successful move
	expects int
	// set-up, before the first action
	first                        int
	grid, pile, discard          []Card
	holds                        map[int][]Card
	restDiscard, gridSet, frozen bool
}

// runScenario runs one file and returns how many expectations it checked.
func runScenario(data []byte) (int, error) {
	sc := &scenario{holds: map[int][]Card{}}
	sr := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sr.Scan(); n++ {
		line := sr.Text()
		if i := strings.Index(line, " #"); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := sc.line(line); err != nil {
			return sc.expects, fmt.Errorf("line %d %q: %w", n, line, err)
		}
	}
	if sc.g == nil {
		return sc.expects, errors.New("no action")
	}
	return sc.expects, sr.Err()
}

func (sc *scenario) seat(name string) (int, error) {
	if i := slices.Index(sc.names, name); i >= 0 {
		return i, nil
	}
	return 0, fmt.Errorf("no player %q", name)
}

func parseCards(fs []string) ([]Card, error) {
	var out []Card
	for _, f := range fs {
		if f == "-" {
			out = append(out, noCard)
			continue
		}
		c, err := ParseCard(f)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// build deals the game the set-up lines describe.
func (sc *scenario) build() error {
	if sc.g != nil {
		return nil
	}
	if len(sc.names) < MinPlayers || len(sc.names) > MaxPlayers {
		return fmt.Errorf("%d players", len(sc.names))
	}
	g := &Game{players: len(sc.names), first: sc.first, active: sc.first, won: make([][]Card, len(sc.names))}
	named := map[int]bool{}
	for _, cs := range append([][]Card{sc.grid, sc.pile, sc.discard}, mapsValues(sc.holds)...) {
		for _, c := range cs {
			if named[c.Number()] {
				return fmt.Errorf("card %d named twice", c.Number())
			}
			named[c.Number()] = true
		}
	}
	var rest []Card
	for n := range Cards {
		if !named[n] {
			rest = append(rest, CardOf(n, 0))
		}
	}
	take := func(k int) []Card {
		k = min(k, len(rest))
		out := slices.Clone(rest[:k])
		rest = rest[k:]
		return out
	}
	if !sc.gridSet {
		sc.grid = take(Squares)
	}
	if len(sc.grid) != Squares {
		return fmt.Errorf("a grid of %d cards", len(sc.grid))
	}
	copy(g.grid[:], sc.grid)
	g.aside = take(asideCount(g.players))
	g.pile = slices.Clone(sc.pile)
	g.discard = slices.Clone(sc.discard)
	if sc.restDiscard {
		g.discard = append(g.discard, rest...)
	} else {
		g.pile = append(g.pile, rest...)
	}
	for s, cs := range sc.holds {
		g.won[s] = slices.Clone(cs)
	}
	g.startTurn()
	sc.g = g
	return g.Check()
}

func mapsValues(m map[int][]Card) [][]Card {
	var out [][]Card
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

func (sc *scenario) line(line string) error {
	f := strings.Fields(line)
	if sc.g == nil {
		switch f[0] {
		case "players":
			sc.names = f[1:]
			return nil
		case "first":
			s, err := sc.seat(f[1])
			sc.first = s
			return err
		case "grid":
			cs, err := parseCards(f[1:])
			sc.grid, sc.gridSet = cs, true
			return err
		case "pile":
			cs, err := parseCards(f[1:])
			sc.pile = append(sc.pile, cs...)
			return err
		case "discard":
			cs, err := parseCards(f[1:])
			sc.discard = append(sc.discard, cs...)
			return err
		case "holds":
			s, err := sc.seat(f[1])
			if err != nil {
				return err
			}
			cs, err := parseCards(f[2:])
			sc.holds[s] = append(sc.holds[s], cs...)
			return err
		case "rest":
			sc.restDiscard = len(f) == 2 && f[1] == "discard"
			return nil
		}
		if err := sc.build(); err != nil {
			return fmt.Errorf("set-up: %w", err)
		}
	}
	switch {
	case f[0] == "turn":
		return sc.turn(f[1:], line)
	case f[0] == "move" && len(f) >= 3:
		s, err := sc.seat(f[1])
		if err != nil {
			return err
		}
		_, m, _ := strings.Cut(line, f[1]+" ")
		return sc.apply(s, engine.Move(m))
	case f[0] == "refuse" && len(f) >= 4:
		want, ok := sentinels[f[1]]
		if !ok {
			return fmt.Errorf("unknown error %s", f[1])
		}
		s, err := sc.seat(f[2])
		if err != nil {
			return err
		}
		_, m, _ := strings.Cut(line, " "+f[2]+" ")
		sc.expects++
		if err := sc.apply(s, engine.Move(m)); !errors.Is(err, want) {
			return fmt.Errorf("got %v, want %s", err, f[1])
		}
		return nil
	case f[0] == "expect":
		sc.expects++
		return sc.expect(f[1:])
	case strings.Contains(f[0], ":") || (len(f) == 2 && f[1] == "out"):
		sc.expects++
		return sc.guess(f)
	}
	return errors.New("cannot read the line")
}

// apply applies seat's move: Check must hold after it, and a refused move
// must leave the bytes unchanged.
func (sc *scenario) apply(seat int, m engine.Move) error {
	before := sc.g.Encode()
	evs, err := sc.g.Apply(seat, m)
	if err != nil {
		if !bytes.Equal(before, sc.g.Encode()) {
			return fmt.Errorf("refused %q changed the state", m)
		}
		return err
	}
	sc.last = sc.last[:0]
	for _, e := range evs {
		sc.last = append(sc.last, e.(Event))
	}
	return sc.g.Check()
}

// turn: "turn NAME target N clue TEXT", "turn NAME target N aloud",
// "turn NAME skip".
func (sc *scenario) turn(f []string, line string) error {
	s, err := sc.seat(f[0])
	if err != nil {
		return err
	}
	if sc.g.active != s || sc.g.phase != PhaseClue {
		return fmt.Errorf("active %s in phase %v", sc.names[sc.g.active], sc.g.phase)
	}
	if len(f) == 2 && f[1] == "skip" {
		return sc.apply(s, "skip")
	}
	if len(f) < 4 || f[1] != "target" {
		return errors.New("turn NAME target N clue TEXT|aloud")
	}
	n, err := strconv.Atoi(f[2])
	if err != nil || n < 1 || n > Squares {
		return fmt.Errorf("target %q", f[2])
	}
	sc.g.target = n - 1
	if f[3] == "aloud" {
		return sc.apply(s, "aloud")
	}
	_, text, _ := strings.Cut(line, " clue ")
	return sc.apply(s, ClueMove(text))
}

// guess: "NAME:SQUARE[@TIME] no|yes|taken HOLDER|lifts NAME", "NAME out".
func (sc *scenario) guess(f []string) error {
	who, where, _ := strings.Cut(f[0], ":")
	s, err := sc.seat(who)
	if err != nil {
		return err
	}
	if where == "" {
		return sc.apply(s, "out")
	}
	sq, at, timed := where, "", false
	if i := strings.Index(where, "@"); i >= 0 {
		sq, at, timed = where[:i], where[i+1:], true
	}
	m := engine.Move("f " + sq)
	if timed {
		m += engine.Move(" " + strings.Replace(at, "/", " ", 1))
	}
	if len(f) < 2 {
		return errors.New("say no, yes, taken HOLDER or refused ERROR")
	}
	err = sc.apply(s, m)
	switch f[1] {
	case "no", "yes":
		if err != nil {
			return err
		}
		want := map[string]EventKind{"no": EvFinger, "yes": EvFound}[f[1]]
		if !slices.ContainsFunc(sc.last, func(e Event) bool { return e.Kind == want && e.Seat == s }) {
			return fmt.Errorf("no %v event of %s in %v", want, who, sc.last)
		}
		return nil
	case "taken":
		var te *TakenError
		if !errors.As(err, &te) || !errors.Is(err, ErrSquareTaken) || !errors.Is(err, engine.ErrIllegalMove) {
			return fmt.Errorf("got %v, want a square taken", err)
		}
		if len(f) > 2 {
			h, err := sc.seat(f[2])
			if err != nil {
				return err
			}
			if te.Holder != h {
				return fmt.Errorf("holder %d, want %s", te.Holder, f[2])
			}
		}
		return nil
	case "refused":
		if len(f) < 3 {
			return errors.New("refused ERROR")
		}
		want, ok := sentinels[f[2]]
		if !ok {
			return fmt.Errorf("unknown error %s", f[2])
		}
		if !errors.Is(err, want) {
			return fmt.Errorf("got %v, want %s", err, f[2])
		}
		return nil
	}
	return fmt.Errorf("unknown outcome %q", f[1])
}

var sentinels = map[string]error{
	"engine.ErrNotYourTurn": engine.ErrNotYourTurn, "engine.ErrIllegalMove": engine.ErrIllegalMove,
	"engine.ErrBadMove": engine.ErrBadMove, "engine.ErrGameOver": engine.ErrGameOver,
	"ErrNotYourTurn": ErrNotYourTurn, "ErrNotActive": ErrNotActive, "ErrNotGuessing": ErrNotGuessing,
	"ErrNoClue": ErrNoClue, "ErrClueGiven": ErrClueGiven, "ErrAlreadyDone": ErrAlreadyDone, "ErrSquareTaken": ErrSquareTaken,
	"ErrGameOver": ErrGameOver, "ErrTurnOver": ErrTurnOver, "ErrBadMove": ErrBadMove, "ErrBadClue": ErrBadClue, "ErrBadSquare": ErrBadSquare,
}

func (sc *scenario) seatNames(seats []int) []string {
	out := []string{}
	for _, s := range seats {
		out = append(out, sc.names[s])
	}
	return out
}

func (sc *scenario) expect(f []string) error {
	if len(f) == 0 {
		return errors.New("expect what")
	}
	g := sc.g
	eq := func(got, want any) error {
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(want)
		if !bytes.Equal(gj, wj) {
			return fmt.Errorf("got %s, want %s", gj, wj)
		}
		return nil
	}
	cardsOrCount := func(got []Card, args []string) error {
		if len(args) == 1 {
			if n, err := strconv.Atoi(args[0]); err == nil {
				return eq(len(got), n)
			}
		}
		if len(args) == 1 && args[0] == "-" {
			args = nil
		}
		want, err := parseCards(args)
		if err != nil {
			return err
		}
		return eq(cardStrings(got), cardStrings(want))
	}
	switch f[0] {
	case "holds":
		s, err := sc.seat(f[1])
		if err != nil {
			return err
		}
		return cardsOrCount(g.won[s], f[2:])
	case "grid":
		want, err := parseCards(f[1:])
		if err != nil {
			return err
		}
		return eq(cardStrings(g.grid[:]), cardStrings(want))
	case "pile":
		return cardsOrCount(g.pile, f[1:])
	case "bottom":
		if len(g.pile) == 0 {
			return errors.New("empty pile")
		}
		return eq(g.pile[len(g.pile)-1].String(), f[1])
	case "discard":
		return cardsOrCount(g.discard, f[1:])
	case "active":
		return eq(sc.names[g.active], f[1])
	case "deciding":
		return eq(sc.seatNames(g.ToDecide()), f[1:])
	case "phase":
		return eq(g.phase.String(), f[1])
	case "over":
		return eq(g.Over(), true)
	case "fingers":
		got := []string{}
		for _, fg := range g.fingers {
			got = append(got, fmt.Sprintf("%s:%d", sc.names[fg.seat], fg.square+1))
		}
		return eq(got, f[1:])
	case "winners":
		var got []string
		for _, r := range g.Results() {
			if r.Rank == 1 {
				got = append(got, sc.names[r.Seat])
			}
		}
		slices.Sort(got)
		want := slices.Sorted(slices.Values(f[1:]))
		return eq(got, want)
	case "score":
		s, err := sc.seat(f[1])
		if err != nil {
			return err
		}
		for _, r := range g.Results() {
			if r.Seat == s {
				return eq(strconv.Itoa(r.Score), f[2])
			}
		}
		return errors.New("no result")
	case "event", "no-event":
		if len(f) < 2 {
			return errors.New("expect event KIND [NAME] [square N] [cards C…]")
		}
		match := func(e Event) bool {
			if e.Kind.String() != f[1] {
				return false
			}
			rest := f[2:]
			if len(rest) > 0 && rest[0] != "square" && rest[0] != "cards" && rest[0] != "card" {
				if e.Seat < 0 || e.Seat >= len(sc.names) || sc.names[e.Seat] != rest[0] {
					return false
				}
				rest = rest[1:]
			}
			for len(rest) >= 2 {
				switch rest[0] {
				case "square":
					if strconv.Itoa(e.Square) != rest[1] {
						return false
					}
					rest = rest[2:]
				case "card":
					if e.Card.String() != rest[1] {
						return false
					}
					rest = rest[2:]
				case "cards":
					if strings.Join(cardStrings(e.Cards), " ") != strings.Join(rest[1:], " ") {
						return false
					}
					rest = nil
				default:
					return false
				}
			}
			return len(rest) == 0
		}
		found := slices.ContainsFunc(sc.last, match)
		if found != (f[0] == "event") {
			return fmt.Errorf("%s %v in %+v", f[0], f[1:], sc.last)
		}
		return nil
	}
	return fmt.Errorf("unknown expectation %q", f[0])
}
