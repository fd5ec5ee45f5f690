package bot

import (
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"

	"github.com/dixgame/dixbot/engine/dix"
)

// TestScoreChangesTakeTheirPlural: a purchase's score change reads "+1
// point", "0 points", "−2 points" in English and "+1 point", "0 point",
// "−2 points" in French, in the market menu and in /dix hint; the hint's
// averages use the language's decimal point.
func TestScoreChangesTakeTheirPlural(t *testing.T) {
	cards := []dix.Card{
		{Kind: dix.KindNumber, Color: dix.Blue, Value: 1},
		{Kind: dix.KindNumber, Color: dix.Blue, Value: 2},
		{Kind: dix.KindNumber, Color: dix.Blue, Value: 3},
	}
	deltas := map[dix.Card]int{cards[0]: 1, cards[1]: 0, cards[2]: -2}
	pay := func(cd dix.Card) (dix.Payment, int, bool) {
		return dix.Payment{Money: int(cd.Value)}, deltas[cd], true
	}
	for _, tc := range []struct {
		lang string
		want []string
	}{
		{"en", []string{"+1 point · you would pay 1 token", "0 points · you would pay 2 tokens", "−2 points · you would pay 3 tokens"}},
		{"fr", []string{"+1 point · vous paieriez 1 jeton", "0 point · vous paieriez 2 jetons", "−2 points · vous paieriez 3 jetons"}},
	} {
		rows := buySelects(tc.lang, 1, cards, pay)
		var got []string
		for _, o := range rows[0].(discordgo.ActionsRow).Components[0].(discordgo.SelectMenu).Options {
			got = append(got, o.Description)
		}
		assert.Equal(t, tc.want, got, tc.lang)
	}
	assert.Equal(t, "+0.4", points("en", 0.42))
	assert.Equal(t, "−1,5", points("fr", -1.5))
}
