package locales

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// countWord is a placeholder followed by the word after it.
var countWord = regexp.MustCompile(`{{\s*\.(\w+)\s*}}(?:\*\*)? ([\p{L}]+)`)

// counts are the placeholders that hold a count of things.
var counts = []string{"Count", "Pile", "Played", "Won", "Votes", "Need", "Left", "Points", "Score", "Min", "Max", "Games", "Wins", "Cards", "Turns"}

// notNouns are words that may follow a count without agreeing with it.
var notNouns = []string{"to", "of", "or", "and", "for", "on", "is", "are", "in", "left", "more", "against",
	"à", "ou", "et", "sur", "pour", "par", "contre", "est", "dans"}

// alwaysMany are messages whose count is never below two, so that their
// noun is plural in both languages whatever the count: their plural form
// would never be chosen.
var alwaysMany = map[string]string{
	"err_too_few":         "Min: a game's fewest seats, 2 or more",
	"table_lobby":         "Max: a game's most seats, 5 or more",
	"dixxit_err_bad_clue": "Max: the clue's length, 100",
	// DIX's hints give Points as a decimal figure, not a count of points.
	"dix_hint_gain":   "a decimal figure",
	"dix_hint_why_3":  "a decimal figure",
	"dix_hint_why_4":  "a decimal figure",
	"dix_hint_why_5":  "a decimal figure",
	"dix_hint_why_6":  "a decimal figure",
	"dix_hint_why_7":  "a decimal figure",
	"dix_hint_why_10": "a decimal figure",
	"dix_hint_why_11": "a decimal figure",
	"dix_hint_why_12": "a decimal figure",
}

// Wherever a count meets a noun, the message has plural forms ("one" and
// "other", chosen by each language's rule through go-i18n): no
// "1 cards", "1 jouées". A message with one form puts no noun right after
// a count.
func TestCountsMeetNounsInPluralForms(t *testing.T) {
	t.Parallel()
	for _, lang := range Languages {
		for key, forms := range messages(t, lang) {
			if len(forms) > 1 || alwaysMany[key] != "" {
				continue
			}
			for _, m := range countWord.FindAllStringSubmatch(forms["other"], -1) {
				if slices.Contains(counts, m[1]) && !slices.Contains(notNouns, strings.ToLower(m[2])) {
					t.Errorf("%s %s: %q meets a noun, %q, without plural forms", lang, key, m[1], m[2])
				}
			}
		}
	}
}

// French agreement: a colour that meets a feminine noun agrees with it
// (a "rangée bleue", never "rangée bleu"), so no message puts a colour's
// name after "rangée"; and one clicks "sur" a square.
func TestFrenchAgreement(t *testing.T) {
	t.Parallel()
	bad := regexp.MustCompile(`rangée\s+(?:\*\*)?{{\s*\.(Colou?r)\s*}}|[Cc]liquez la `)
	for key, forms := range messages(t, French) {
		for _, s := range forms {
			assert.False(t, bad.MatchString(s), "fr %s: %q", key, bad.FindString(s))
		}
	}
	for _, c := range []struct{ key, want string }{
		{"qwixx_row_red", "rangée rouge"}, {"qwixx_row_yellow", "rangée jaune"},
		{"qwixx_row_green", "rangée verte"}, {"qwixx_row_blue", "rangée bleue"},
	} {
		assert.Equal(t, c.want, T(French, c.key, nil))
	}
}

// The plural forms give each language's grammar: French takes the
// singular for 0 and 1, English for 1 only.
func TestPluralFormsOfCounts(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		lang, key string
		n         int
		want      string
	}{
		{English, "stats_games", 1, "1 game"}, {English, "stats_games", 0, "0 games"},
		{French, "stats_games", 1, "1 partie"}, {French, "stats_games", 0, "0 partie"}, {French, "stats_wins", 2, "2 victoires"},
	} {
		assert.Equal(t, c.want, N(c.lang, c.key, c.n, nil), "%s %s %d", c.lang, c.key, c.n)
	}
	for _, c := range []struct {
		lang      string
		ahead, of int
		want      string
	}{
		{English, 0, 2, "ahead of 0 opponents out of 2"}, {English, 1, 3, "ahead of 1 opponent out of 3"},
		{French, 0, 2, "devant 0 adversaire sur 2"}, {French, 1, 3, "devant 1 adversaire sur 3"},
		{French, 12, 18, "devant 12 adversaires sur 18"},
	} {
		assert.Equal(t, c.want, N(c.lang, "stats_ahead", c.ahead, map[string]any{"Of": c.of}))
	}
	one := N(English, "dixxit_board_title", 1, map[string]any{"Turn": 3, "Name": "Ann", "Pile": 1})
	assert.Contains(t, one, "(1 card left in the pile)")
	assert.Contains(t, N(French, "dixxit_board_title", 1, map[string]any{"Turn": 3, "Name": "Ann", "Pile": 1}), "(1 carte dans la pioche)")
}
