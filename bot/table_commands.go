package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/locales"
)

// Table features of games beyond the lobby and the clicks: the
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
	for _, p := range g.Paces {
		opts = append(opts, discordgo.SelectMenuOption{
			Label: present.Truncate(paceLabel(td.Lang, name, p), present.MaxOptionLabel), Value: p.Name, Default: p.Name == chosen})
	}
	return discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
		CustomID: buttonID(name, verbPace, uint64(td.Lobby), ""), Options: opts,
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
			Button(td.Lang, "btn_rematch", nil, discordgo.SuccessButton, buttonID(g.Rules.Name(), verbAgain, 0, "")),
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
			return s.text()
		}
	}
	if len(td.Seats) > 0 {
		return td.Seats[0].text()
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

// gamePaceOption is the start command's option of g's paces, each named
// by its durations (nil: a game without paces).
func gamePaceOption(g *present.Game) *discordgo.ApplicationCommandOption {
	if len(g.Paces) == 0 {
		return nil
	}
	game := g.Rules.Name()
	o := Option(optPace, discordgo.ApplicationCommandOptionString)
	desc := func(lang string) string {
		return present.Truncate(locales.T(lang, "table_opt_pace_desc", map[string]any{"Default": paceLabel(lang, game, g.Paces[0])}), present.MaxChoiceName)
	}
	o.Description, o.DescriptionLocalizations = desc(locales.English), map[discordgo.Locale]string{discordgo.French: desc(locales.French)}
	for _, p := range g.Paces {
		o.Choices = append(o.Choices, &discordgo.ApplicationCommandOptionChoice{
			Name:              present.Truncate(paceLabel(locales.English, game, p), present.MaxChoiceName),
			NameLocalizations: map[discordgo.Locale]string{discordgo.French: present.Truncate(paceLabel(locales.French, game, p), present.MaxChoiceName)},
			Value:             p.Name,
		})
	}
	return o
}

// chosenPace is the pace a start uses: the command's when given (one of
// the game's, else refused), else the channel's saved one ("": the game's
// default).
func chosenPace(g *present.Game, given, saved string) (string, error) {
	if given == "" {
		return saved, nil
	}
	if !hasPace(g, given) {
		return "", Refuse(ErrBadInput, "table_err_option", map[string]any{"Option": En("opt_" + optPace + "_name")})
	}
	return given, nil
}

// mySeat is the caller's seat in the running game of g, with the table's
// data and the game: refused for a lobby or a person not seated.
func (c *Call) mySeat(g *present.Game) (*tableData, int, engine.State, error) {
	r, td, err := c.readTable(g)
	if err != nil {
		return nil, -1, nil, err
	}
	seat := td.seatOf(c.User)
	if seat < 0 {
		return nil, -1, nil, Refuse(ErrNotInGame, "table_err_not_seated", nil)
	}
	if r.Data == nil {
		return nil, -1, nil, Refuse(ErrNotStarted, "table_err_not_started", nil)
	}
	st, err := g.Rules.Decode(r.Data)
	if err != nil {
		return nil, -1, nil, err
	}
	return td, seat, st, nil
}

// hintCommand gives the caller the presenter's advice: /<game> hint.
func (c *Call) hintCommand(g *present.Game) error {
	h, ok := g.Presenter.(present.Hinter)
	if !ok {
		return ErrBadInput
	}
	_, seat, st, err := c.mySeat(g)
	if err != nil {
		return err
	}
	c.EphemeralText(h.Hint(c.Lang, st, seat))
	return nil
}

// leaveCommand hands the caller's seat to the computer: /<game> leave.
// In a lobby the caller leaves it.
func (c *Call) leaveCommand(g *present.Game) error {
	lobby := false
	r, _, err := c.changeTable(g, func(r *dixbot.Record, td *tableData) error {
		s := td.seatOf(c.User)
		if s < 0 {
			return Refuse(ErrNotInGame, "table_err_not_seated", nil)
		}
		if r.Data == nil {
			if c.User == td.Creator {
				return ErrCreatorLeave
			}
			lobby = true
			td.Seats = slices.Delete(td.Seats, s, s+1)
			td.Lobby++
			td.oweLobbyEdit(r, c.B.now()) // the answer is private
			return nil
		}
		st, err := g.Rules.Decode(r.Data)
		if err != nil {
			return err
		}
		td.Seats[s].Level = g.Default
		td.unping(r, g, c.User)
		since := st.Seq() + 1
		evs, err := c.B.advance(g, st, td, c.B.now())
		if err != nil {
			return err
		}
		td.addLog([]string{locales.T(td.Lang, "table_left", map[string]any{"Name": td.Seats[s].text()})})
		td.tell(g, evs)
		setTableDue(r, td, g, st)
		td.oweChange(r, g, st, planPings(st, td, since, s, c.B.now()), c.B.now(), c.B.self)
		r.Data = st.Encode()
		return nil
	})
	if err != nil {
		return err
	}
	key := "table_left_you"
	if lobby {
		key = "table_left_lobby_you"
	}
	c.Ephemeral(locales.T(c.Lang, key, nil), nil)
	c.settleAnswer(r)
	return nil
}

// abandonCommand asks the game's creator, the last person still playing,
// or a member who may manage the channel, to confirm that the game ends
// (DISCORD-UX: /dix abandon, which every game's table follows); anyone
// else is refused.
func (c *Call) abandonCommand(g *present.Game) error {
	r, td, err := c.readTable(g)
	if err != nil {
		return err
	}
	if !c.manages(td.Creator) && !td.lastPlaying(c.User) {
		return ErrNoPermission
	}
	name := g.Rules.Name()
	c.Ephemeral(locales.T(c.Lang, "abandon_confirm", nil), []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		Button(c.Lang, "btn_abandon_yes", nil, discordgo.DangerButton, buttonID(name, verbEnd, r.Version, abandonArg(td))),
		Button(c.Lang, "btn_abandon_no", nil, discordgo.SecondaryButton, buttonID(name, verbKeep, 0, "")),
	}}})
	return nil
}

// abandonArg names the table a confirmation of /<game> abandon was asked
// at: its opening and its board ("-" before the board is known).
func abandonArg(td *tableData) string {
	if t := tableName(td); t != "" {
		return t
	}
	return "-"
}

// endConfirmed ends the game once /<game> abandon is confirmed: the channel
// is told who ended it; the board says so instead of its clock, and it (or
// the lobby) loses its buttons; a ping waiting for a decision says it too. A confirmation of
// an earlier table, or by someone who may not end the game, changes
// nothing; one whose game is over already (ended by another confirmation,
// say) is told so.
func (c *Call) endConfirmed(g *present.Game, p parsedID) error {
	r, td, err := c.readTable(g)
	if errors.Is(err, dixbot.ErrNotFound) || errors.Is(err, ErrOtherGame) {
		// Confirmed by someone else first (or the game ended meanwhile):
		// the confirmation says so, and loses its buttons.
		c.updateOrReply(locales.T(c.Lang, "table_abandon_over", map[string]any{"Game": En(g.Rules.Name() + "_title")}), nil)
		return nil
	}
	if err != nil {
		return err
	}
	switch {
	case p.n == 0 || p.Arg != abandonArg(td):
		return ErrStale
	case p.n > r.Version:
		return fmt.Errorf("%w: version %d is newer than the record's %d", ErrBadCustomID, p.n, r.Version)
	}
	if !c.manages(td.Creator) && !td.lastPlaying(c.User) {
		return ErrNoPermission
	}
	if err := c.Retry("finish", func(ctx context.Context) error { return c.B.finishTable(ctx, c.I.ChannelID, r.Game, td) }); err != nil {
		return err
	}
	c.updateOrReply(locales.T(c.Lang, "abandon_done", nil), nil)
	notice := locales.T(td.Lang, "table_abandoned", map[string]any{"Name": c.Name, "Game": En(g.Rules.Name() + "_title")})
	// The board says it ended where it said who must decide, without its
	// clock; its picture stays. A ping waiting for a decision says there
	// is none any more, in fewer words.
	var ended *string
	if r.Data != nil {
		if st, err := g.Rules.Decode(r.Data); err == nil {
			t := td.table(!c.B.noPictures)
			t.Kept, t.Abandoned = td.picKey(), notice
			text := g.Presenter.Board(t, st).Content
			ended = &text
		}
	}
	settled := locales.T(td.Lang, "table_ping_abandoned", nil)
	board, v, ping := td.Board, td.BoardVia, td.Ping
	c.Then(func(ctx context.Context) {
		d := c.B.apiFor(ctx)
		if _, err := d.Followup(ctx, c.I, &discordgo.WebhookParams{Content: notice, AllowedMentions: noMentions()}); err != nil {
			c.B.log.Warn("could not tell the channel the game was abandoned", "channel", c.I.ChannelID, "err", err)
		}
		if ping != nil && ping.ID != "" {
			// The ping's decision will not be made: it says so.
			text := settled
			var err error
			if ping.Via.usable(time.Now()) {
				err = d.FollowupEdit(ctx, ping.Via.Interaction(), ping.ID, &discordgo.WebhookEdit{Content: &text, AllowedMentions: noMentions()})
			}
			if !ping.Via.usable(time.Now()) || err != nil {
				err = d.Edit(ctx, &discordgo.MessageEdit{Channel: c.I.ChannelID, ID: ping.ID, Content: &text, AllowedMentions: noMentions()})
			}
			if err != nil {
				c.B.log.Warn("could not settle the ping of an abandoned game", "channel", c.I.ChannelID, "err", err)
			}
		}
		if board == "" {
			return
		}
		c.B.boardFences.Send(board, shows{Retire: true}, c.B.now(), func() error {
			none := &[]discordgo.MessageComponent{}
			if v.usable(time.Now()) && (v.Orig == "" || v.Orig == board) {
				// The board's newest interaction edits it (outbox_run.go).
				if err := d.FollowupEdit(ctx, v.Interaction(), "@original", &discordgo.WebhookEdit{Content: ended, Components: none, AllowedMentions: noMentions()}); err == nil {
					return nil
				}
			}
			return d.Edit(ctx, &discordgo.MessageEdit{Channel: c.I.ChannelID, ID: board, Content: ended, Components: none,
				AllowedMentions: noMentions()})
		})
	})
	return nil
}
