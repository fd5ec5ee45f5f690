package dixtable

import (
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot/bot"
	computer "github.com/dixgame/dixbot/computer/dix"
	"github.com/dixgame/dixbot/locales"
)

func lobbyButtons(lang string, m *dixTable) []discordgo.MessageComponent {
	v := m.lobbyVersion()
	rows := []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		bot.Button(lang, "btn_join", nil, discordgo.PrimaryButton, bot.CustomID(verbJoin, v)),
		bot.Button(lang, "btn_leave", nil, discordgo.SecondaryButton, bot.CustomID(verbLeave, v)),
		bot.Button(lang, "btn_start", nil, discordgo.SuccessButton, bot.CustomID(verbGo, v)),
		bot.Button(lang, "btn_cancel", nil, discordgo.DangerButton, bot.CustomID(verbCancel, v)),
	}}}
	if len(m.Seats) < maxPlayers {
		// The creator may fill seats with computer players.
		var opts []discordgo.SelectMenuOption
		for _, l := range computer.Levels {
			opts = append(opts, discordgo.SelectMenuOption{
				Label: locales.T(lang, "level_"+l.String(), nil), Value: l.String(),
				Description: locales.T(lang, "level_"+l.String()+"_desc", nil),
			})
		}
		rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
			CustomID: bot.CustomID(verbAddCPU, v), Placeholder: locales.T(lang, "select_add_cpu", nil), Options: opts,
		}}})
	}
	for _, s := range m.Seats {
		if s.CPU != "" {
			// One button removes the last computer player added.
			rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				bot.Button(lang, "btn_remove_cpu", nil, discordgo.SecondaryButton, bot.CustomID(verbRemoveCPU, v)),
			}})
			break
		}
	}
	return rows
}

// name returns the display name of a seat (ALIX for the solo robot).
func (m *dixTable) name(lang string, seatNo int) string {
	if seatNo < 0 || seatNo >= len(m.Seats) {
		return locales.T(lang, "nobody", nil)
	}
	if lvl := m.Seats[seatNo].CPU; lvl != "" {
		return locales.T(lang, "computer_name", map[string]any{"N": seatNo + 1, "Level": locales.T(lang, "level_"+lvl, nil)})
	}
	if m.Seats[seatNo].ID == "" {
		return locales.T(lang, "dix_alix_name", nil)
	}
	return bot.Escape(m.Seats[seatNo].Name)
}

// lobbyEmbed renders an open, started or cancelled lobby.
func lobbyEmbed(lang string, m *dixTable, state string) *discordgo.MessageEmbed {
	e := &discordgo.MessageEmbed{Color: bot.ColorLobby}
	creator := locales.T(lang, "nobody", nil)
	if len(m.Seats) > 0 {
		for _, s := range m.Seats {
			if s.ID == m.Creator {
				creator = bot.Escape(s.Name)
			}
		}
	}
	d := map[string]any{"Creator": creator}
	e.Title = locales.T(lang, "lobby_title_"+state, d)
	e.Description = locales.T(lang, "lobby_desc_"+state, d)
	var names []string
	for i := range m.Seats {
		names = append(names, locales.T(lang, "lobby_player_line", map[string]any{"N": i + 1, "Name": m.name(lang, i)}))
	}
	players := strings.Join(names, "\n")
	if players == "" {
		players = locales.T(lang, "none", nil)
	}
	variant := locales.T(lang, "variant_standard", nil)
	if m.Bust {
		variant = locales.T(lang, "variant_bust", nil)
	}
	settings := locales.T(lang, "lobby_settings_value", map[string]any{
		"Variant": variant, "Language": locales.T(lang, "language_name_"+m.Lang, nil)})
	if m.Starts > 0 && m.Starts <= len(m.Seats) {
		settings += "\n" + locales.T(lang, "lobby_starts", map[string]any{"Name": m.name(lang, m.Starts-1)})
	}
	if m.Pace != "" {
		settings += "\n" + locales.T(lang, "lobby_pace", map[string]any{"Pace": locales.T(lang, "pace_"+m.Pace, nil)})
	}
	if m.NoPictures {
		settings += "\n" + locales.T(lang, "pictures_off", nil)
	}
	e.Fields = []*discordgo.MessageEmbedField{
		{Name: locales.N(lang, "lobby_players", len(m.Seats), nil), Value: players, Inline: true},
		{Name: locales.T(lang, "lobby_settings", nil), Value: settings, Inline: true},
	}
	return e
}
