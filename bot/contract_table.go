package bot

import (
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/locales"
)

// Table features of contract games beyond the lobby and the clicks: the
// pace chosen in the lobby and the board's clocks.

// paceMenu is the lobby's pace menu, in the table's language, the pace
// chosen marked as its default; nil when the game offers one pace or none.
func paceMenu(g *present.Game, td *tableData) discordgo.MessageComponent {
	if len(g.Paces) < 2 {
		return nil
	}
	chosen := g.PaceOf(td.Pace).Name
	name := g.Rules.Name()
	var opts []discordgo.SelectMenuOption
	for _, p := range g.Paces[:min(len(g.Paces), 25)] {
		opts = append(opts, discordgo.SelectMenuOption{
			Label: Truncate(paceLabel(td.Lang, name, p), 100), Value: p.Name, Default: p.Name == chosen})
	}
	return discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
		CustomID: contractID(name, cverbPace, uint64(td.Lobby), ""), Options: opts,
		Placeholder: locales.T(td.Lang, "table_pace_placeholder", nil),
	}}}
}

// choosePace sets the table's pace to the one named name: the creator's
// choice alone, among the game's paces.
func choosePace(g *present.Game, td *tableData, user, name string) error {
	if user != td.Creator {
		return ErrNotCreator
	}
	if !slices.ContainsFunc(g.Paces, func(p present.Pace) bool { return p.Name == name }) {
		return ErrBadCustomID
	}
	td.Pace = name
	return nil
}

// tableClockLine is the board's line on the clocks running: for each deadline,
// the people deciding against it and when it falls, as a Discord
// timestamp every client counts down
// (https://discord.com/developers/docs/reference#message-formatting-timestamp-styles).
// "" when no person's decision runs on a clock.
func tableClockLine(g *present.Game, st engine.State, td *tableData) string {
	if st.Over() {
		return ""
	}
	if td.Paused != "" {
		return pausedLine(g, td)
	}
	type group struct {
		at    time.Time
		seats []int
	}
	var groups []group
	for _, s := range st.ToDecide() {
		d := td.deadline(g, st, s)
		if d.IsZero() {
			continue
		}
		i := slices.IndexFunc(groups, func(gr group) bool { return gr.at.Equal(d) })
		if i < 0 {
			groups = append(groups, group{at: d})
			i = len(groups) - 1
		}
		groups[i].seats = append(groups[i].seats, s)
	}
	slices.SortStableFunc(groups, func(a, b group) int { return a.at.Compare(b.at) })
	t := td.table(false)
	var parts []string
	for _, gr := range groups {
		parts = append(parts, locales.T(td.Lang, "table_clock", map[string]any{"Names": t.NameList(gr.seats), "Unix": gr.at.Unix()}))
	}
	return strings.Join(parts, " · ")
}

// withLine is content with line added on a line of its own ("" adds
// nothing).
func withLine(content, line string) string {
	switch {
	case line == "":
		return content
	case content == "":
		return line
	}
	return content + "\n" + line
}

// tableComponents are a board's components: the game's buttons while it
// runs, the Rematch button on its final scoreboard.
func tableComponents(g *present.Game, st engine.State, td *tableData, pb present.Board) []discordgo.MessageComponent {
	comps := boardComponents(g.Rules.Name(), buttonsVersion(g, st, td), pb)
	if st.Over() {
		comps = append(comps, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			Button(td.Lang, "btn_rematch", nil, discordgo.SuccessButton, contractID(g.Rules.Name(), cverbAgain, 0, "")),
		}})
	} else if row := kickRow(g, td); row != nil && len(comps) < 5 {
		comps = append(comps, row)
	}
	return comps
}

// creatorName is the name of the table's creator: their seat's (a
// rematch's creator may sit anywhere), else the first seat's.
func (td *tableData) creatorName() string {
	for _, s := range td.Seats {
		if s.User == td.Creator && s.User != "" {
			return s.Name
		}
	}
	if len(td.Seats) > 0 {
		return td.Seats[0].Name
	}
	return "?"
}

// manages reports whether the clicker may pause, resume or end the table
// created by creator: its creator, or a member who may manage the
// channel.
func (c *Call) manages(creator string) bool {
	if c.User != "" && c.User == creator {
		return true
	}
	return c.I.Member != nil && c.I.Member.Permissions&(discordgo.PermissionManageChannels|discordgo.PermissionAdministrator) != 0
}
