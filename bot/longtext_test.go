package bot

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	botdix "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/bot/present"
)

// joined is the text of the embeds of msgs, one piece a line.
func joined(msgs [][]*discordgo.MessageEmbed) string {
	var parts []string
	for _, m := range msgs {
		for _, e := range m {
			parts = append(parts, e.Description)
		}
	}
	return strings.Join(parts, "\n")
}

// A text a message's content cannot hold is split into embeds within
// Discord's limits, at lines' ends, and nothing of it is lost; a short
// one stays content.
func TestTextEmbedsKeepTheWholeText(t *testing.T) {
	t.Parallel()
	assert.Nil(t, textEmbeds(strings.Repeat("é", present.MaxContent)), "a text that fits stays content")

	line := strings.Repeat("ß", 99)
	for _, lines := range []int{21, 41, 200} {
		text := strings.Repeat(line+"\n", lines-1) + line
		msgs := textEmbeds(text)
		require.NotEmpty(t, msgs, "%d lines", lines)
		assert.Equal(t, text, joined(msgs), "%d lines: every line, in order", lines)
		for _, m := range msgs {
			assert.LessOrEqual(t, len(m), present.MaxEmbeds)
			size := 0
			for _, e := range m {
				n := utf8.RuneCountInString(e.Description)
				assert.LessOrEqual(t, n, present.MaxDescription)
				assert.False(t, strings.HasSuffix(e.Description, "\n"))
				size += n
			}
			assert.LessOrEqual(t, size, present.MaxEmbedsText)
		}
		if lines == 200 {
			assert.Greater(t, len(msgs), 1, "20,000 characters take several messages")
		}
	}

	// A line longer than an embed holds is cut, not dropped.
	long := strings.Repeat("x", present.MaxDescription+10)
	msgs := textEmbeds(long)
	assert.Equal(t, long, strings.ReplaceAll(joined(msgs), "\n", ""))
}

// /dix rules in French, longer than a message's content, is answered
// whole, privately, in embeds.
func TestRulesLongerThanAMessageAreAnsweredWhole(t *testing.T) {
	t.Parallel()
	h := newDixHarness(t, 3, false)
	want := botdix.Presenter{}.Rules("fr")
	require.Greater(t, utf8.RuneCountInString(want), present.MaxContent, "the French rules need more than the content")
	h.Locale = discordgo.French
	resp := h.Run(h.GameCommandIx("dix", "u1", "rules")).Response()
	require.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, resp.Type)
	assert.NotZero(t, resp.Data.Flags&discordgo.MessageFlagsEphemeral, "private")
	assert.Empty(t, resp.Data.Content)
	assert.Equal(t, strings.TrimRight(want, "\n"), joined([][]*discordgo.MessageEmbed{resp.Data.Embeds}), "the whole text")

	h.Locale = discordgo.EnglishUS
	resp = h.Run(h.GameCommandIx("dix", "u1", "rules")).Response()
	assert.Equal(t, botdix.Presenter{}.Rules("en"), resp.Data.Content, "the English rules fit in the content")
}
