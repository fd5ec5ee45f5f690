package qwixx

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/bot/present"
	computer "github.com/dixgame/dixbot/computer/qwixx"
	"github.com/dixgame/dixbot/engine"
	rules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/locales"
)

// sheetsGame returns a game whose sheets are the §10 notations
// given, seat by seat.
func sheetsGame(t testing.TB, sheets ...string) *rules.Game {
	t.Helper()
	g, err := rules.New(rules.Options{Players: len(sheets), Seed: 7, First: 0})
	if err != nil {
		t.Fatal(err)
	}
	for s, n := range sheets {
		sh, err := rules.ParseSheet(n)
		if err != nil {
			t.Fatal(err)
		}
		g.Sheets[s] = sh
	}
	return g
}

// TestSheetLinesSayPointsInTheReadersGrammar: a score of 1 is "1 point"
// in both languages, 0 is "0 points" in English and "0 point" in French
// (each language's plural rule), and a row without marks adds no stray
// separator, so no "· ·" before the penalties.
func TestSheetLinesSayPointsInTheReadersGrammar(t *testing.T) {
	t.Parallel()
	g := sheetsGame(t, "r2", "-", "r2 r3 y3")
	cases := []struct {
		lang string
		want []string
	}{
		{"en", []string{"Ann: 1 point ·", "Bob: 0 points ·", "Cat: 4 points ·"}},
		{"fr", []string{"Ann : 1 point ·", "Bob : 0 point ·", "Cat : 4 points ·"}},
	}
	for _, c := range cases {
		tb := present.Table{Lang: c.lang, Names: []string{"Ann", "Bob", "Cat"}, Computer: make([]bool, 3)}
		b := Presenter{}.Board(tb, rules.StateOf(g))
		for _, w := range c.want {
			if !strings.Contains(b.Content, w) {
				t.Errorf("%s board lacks %q:\n%s", c.lang, w, b.Content)
			}
		}
		if strings.Contains(b.Content, "· ·") || strings.Contains(b.Content, "1 points") {
			t.Errorf("%s board:\n%s", c.lang, b.Content)
		}
	}
}

// TestScoreboardSaysPointsInTheReadersGrammar: the final standings use
// the same plural forms.
func TestScoreboardSaysPointsInTheReadersGrammar(t *testing.T) {
	t.Parallel()
	g := sheetsGame(t, "r2", "-", "r2 r3 y3")
	g.Phase = rules.PhaseOver
	g.Ended = rules.EndPenalties
	cases := []struct {
		lang string
		want []string
	}{
		{"en", []string{"**Ann**: 1 point (", "**Bob**: 0 points (", "**Cat**: 4 points ("}},
		{"fr", []string{"**Ann** : 1 point (", "**Bob** : 0 point (", "**Cat** : 4 points ("}},
	}
	for _, c := range cases {
		tb := present.Table{Lang: c.lang, Names: []string{"Ann", "Bob", "Cat"}, Computer: make([]bool, 3)}
		b := Presenter{}.Board(tb, rules.StateOf(g))
		for _, w := range c.want {
			if !strings.Contains(b.Content, w) {
				t.Errorf("%s scoreboard lacks %q:\n%s", c.lang, w, b.Content)
			}
		}
		if strings.Contains(b.Content, "1 points") {
			t.Errorf("%s scoreboard:\n%s", c.lang, b.Content)
		}
	}
}

// The board names its picture by what it shows, without drawing it when
// that is the picture the message keeps (Table.Kept): no file then, the
// embed still showing the file by name. A change the picture shows
// changes the name; the active seat's private plan does not.
func TestBoardPictureKey(t *testing.T) {
	t.Parallel()
	tb := present.Table{Lang: "en", Names: []string{"Ann", "Bob", "Cat"}, Computer: []bool{false, false, true}, Pictures: true}
	g := sheetsGame(t, "-", "-", "-")
	b := Presenter{}.Board(tb, rules.StateOf(g))
	if len(b.Files) != 1 || b.Picture == "" {
		t.Fatalf("a board with pictures: %d files, picture %q", len(b.Files), b.Picture)
	}
	kept := tb
	kept.Kept = b.Picture
	k := Presenter{}.Board(kept, rules.StateOf(g))
	if len(k.Files) != 0 || k.Picture != b.Picture {
		t.Errorf("kept: %d files, picture %q, want none and %q", len(k.Files), k.Picture, b.Picture)
	}
	if len(k.Embeds) != 1 || k.Embeds[0].Image == nil || k.Embeds[0].Image.URL != "attachment://"+pictureName || k.Content != b.Content {
		t.Errorf("kept: the embed must show the message's file, the text stay: %+v", k.Embeds)
	}
	off := tb
	off.Pictures = false
	if o := (Presenter{}).Board(off, rules.StateOf(g)); o.Picture != "" || len(o.Files) != 0 {
		t.Errorf("text only: picture %q, %d files", o.Picture, len(o.Files))
	}
	renamed := tb
	renamed.Names = []string{"Ann", "Bea", "Cat"}
	if (Presenter{}).Board(renamed, rules.StateOf(g)).Picture == b.Picture {
		t.Error("a name the picture shows changed, not the key")
	}

	// The active seat passes its white sum, with or without a private plan
	// of its colour sum: the public board is the same picture.
	plain, planned := sheetsGame(t, "-", "-", "-"), sheetsGame(t, "-", "-", "-")
	if _, err := plain.Apply(plain.Active, rules.Action{Kind: rules.ActWhite, Pass: true}); err != nil {
		t.Fatal(err)
	}
	plan := rules.Action{Kind: rules.ActColour, Pass: true}.AsPlan()
	if _, err := planned.Apply(planned.Active, rules.Action{Kind: rules.ActWhite, Pass: true, Plan: plan}); err != nil {
		t.Fatal(err)
	}
	if plain.View(plain.Active).Sheets[plain.Active].Plan == planned.View(planned.Active).Sheets[planned.Active].Plan {
		t.Fatal("the two games must differ in the active seat's plan")
	}
	p1, p2 := Presenter{}.Board(tb, rules.StateOf(plain)), Presenter{}.Board(tb, rules.StateOf(planned))
	if p1.Picture != p2.Picture || p1.Picture == b.Picture {
		t.Errorf("plan or not: %q and %q (before the pass %q)", p1.Picture, p2.Picture, b.Picture)
	}
}

// Every prompt and every board of many random games fits Discord's limits
// (present's Check: options a menu, buttons a row, rows, labels, custom
// ids), and the active player's prompt reaches every plan the rules allow,
// through its steps, in English and in French on alternate rolls; a draft that is not a white-sum
// decision open is refused (ErrBadDraft), and another seat has no prompt.
func TestEveryPromptFitsDiscordAndReachesEveryPlan(t *testing.T) {
	t.Parallel()
	rolls := 0
	for seed := range int64(12) {
		g, err := rules.New(rules.Options{Players: 2 + int(seed%4), Seed: seed, First: 0})
		require.NoError(t, err)
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		names := []string{"Ann", "Bob", "Cat", "Dan", "Eve"}[:g.Players]
		for step := 0; !g.Over(); step++ {
			require.Less(t, step, 5000)
			st := rules.StateOf(g)
			for _, lang := range []string{"en", "fr"} {
				tb := present.Table{Lang: lang, Names: names, Computer: make([]bool, g.Players)}
				require.NoError(t, Presenter{}.Board(tb, st).Check(), "board of turn %d", g.Turn)
			}
			if g.Phase == rules.PhaseWhite && g.Deciding(g.Active) {
				rolls++
				want := map[engine.Move]bool{}
				for _, w := range g.LegalActions(g.Active) {
					for _, c := range g.LegalPlans(w) {
						w.Plan = c.AsPlan()
						want[w.Move()] = true
					}
				}
				// One language a roll, by turns: the first step holds the
				// strong level's plan, which searches.
				for _, lang := range []string{[]string{"en", "fr"}[rolls%2]} {
					got := map[engine.Move]bool{}
					first, err := Presenter{}.Prompt(present.Table{Lang: lang}, st, g.Active, "")
					require.NoError(t, err)
					require.NoError(t, first.Check(), "first step, turn %d", g.Turn)
					for _, c := range first.Choices {
						if c.Next == "" {
							got[c.Move] = true
							continue
						}
						p, err := Presenter{}.Prompt(present.Table{Lang: lang}, st, g.Active, c.Next)
						require.NoError(t, err, c.Next)
						require.NoError(t, p.Check(), "step %q, turn %d", c.Next, g.Turn)
						for _, c2 := range p.Choices {
							require.Empty(t, c2.Next, "a second step's choices are plans")
							got[c2.Move] = true
						}
					}
					assert.Equal(t, want, got, "turn %d, white sum %d", g.Turn, g.Dice.WhiteSum())
				}
				for _, bad := range []string{"w r13", "c -", "w - c -", "zz", "w r" + strconv.Itoa(g.Dice.WhiteSum()+1)} {
					_, err := Presenter{}.Prompt(present.Table{Lang: "en"}, st, g.Active, bad)
					assert.ErrorIs(t, err, present.ErrBadDraft, bad)
				}
				other := (g.Active + 1) % g.Players
				_, err := Presenter{}.Prompt(present.Table{Lang: "en"}, st, other, "")
				assert.ErrorIs(t, err, present.ErrNoPrompt)
			}
			deciding := g.ToDecide()
			seat := deciding[r.IntN(len(deciding))]
			legal := g.LegalActions(seat)
			_, err := g.Apply(seat, legal[r.IntN(len(legal))])
			require.NoError(t, err)
		}
	}
	assert.Positive(t, rolls)
}

// A refusal names the row with its colour in agreement ("rangée bleue",
// "rangée verte" in French).
func TestRefusalNamesTheRowInAgreement(t *testing.T) {
	t.Parallel()
	g := sheetsGame(t, "b12 b11 b10 b9 b8 g12 g11", "-")
	for _, c := range []struct {
		lang string
		m    engine.Move
		want string
	}{
		{"fr", "w b2", "Votre rangée bleue a dépassé"}, {"fr", "w g2", "Votre rangée verte a dépassé"},
		{"en", "w b2", "Your blue row is past"},
	} {
		rf := Presenter{}.Refusal(c.lang, rules.StateOf(g), 0, c.m, rules.ErrNotRightOf)
		require.Equal(t, "qwixx_err_not_right_of", rf.Key)
		assert.Contains(t, locales.T(c.lang, rf.Key, rf.Data), c.want)
	}
}

// TestSolitaireHintShowsTheExactExpectation: alone, the hint gives each
// decision's exact expected final score to a tenth, with the reader's
// decimal point; from an empty sheet the best is the solitaire optimum
// (115.48, computer/qwixx).
func TestSolitaireHintShowsTheExactExpectation(t *testing.T) {
	t.Parallel()
	g, err := rules.New(rules.Options{Players: 1, Solitaire: true, Seed: 3, First: 0})
	if err != nil {
		t.Fatal(err)
	}
	opts := computer.Options(g, 0)
	best := opts[0].Points
	for _, o := range opts {
		best = max(best, o.Points)
	}
	if best < 115.3 || best > 125 {
		t.Errorf("best option expects %.2f", best)
	}
	for lang, want := range map[string]string{"en": strconv.FormatFloat(best, 'f', 1, 64), "fr": strings.Replace(strconv.FormatFloat(best, 'f', 1, 64), ".", ",", 1)} {
		h := Presenter{}.Hint(lang, rules.StateOf(g), 0)
		if !strings.Contains(h, ": "+want) && !strings.Contains(h, " : "+want) {
			t.Errorf("%s hint lacks %s:\n%s", lang, want, h)
		}
		if got, n := strings.Count(h, "\n")+1, len(opts)+1; got != n {
			t.Errorf("%s hint has %d lines, want %d:\n%s", lang, got, n, h)
		}
	}
}

// TestHintWeighsTheWin: with others at the table, the hint names the
// decision the strong level takes and gives each decision it played out
// its share of games won; near the end it says it plays for the win and
// lists those first, before it ranks every decision by points. Before
// the end, at 3 seats it leaves the first by points only for a clear
// lead, at 4 and 5 for any lead on the same dice, and says so.
func TestHintWeighsTheWin(t *testing.T) {
	t.Parallel()
	for players, before := range map[int]string{3: "qwixx_hint_overrule_network", 4: "qwixx_hint_overrule_lead", 5: "qwixx_hint_overrule_lead"} {
		t.Run(strconv.Itoa(players), func(t *testing.T) {
			t.Parallel()
			hintWeighsTheWin(t, players, before)
		})
	}
}

func hintWeighsTheWin(t *testing.T, players int, overrule string) {
	g, err := rules.New(rules.Options{Players: players, Seed: 11, First: 0})
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(11, 1))
	checked := map[bool]int{} // by the end near
	for step := 0; step < 2000 && !g.Over() && (checked[false] < 2 || checked[true] < 3); step++ {
		seat := g.ToDecide()[0]
		near := computer.EndNear(g)
		opts := computer.Options(g, seat)
		weighed := 0
		for _, o := range opts {
			if o.Win >= 0 {
				weighed++
			}
		}
		if weighed > 1 && checked[near] < 3 {
			strong, err := computer.Decide(g, seat, computer.Strong, r)
			require.NoError(t, err)
			key := map[bool]string{false: "qwixx_hint_best", true: "qwixx_hint_best_end"}[near]
			for _, lang := range []string{"en", "fr"} {
				h := Presenter{}.Hint(lang, rules.StateOf(g), seat)
				lines := strings.Split(h, "\n")
				want := locales.T(lang, key, map[string]any{"Decision": decision(lang, g, strong), "Overrule": locales.T(lang, overrule, nil)})
				assert.Equal(t, want, lines[0], "the hint names the strong level's decision")
				require.Len(t, lines, len(opts)+1)
				shown := 0
				for i, l := range lines[1:] {
					if strings.Contains(l, "%") {
						shown++
						if near {
							assert.Less(t, i, weighed, "near the end, the decisions played out come first: %q", l)
						}
					}
				}
				assert.Equal(t, weighed, shown, "each decision played out with its share won")
			}
			checked[near]++
		}
		a, err := computer.Decide(g, seat, computer.Normal, r)
		require.NoError(t, err)
		_, err = g.Apply(seat, a)
		require.NoError(t, err)
	}
	assert.GreaterOrEqual(t, checked[false], 2, "positions before the end with decisions played out")
	assert.Equal(t, 3, checked[true], "positions near the end with decisions played out")
}

// A row's text kept (rowShort) is the one written for it, in both
// languages, for every row of every colour, the first time and after.
func TestRowShortKept(t *testing.T) {
	t.Parallel()
	for _, l := range []string{"en", "fr"} {
		for _, c := range rules.Colors {
			for r := range rules.Row(1 << (rules.LockPos + 1)) {
				want := rowShortText(l, c, r)
				require.Equal(t, want, rowShort(l, c, r), "%s %v %b", l, c, r)
				require.Equal(t, want, rowShort(l, c, r), "%s %v %b, kept", l, c, r)
			}
		}
	}
	assert.Equal(t, "🔴3→4", rowShort("en", rules.Red, rules.Row(0b111)), "2, 3 and 4 marked in red")
}

// Every refusal of a move reads in full in both languages, for every
// error the rules give a move and for a move the rules cannot read: the
// key exists and each field the message names is given.
func TestEveryRefusalReads(t *testing.T) {
	t.Parallel()
	g := sheetsGame(t, "b12 b11 b10 b9 b8 g12 g11", "-")
	errs := []error{rules.ErrDecided, rules.ErrWrongAction, rules.ErrNotYourTurn, engine.ErrNotYourTurn, rules.ErrRowLocked,
		rules.ErrDieRemoved, rules.ErrNotRightOf, rules.ErrLockNeedsFive, rules.ErrWrongSum, engine.ErrGameOver, rules.ErrBadMove, engine.ErrBadMove}
	for _, m := range []engine.Move{"w b2", "c r7", "w -", "c -", "w r7 c y9", "garbage"} {
		for _, err := range errs {
			for _, lang := range locales.Languages {
				rf := Presenter{}.Refusal(lang, rules.StateOf(g), 0, m, err)
				s := locales.T(lang, rf.Key, rf.DataWith(func(int) string { return "Ann" }))
				assert.NotEqual(t, locales.Missing(rf.Key), s, "%s %q: %v", lang, m, err)
				assert.NotContains(t, s, "<no value>", "%s %q: %v: %s", lang, m, err, rf.Key)
			}
		}
	}
}

// A row's text kept (rowShort) is the text written for it, for every row
// of every colour in every language: what its index leaves out changes
// nothing of the text.
func TestRowShortKeepsEachRowsText(t *testing.T) {
	for _, l := range locales.Languages {
		for _, c := range rules.Colors {
			for r := range rules.Row(1 << (rules.LockPos + 1)) {
				want := rowShortText(l, c, r)
				require.Equal(t, want, rowShort(l, c, r), "%s %v %012b", l, c, r)
				require.Equal(t, want, rowShort(l, c, r), "%s %v %012b, kept", l, c, r)
			}
		}
	}
}
