package bot

import (
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/locales"
)

func Button(lang, key string, data map[string]any, style discordgo.ButtonStyle, id string) discordgo.Button {
	return discordgo.Button{Label: Truncate(locales.T(lang, key, data), present.MaxButtonLabel), Style: style, CustomID: id}
}

// Truncate cuts s to at most n characters (runes).
func Truncate(s string, n int) string { return present.Truncate(s, n) }

func Itoa(n int) string { return strconv.Itoa(n) }

// Escape keeps a display name from being read as Markdown.
func Escape(s string) string { return markdown.Replace(s) }

var markdown = strings.NewReplacer(`\`, `\\`, `*`, `\*`, `_`, `\_`, `~`, `\~`, `|`, `\|`, "`", "\\`", `>`, `\>`)
