package bot

import (
	"bytes"
	"context"
	"errors"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/locales"
)

// readTable loads the channel's active record of game g.
func (c *Call) readTable(g *present.Game) (*dixbot.Record, *tableData, error) {
	var r *dixbot.Record
	err := c.Retry("get", func(ctx context.Context) (err error) {
		r, err = c.B.get(ctx, c.I.ChannelID)
		return err
	})
	if errors.Is(err, dixbot.ErrNotFound) || err == nil && r.Finished {
		return nil, nil, Refuse(dixbot.ErrNotFound, "table_err_no_game", map[string]any{"Command": "/" + En(g.Rules.Name()+"_cmd_name")})
	}
	if err != nil {
		return nil, nil, err
	}
	if r.Game != g.Rules.Name() {
		return nil, nil, otherGame(r.Game)
	}
	c.notice.seen = r
	td, err := decodeTableData(r.Meta)
	if err != nil {
		return nil, nil, err
	}
	return r, td, nil
}

// gameTitle is the name of a game as players know it.
func gameTitle(game string) string { return En(game + "_title") }

// changeTable runs fn on the game's record and table data inside one
// exactly-once store update (see change).
func (c *Call) changeTable(g *present.Game, fn func(r *dixbot.Record, td *tableData) error) (*dixbot.Record, *tableData, error) {
	var td *tableData
	var wrote []byte        // the table data as fn's last run left it
	var read *dixbot.Record // the record as a change fn refused found it
	r, err := c.Change(func(r *dixbot.Record) error {
		if r.Game != g.Rules.Name() {
			return otherGame(r.Game)
		}
		var err error
		if td, err = c.B.decodeTable(r); err != nil {
			return err
		}
		seen := *r
		c.noteBoardPicture(td)
		if err := fn(r, td); err != nil {
			read = &seen
			return err
		}
		c.answerPicture(td)
		c.B.encodeTable(r, td)
		wrote = r.Meta
		return nil
	})
	switch {
	case err == nil && td == nil:
		// The store had recorded the interaction, and fn never ran: an
		// earlier delivery applied it. It is answered as a delivery
		// again (answerApplied).
		return nil, nil, dixbot.ErrDuplicate
	case err == nil && !bytes.Equal(wrote, r.Meta):
		// A try whose reply was lost had landed, and others wrote since:
		// r is the record as it stands, which the answer shows.
		if td, err = c.B.decodeTable(r); err != nil {
			return nil, nil, err
		}
	}
	if err == nil {
		c.wrote = written{meta: r.Meta, td: td}
		c.keepLog(r, td)
	} else if read != nil && c.notice.seen == nil {
		c.notice.seen = read // a refused change still sees a board missing (missing.go)
	}
	return r, td, err
}

// openLobby opens a lobby: /<game> start.
// pace is the table's pace ("": the game's default), options the values
// of the game's own options.
func (c *Call) openLobby(g *present.Game, lang string, noPics bool, pace string, options map[string]string) error {
	if err := c.missingPermission(); err != nil {
		return err
	}
	if lang == "" {
		lang = c.gameLanguage("", false)
	}
	if !locales.Supported(lang) {
		return ErrBadInput
	}
	td := &tableData{V: tableDataVersion, Creator: c.User, Lang: lang, NoPics: noPics || c.B.noPictures,
		Seats: []tableSeat{{User: c.User, Name: c.Name}}, Pace: pace, Opts: options, Opened: c.I.ID}
	rec := &dixbot.Record{Channel: c.I.ChannelID, Guild: c.I.GuildID, Game: g.Rules.Name()}
	if v := c.startVia(); v != nil {
		// The answer is the lobby, later the board: this token edits it.
		// The lobby is owed until the answer went out (lobby.go).
		td.BoardVia = v
		td.oweLobby(rec, c.B.now(), v)
	}
	rec.Meta = td.Encode()
	err := c.Retry("create", func(ctx context.Context) error { return c.B.store.Create(ctx, rec) })
	if errors.Is(err, dixbot.ErrExists) && c.finishOver() {
		err = c.Retry("create", func(ctx context.Context) error { return c.B.store.Create(ctx, rec) })
	}
	// The lobby there may be this start's own, written by a try whose
	// reply was lost (after the game over was archived, too).
	if errors.Is(err, dixbot.ErrExists) && c.startAgain(g) {
		return nil
	}
	if errors.Is(err, dixbot.ErrExists) {
		return c.busyChannel()
	}
	if err != nil {
		return err
	}
	c.postLobby(g, rec, td)
	return nil
}

// finishOver archives the channel's record when its game, of any game, is
// over (its archiving was interrupted), its result recorded first, so a
// new game may open.
func (c *Call) finishOver() bool {
	r, err := c.getQuietAny()
	if err != nil {
		return false
	}
	rules, ok := c.B.games[r.Game]
	if !ok || r.Data == nil {
		return false
	}
	st, err := rules.Rules.Decode(r.Data)
	if err != nil || !st.Over() {
		return false
	}
	if err := c.B.recordOver(c.ctx, r); err != nil {
		c.B.log.Warn("could not record a finished game's result; it stays active", "channel", c.I.ChannelID, "err", err)
		return false
	}
	return c.Retry("finish", func(ctx context.Context) error { return c.B.store.Finish(ctx, c.I.ChannelID) }) == nil
}

// getQuietAny is the channel's active record, whatever its game.
func (c *Call) getQuietAny() (*dixbot.Record, error) {
	ctx, cancel := c.storeCtx()
	defer cancel()
	r, err := c.B.get(ctx, c.I.ChannelID)
	if err == nil && r.Finished {
		return nil, dixbot.ErrNotFound
	}
	return r, err
}

// busyChannel is the answer to a start in a channel with a game: which
// game runs there.
func (c *Call) busyChannel() error {
	r, err := c.getQuietAny()
	if err != nil {
		return Refuse(dixbot.ErrExists, "err_game_exists", nil)
	}
	return otherGame(r.Game)
}

// lobbyView is the lobby message of a game.
func lobbyView(g *present.Game, td *tableData) (string, []discordgo.MessageComponent) {
	name := g.Rules.Name()
	var seats []string
	for _, s := range td.Seats {
		key := "table_lobby_seat"
		if s.Level != "" {
			key = "table_lobby_seat_cpu"
		}
		seats = append(seats, locales.T(td.Lang, key, map[string]any{"Name": s.text(), "Level": locales.T(td.Lang, "table_level_"+s.Level, nil)}))
	}
	content := locales.T(td.Lang, "table_lobby", map[string]any{
		"Game": En(name + "_title"), "Creator": td.creatorName(), "Seats": strings.Join(seats, "\n"),
		"Min": g.MinSeats, "Max": g.MaxSeats,
	}) + "\n" + tableOptions(g, td)
	if line := optionsLine(g, td); line != "" {
		content += "\n" + line
	}
	btn := func(label string, style discordgo.ButtonStyle, verb, arg string) discordgo.MessageComponent {
		n := uint64(td.Lobby)
		if steadyLobbyVerb(verb) {
			n = 0
		}
		return discordgo.Button{Label: label, Style: style, CustomID: buttonID(name, verb, n, arg)}
	}
	row1 := []discordgo.MessageComponent{
		btn(locales.T(td.Lang, "btn_join", nil), discordgo.PrimaryButton, verbJoin, ""),
		btn(locales.T(td.Lang, "btn_leave", nil), discordgo.SecondaryButton, verbLeave, ""),
		btn(locales.T(td.Lang, "btn_start", nil), discordgo.SuccessButton, verbGo, ""),
		btn(locales.T(td.Lang, "btn_cancel", nil), discordgo.DangerButton, verbCancel, ""),
	}
	var row2 []discordgo.MessageComponent
	for _, l := range g.Levels {
		row2 = append(row2, btn(locales.T(td.Lang, "table_btn_add_cpu", map[string]any{"Level": locales.T(td.Lang, "table_level_"+l, nil)}),
			discordgo.SecondaryButton, verbCPU, l))
		if len(row2) == 4 {
			break
		}
	}
	row2 = append(row2, btn(locales.T(td.Lang, "table_btn_remove_cpu", nil), discordgo.SecondaryButton, verbRmCPU, ""))
	comps := []discordgo.MessageComponent{
		discordgo.ActionsRow{Components: row1},
		discordgo.ActionsRow{Components: row2},
	}
	if row := paceMenu(g, td); row != nil {
		comps = append(comps, row)
	}
	if row := optionsMenu(g, td); row != nil {
		comps = append(comps, row)
	}
	return content, comps
}
