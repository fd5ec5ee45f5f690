package qwixx

import (
	"strings"
	"testing"

	"github.com/dixgame/dixbot/bot/present"
	rules "github.com/dixgame/dixbot/engine/qwixx"
)

// sheetsGame returns a game whose sheets are the §10 notations
// given, seat by seat.
func sheetsGame(t *testing.T, sheets ...string) *rules.Game {
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
