package bot

import (
	"context"
	"errors"
	"fmt"

	"github.com/bwmarrin/discordgo"
	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/locales"
)

// drawBoard renders the record's board: the lobby before the game,
// the running board with the buttons of the decisions open, or the final
// scoreboard.
//
// kept is the picture the message shows already ("": none known): a board
// showing that same picture is not drawn, and carries no files
// (present.Table.Kept).
func (b *Bot) drawBoard(g *present.Game, r *dixbot.Record, td *tableData, kept string) (present.Board, engine.State, error) {
	st, err := g.Rules.Decode(r.Data)
	if err != nil {
		return present.Board{}, nil, err
	}
	return b.boardAt(g, r.Channel, td, st, kept), st, nil
}

// boardAt is drawBoard of the game st of a table of channel.
func (b *Bot) boardAt(g *present.Game, channel string, td *tableData, st engine.State, kept string) present.Board {
	t := td.boardTable(g, st, !b.noPictures && b.mayAttach(channel))
	t.Kept = kept
	pb := g.Presenter.Board(t, st)
	if err := pb.Check(); err != nil {
		// The presenter's fault: Discord refuses the board as it is, and the
		// table cuts nothing of it.
		b.log.Error("a board beyond Discord's limits", "game", g.Rules.Name(), "err", err)
	}
	pb.Content = withLine(pb.Content, tableClockLine(g, st, td))
	return pb
}

// buttonsVersion is the version a board's decision buttons carry: for a
// game with SteadyButtons, the latest at which a decision still open
// opened (td.Open), so that the buttons keep their custom ids while seats
// decide at once; otherwise, and when no decision is open, the version of
// st.
func buttonsVersion(g *present.Game, st engine.State, td *tableData) uint64 {
	if !g.SteadyButtons {
		return st.Seq()
	}
	n, open := uint64(0), false
	for _, s := range st.ToDecide() {
		if s < len(td.Open) {
			n, open = max(n, td.Open[s]), true
		}
	}
	if !open || n > st.Seq() {
		return st.Seq()
	}
	return n
}

// boardComponents are the buttons of a board at state version seq; never
// nil, so that an edit to a board without buttons sends an empty list,
// which removes the buttons: Discord keeps them on a "components": null
// (https://github.com/discord/discord-api-docs/issues/5860).
func boardComponents(game string, seq uint64, pb present.Board) []discordgo.MessageComponent {
	rows := []discordgo.MessageComponent{}
	for _, row := range pb.Rows {
		var cs []discordgo.MessageComponent
		for _, bt := range row {
			btn := discordgo.Button{Label: bt.Label, Style: bt.Style, CustomID: buttonID(game, verbMove, seq, string(bt.Move))}
			switch {
			case bt.Prompt:
				btn.CustomID = buttonID(game, verbPrompt, seq, "")
			case bt.Next != "":
				btn.CustomID = buttonID(game, verbStep, seq, bt.Next)
			case bt.Modal != nil:
				btn.CustomID = buttonID(game, verbModal, seq, bt.Modal.Verb)
			}
			if btn.Style == 0 {
				btn.Style = discordgo.SecondaryButton
			}
			if bt.Emoji != "" {
				btn.Emoji = &discordgo.ComponentEmoji{Name: bt.Emoji}
			}
			cs = append(cs, btn)
		}
		if len(cs) > 0 {
			rows = append(rows, discordgo.ActionsRow{Components: cs})
		}
	}
	return rows
}

// showBoard answers the click by drawing the board in place; for a
// game over the board is its scoreboard (the game is archived by its last
// effect).
//
// The answer uploads the board's pictures, but where the message is known
// to have these very pictures: it then lists them by their ids
// (noteBoardPicture, keptAnswerPictures).
func (c *Call) showBoard(g *present.Game, r *dixbot.Record, td *tableData) error {
	pb, st, err := c.B.drawBoard(g, r, td, "")
	if err != nil {
		return err
	}
	c.keepPicture(td, pb.Picture)
	c.answerPic = pb.Picture
	c.Shows = &shows{Seq: boardSeq(td, st)}
	c.Update(pb.Content, pb.Embeds, tableComponents(g, st, td, pb), pb.Files...)
	return nil
}

// boardSeq is what a game's board message shows, for its fence:
// the lobby's counter while it is a lobby (td.Lobby), then that counter
// plus the game's version. Every change the board shows counts on the
// counter (oweChange), the table data's alone too, so a render is never
// older than one made after it.
func boardSeq(td *tableData, st engine.State) uint64 {
	return uint64(td.Lobby) + st.Seq()
}

// answerStale answers an outdated click: a click on the current board
// redraws it as it stands, and the clicker is told privately.
func (c *Call) answerStale(g *present.Game, lobbyClick bool) error {
	text := locales.T(c.Lang, "err_stale", nil)
	r, td, err := c.readTable(g)
	if seat := -1; err == nil {
		if seat = td.seatOf(c.User); seat >= 0 && td.Seats[seat].Away {
			// Any click of an absent person brings them back, an
			// outdated one too.
			if err := c.backAtTable(g); err != nil {
				return err
			}
		}
	}
	if err == nil && c.I.Message != nil && c.I.Message.Flags&discordgo.MessageFlagsEphemeral == 0 {
		switch {
		case r.Data == nil && lobbyClick && c.onLobby(td):
			// The lobby, shown as it stands (not another message of
			// the channel that a forged id was clicked on).
			content, comps := lobbyView(g, td)
			c.Shows = &shows{Seq: uint64(td.Lobby)}
			c.Update(content, nil, comps)
		case c.I.Message.ID == td.Board && c.boardUpToDate(g, r, td):
			// Shown as it stands, or about to be: the answer is the
			// notice alone, which costs no request (a burst of clicks
			// redrawing the board would spend the channel's webhook
			// messages on notices).
		case c.I.Message.ID == td.Board:
			if err := c.showBoard(g, r, td); err != nil {
				return err
			}
		case r.Data != nil && td.Board != "" && (lobbyClick || olderThanBoard(c.I.Message, td.Board)) && clickedOnMessage(c.I):
			// A board (or lobby) that should have been retired: it is,
			// by this answer, and the clicker is led to the board. (A
			// message that does not carry the id clicked has no button
			// of the table's to retire.)
			c.Shows = &shows{Retire: true}
			c.Update(c.I.Message.Content, c.I.Message.Embeds, nil)
			text += "\n" + locales.T(c.Lang, "stale_link", map[string]any{"URL": messageURL(c.I.GuildID, c.I.ChannelID, td.Board)})
		}
	}
	c.sayOver(text)
	return nil
}

// answerRestored answers a click on a message showing a later state of
// the game than the store has (its data restored from an older copy):
// the message says so and loses its buttons in the answer itself, and a
// fresh board showing the game as the store has it is posted after it (a
// follow-up of the click) and becomes the table's board, so that the game
// goes on from there.
func (c *Call) answerRestored(g *present.Game) error {
	if !clickedOnMessage(c.I) {
		// A custom id is the client's to send: one of a version ahead that
		// the message does not carry is forged, not a board of a later
		// game.
		return fmt.Errorf("%w: a version ahead of the game that the message does not carry", ErrBadCustomID)
	}
	r, td, err := c.readTable(g)
	if err != nil {
		return err
	}
	if r.Data == nil || c.I.Message == nil || c.I.Message.Flags&discordgo.MessageFlagsEphemeral != 0 {
		return c.answerStale(g, false)
	}
	if c.I.Message.ID != td.Board && !olderThanBoard(c.I.Message, td.Board) {
		// Not a board of the game's as the store has it: a version ahead
		// of the game on it is forged.
		return fmt.Errorf("%w: a version ahead of the game on a message that is not its board", ErrBadCustomID)
	}
	pb, st, err := c.B.drawBoard(g, r, td, "")
	if err != nil {
		return err
	}
	c.B.log.Info("buttons of a game the store has at an older state retired", "interaction", c.I.ID, "channel", c.I.ChannelID,
		"message", c.I.Message.ID)
	c.Shows = &shows{Retire: true}
	c.Update(locales.T(c.Lang, "err_game_restored", nil), c.I.Message.Embeds, nil)
	board := &discordgo.WebhookParams{Content: pb.Content, Embeds: pb.Embeds, Files: pb.Files,
		Components: tableComponents(g, st, td, pb), AllowedMentions: noMentions()}
	c.adoptPosted(g, tableName(td), r.Version, func(ctx context.Context) (*discordgo.Message, string, error) {
		msg, err := c.D.Followup(ctx, c.I, board)
		if err != nil || msg == nil {
			return nil, "", err
		}
		return msg, msg.ID, nil
	})
	return nil
}

// boardUpToDate reports whether the board of r needs no redraw for an
// outdated click on it: the click is not from a game ahead of the stored
// one (a store restored from a backup), and an edit of the board is owed
// (whoever makes it shows the game as it stands then) or this process
// made it show the game as it stands.
func (c *Call) boardUpToDate(g *present.Game, r *dixbot.Record, td *tableData) bool {
	if r.Data == nil || c.I.Type != discordgo.InteractionMessageComponent {
		return false
	}
	st, err := g.Rules.Decode(r.Data)
	if err != nil {
		return false
	}
	if p, err := parseID(c.I.MessageComponentData().CustomID, gameVerbs); err != nil || p.n > st.Seq() {
		return false
	}
	if owesEdit(td.Outbox) {
		return true
	}
	seq, ok := c.B.boardFences.Shown(td.Board)
	return ok && seq == boardSeq(td, st)
}

// boardCommand posts the board (or the lobby) again: /<game> board.
func (c *Call) boardCommand(g *present.Game) error {
	r, td, err := c.readTable(g)
	if err != nil {
		return err
	}
	if r.Data == nil {
		content, comps := lobbyView(g, td)
		c.Respond(&discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: content, Components: comps, AllowedMentions: noMentions()},
		})
		if o := td.opening(); o != "" {
			c.adoptBoard(g, "lobby "+o, r.Version)
		}
		return nil
	}
	pb, st, err := c.B.drawBoard(g, r, td, "")
	if err != nil {
		return err
	}
	c.Respond(&discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: pb.Content, Embeds: pb.Embeds, Files: pb.Files,
			Components: tableComponents(g, st, td, pb), AllowedMentions: noMentions()},
	})
	if tableName(td) != "" {
		c.adoptBoard(g, tableName(td), r.Version)
	}
	return nil
}

// adoptBoard makes the answer of /<game> board, which showed the game
// of table at version shown, the table's board once it is posted: clicks
// and edits go to it, the previous board loses its buttons (and its
// clicks are outdated), a ping waiting for a decision leads to it, and a
// game that moved on meanwhile is shown on it. A board posted again by an
// earlier command loses its buttons to a later one; the message loses
// them too when its table ended (or its lobby started) meanwhile. In a
// lobby (table "lobby <opening>") the new message is the lobby's.
func (c *Call) adoptBoard(g *present.Game, table string, shown uint64) {
	c.adoptPosted(g, table, shown, func(ctx context.Context) (*discordgo.Message, string, error) {
		msg, err := c.original(ctx, c.I)
		return msg, "@original", err
	})
}

// adoptPosted is adoptBoard for the message post posts after the answer
// through the interaction's token (with the id its edits go to).
func (c *Call) adoptPosted(g *present.Game, table string, shown uint64, post func(context.Context) (*discordgo.Message, string, error)) {
	channel, i, at := c.I.ChannelID, c.I, c.At
	done := c.B.batches.Start(channel)
	c.Then(func(ctx context.Context) {
		defer done()
		msg, target, err := post(ctx)
		if err != nil || msg == nil {
			c.B.log.Warn("could not read the board posted again", "channel", channel, "err", err)
			return
		}
		if msg.Flags&discordgo.MessageFlagsEphemeral != 0 {
			// Seen by its asker alone: never the table's board.
			c.B.log.Warn("the board posted again is private; not adopted", "channel", channel, "message", msg.ID)
			return
		}
		v := &Via{App: i.AppID, Token: i.Token, At: at.UnixMilli(), Orig: msg.ID}
		ended := true // the table is no longer the channel's
		// The adoption is tried again while the store fails for a moment:
		// a board posted again and not adopted would keep live buttons
		// beside the board (a click on it adopts it too: applyMove).
		rec, err := c.B.retryUpdate(ctx, channel, c.B.onTable(g.Rules.Name(), func(r *dixbot.Record, _ *present.Game, td *tableData) error {
			now := c.B.now()
			if lobby := "lobby " + td.opening(); r.Data == nil || table == lobby {
				ended = r.Data != nil || table != lobby
				if ended {
					return ErrNothingToDo
				}
				v0 := td.BoardVia
				switch {
				case v0 != nil && v0.Orig == msg.ID:
					return ErrNothingToDo
				case v0 != nil && laterID(v0.Orig, msg.ID):
					// A later /<game> board was adopted first.
					td.owe(r, now, effect{Kind: effRetire, Msg: msg.ID, Via: v})
				default:
					if v0 != nil {
						td.owe(r, now, effect{Kind: effRetire, Msg: v0.Orig, Via: v0})
					}
					td.BoardVia = v
				}
				return nil
			}
			ended = tableName(td) != table
			switch {
			case ended || msg.ID == td.Board:
				return ErrNothingToDo
			case !laterID(msg.ID, td.Board):
				// A later /<game> board was adopted first.
				td.owe(r, now, effect{Kind: effRetire, Msg: msg.ID, Via: v})
			default:
				td.adopt(r, g, msg.ID, v, now)
				if r.Version != shown && td.oweAgain(c.B.self) {
					td.outboxDue(r, now)
				}
			}
			return nil
		}))
		if ended && (err == nil || errors.Is(err, ErrNothingToDo) || errors.Is(err, dixbot.ErrNotFound)) {
			// Ended (or followed by another game) before its board was
			// posted again: that message keeps no buttons.
			none := []discordgo.MessageComponent{}
			if err := c.D.FollowupEdit(ctx, i, target, &discordgo.WebhookEdit{Components: &none, AllowedMentions: noMentions()}); err != nil {
				c.B.log.Info("could not take the buttons off a board of an ended game", "channel", channel, "err", err)
			}
			return
		}
		if errors.Is(err, ErrNothingToDo) {
			return
		}
		if err != nil {
			c.B.log.Warn("could not make the board posted again the board", "channel", channel, "err", err)
			return
		}
		c.B.wakeAt(rec.Due)
		if err := c.B.runEffects(ctx, c.B.apiFor(ctx), rec, nil, 0); err != nil {
			c.B.log.Warn("effects left for later", "channel", channel, "err", err)
		}
	})
}
