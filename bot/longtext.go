package bot

import (
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot/bot/present"
)

// EphemeralText answers text privately: as the message's content when it
// fits, else as embeds (whose text may be longer), over as many messages
// as it takes, never cut.
func (c *Call) EphemeralText(text string) {
	msgs := textEmbeds(text)
	if msgs == nil {
		c.Ephemeral(text, nil)
		return
	}
	for _, embeds := range msgs {
		c.Ephemeral("", nil, embeds...) // after the first: follow-ups
	}
}

// textEmbeds splits text that a message's content cannot hold into the
// embeds of one or more messages: each embed's description at most
// present.MaxDescription characters, cut at a line's end where one is
// near, each message within present.MaxEmbeds embeds and
// present.MaxEmbedsText characters. nil: text fits in a content.
func textEmbeds(text string) [][]*discordgo.MessageEmbed {
	if utf8.RuneCountInString(text) <= present.MaxContent {
		return nil
	}
	var pieces []string
	for text != "" {
		piece := text
		if r := []rune(text); len(r) > present.MaxDescription {
			piece = string(r[:present.MaxDescription])
			if i := strings.LastIndexByte(piece, '\n'); i > len(piece)/2 {
				piece = piece[:i+1]
			}
		}
		if p := strings.TrimRight(piece, "\n"); p != "" {
			pieces = append(pieces, p)
		}
		text = text[len(piece):]
	}
	var msgs [][]*discordgo.MessageEmbed
	var cur []*discordgo.MessageEmbed
	size := 0
	for _, p := range pieces {
		n := utf8.RuneCountInString(p)
		if len(cur) == present.MaxEmbeds || len(cur) > 0 && size+n > present.MaxEmbedsText {
			msgs, cur, size = append(msgs, cur), nil, 0
		}
		cur = append(cur, &discordgo.MessageEmbed{Description: p, Color: colorPrompt})
		size += n
	}
	return append(msgs, cur)
}

// colorPrompt is the colour of the embeds of a private text.
const colorPrompt = 0x805ad5
