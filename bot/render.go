package bot

import (
	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/locales"
)

// Button is a button labelled by the locale key in lang, cut to Discord's
// limit.
func Button(lang, key string, data map[string]any, style discordgo.ButtonStyle, id string) discordgo.Button {
	return discordgo.Button{Label: present.Truncate(locales.T(lang, key, data), present.MaxButtonLabel), Style: style, CustomID: id}
}
