package bot

import (
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	botdix "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/locales"
)

// startOption is the option named name of /<game> <sub> (nil: none).
func startOption(b *Bot, game, sub, name string) *discordgo.ApplicationCommandOption {
	for _, c := range b.Commands() {
		if c.Name != En(game+"_cmd_name") {
			continue
		}
		for _, s := range c.Options {
			if s.Name != En("cmd_"+sub+"_name") {
				continue
			}
			for _, o := range s.Options {
				if o.Name == name {
					return o
				}
			}
		}
	}
	return nil
}

// The start command (and solo's) offers the game's paces, named by their
// durations in both languages; the pace given is the table's; a pace the
// game does not have is refused and opens nothing.
func TestStartCommandChoosesThePace(t *testing.T) {
	t.Parallel()
	h := newDixHarness(t, 3, false)
	for _, sub := range []string{"start", "solo"} {
		o := startOption(h.b, "dix", sub, En("opt_pace_name"))
		require.NotNil(t, o, "/dix %s offers the pace", sub)
		assert.Equal(t, locales.T("fr", "opt_pace_name", nil), o.NameLocalizations[discordgo.French])
		var values []string
		for _, c := range o.Choices {
			values = append(values, c.Value.(string))
			p := h.b.games["dix"].PaceOf(c.Value.(string))
			assert.Equal(t, present.PaceText("en", p.Bank), c.Name)
			assert.Equal(t, present.PaceText("fr", p.Bank), c.NameLocalizations[discordgo.French])
		}
		assert.Equal(t, []string{"evening", "live", "relaxed"}, values)
		assert.Contains(t, o.Description, present.PaceText("en", botdix.Paces[0].Bank), "the default is named")
	}

	refused := h.Run(h.startIx("dix", "u1", map[string]string{"pace": "sprint"})).EphemeralText()
	assert.Equal(t, locales.T("en", "table_err_option", map[string]any{"Option": "pace"}), refused)
	_, err := h.Db.Get(t.Context(), h.Channel)
	require.Error(t, err, "nothing opened")

	lobby := h.Run(h.startIx("dix", "u1", map[string]string{"pace": "live"})).Shown(nil)
	require.NotNil(t, lobby)
	_, td, _, _ := h.dixNow()
	assert.Equal(t, "live", td.Pace)
	assert.Contains(t, lobby.Content, present.PaceText("en", h.b.games["dix"].PaceOf("live").Bank))
}

// A game may not name one of its own options as the table's start
// options are named.
func TestGameOptionMayNotTakeATableOptionsName(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"pace", "language", "pictures"} {
		g := botdix.Game()
		g.Options = append(g.Options, present.Option{Name: name, Values: []string{"a", "b"}, Default: "a"})
		assert.Error(t, checkOptions(&g), name)
	}
	g := botdix.Game()
	assert.NoError(t, checkOptions(&g))
}
