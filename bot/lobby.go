package bot

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
)

// The lobby of a game is owed work like its board. /<game> start
// writes the record with an effect effLobby owed (Via: the start), due
// at the end of the grace: the start's answer is the lobby, and once it
// went out the start's own batch counts the effect done. If the answer
// never went out (the process died between the write and the answer, or
// Discord did not take it), or went out as something else (a deferral's
// "thinking…", or an error after a write that looked failed but landed),
// whoever finds the record due asks Discord for the start's answer
// through its token, makes it the lobby, or posts the lobby with the bot
// token: a channel never holds a table nobody can see. A start that finds
// its own table written already (a try that looked failed, a delivery
// sent again), or finds the lobby still owed, answers with the lobby
// itself. A click on the lobby shows it is posted: the effect goes.

// effLobby: the lobby is shown on the answer of Via, else posted.
const effLobby = "clobby"

// effLobbyEdit: the lobby message is edited to show the lobby as it
// stands, unless the answer of the change that owed it did. Each change of
// a lobby owes it (oweLobbyEdit), so that a change whose answer Discord
// refused or never got (a deferred answer's edit refused, the process dead
// before it), or whose answer is private (/<game> leave), still shows on
// the lobby.
const effLobbyEdit = "clobbyedit"

// oweLobbyEdit owes the lobby message's edit after a change of the lobby;
// it replaces any edit owed before, which it shows.
func (td *tableData) oweLobbyEdit(r *dixbot.Record, now time.Time) {
	td.Outbox = slices.DeleteFunc(td.Outbox, func(e effect) bool { return e.Kind == effLobbyEdit })
	td.owe(r, now, effect{Kind: effLobbyEdit})
}

// noteLobby records id, a public message clicked as the lobby, as the
// lobby's message (tableData.BoardVia): the start's answer, whose token
// still edits it, when no message was known; another message (a lobby
// posted again) without a token, which the click's own is once the click
// is answered (recordDone): no token is recorded before its interaction is
// answered, whose "@original" might otherwise be another delivery's
// private answer.
func (td *tableData) noteLobby(id string) {
	switch v := td.BoardVia; {
	case v == nil || v.Orig != "" && v.Orig != id:
		td.BoardVia = &Via{Orig: id}
	case v.Orig == "":
		w := *v
		w.Orig = id
		td.BoardVia = &w
	}
}

// editLobby does the effect e: the lobby message, edited to show the
// lobby as it stands, through the interaction recorded as the lobby's
// (tableData.BoardVia) while its token is valid, else with the bot token.
// The lobby's fence keeps an older lobby of this process from landing
// over a newer one; the write that records the effect done owes the edit
// again if the lobby changed since (lobbyAgain).
func (x *cexec) editLobby(ctx context.Context, e effect) error {
	if x.rec.Data != nil {
		return nil // started: the board shows the table
	}
	v := x.td.BoardVia
	msg := ""
	if v != nil {
		msg = v.Orig
	}
	if ix := x.ix; ix != nil && ix.Orig != "" && ix.Orig == msg && e.ID <= x.upTo {
		return nil // the answer of the change that owed it showed it
	}
	content, comps := lobbyView(x.g, x.td)
	edit := func() error {
		if v.usable(x.now) && v.Token != x.lost {
			err := x.d.FollowupEdit(ctx, v.Interaction(), "@original", &discordgo.WebhookEdit{Content: &content, Components: &comps, AllowedMentions: noMentions()})
			if err == nil || ctx.Err() != nil || msg == "" {
				return err
			}
			x.b.log.Info("lobby edit through the interaction refused; editing with the bot token", "channel", x.rec.Channel, "err", err)
		}
		if msg == "" {
			return nil // the start's answer, whose id is not known, out of reach
		}
		return x.d.Edit(ctx, &discordgo.MessageEdit{Channel: x.rec.Channel, ID: msg, Content: &content, Components: &comps, AllowedMentions: noMentions()})
	}
	sent, err := x.b.boardFences.Send(msg, shows{Seq: uint64(x.td.Lobby)}, x.b.now(), edit)
	if sent && err == nil {
		x.lobbyShown = x.td.Lobby + 1
	}
	return err
}

// lobbyAgain owes the lobby's edit again, in cur, the table as stored,
// when this run edited the lobby and the lobby changed since: another
// process's answer of that change may have landed before the edit.
func (x *cexec) lobbyAgain(r *dixbot.Record, cur *tableData) {
	if x.lobbyShown == 0 || r.Data != nil || cur.Lobby+1 == x.lobbyShown || cur.opening() != x.td.opening() {
		return
	}
	cur.oweLobbyEdit(r, x.b.now())
}

// oweLobby owes the lobby, to be shown by the answer of v.
func (td *tableData) oweLobby(r *dixbot.Record, now time.Time, v *Via) {
	td.Outbox = slices.DeleteFunc(td.Outbox, isLobbyOwed)
	td.owe(r, now, effect{Kind: effLobby, Via: v})
}

func isLobbyOwed(e effect) bool { return e.Kind == effLobby }

// lobbyPosted drops the lobby owed: a click on it shows it is posted.
func (td *tableData) lobbyPosted(r *dixbot.Record) {
	if !slices.ContainsFunc(td.Outbox, isLobbyOwed) {
		return
	}
	td.Outbox = slices.DeleteFunc(td.Outbox, isLobbyOwed)
	if r.Data == nil && len(td.Outbox) == 0 {
		r.Due = time.Time{}
	}
}

// startVia is the interaction of a command, whose answer is a new
// message: its "@original" (nil: no token).
func (c *Call) startVia() *Via {
	if c.I.Token == "" || c.I.AppID == "" {
		return nil
	}
	return &Via{App: c.I.AppID, Token: c.I.Token, At: c.At.UnixMilli()}
}

// startAgain answers a start of game g refused because the channel holds
// a table: when that table is g's lobby and its lobby is still owed (this
// very start was written by a try that looked failed, or the answer of
// the start that wrote it was lost), the answer is the lobby, and the
// effect is this answer's. It reports whether it answered.
func (c *Call) startAgain(g *present.Game) bool {
	v := c.startVia()
	if v == nil {
		return false
	}
	rec, td, err := c.changeTable(g, func(r *dixbot.Record, td *tableData) error {
		i := slices.IndexFunc(td.Outbox, isLobbyOwed)
		if r.Data != nil || i < 0 || td.Outbox[i].Claimed {
			return ErrNothingToDo // started, shown, or being shown by a run (claimLobby)
		}
		// A new effect, not the old one changed: a run that read the old
		// one counts only that one done.
		td.oweLobby(r, c.B.now(), v)
		td.BoardVia = v
		return nil
	})
	if err != nil {
		return false
	}
	c.postLobby(g, rec, td)
	return true
}

// postLobby answers with the lobby of the table td of rec, a new message
// of the channel, the outbox's effects then done.
func (c *Call) postLobby(g *present.Game, rec *dixbot.Record, td *tableData) {
	content, comps := lobbyView(g, td)
	c.Respond(&discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: content, Components: comps, AllowedMentions: noMentions()},
	})
	c.settleAnswer(rec)
}

// showLobby does the effect e: the lobby is shown on the answer of e.Via,
// unless the change being answered is that answer. The answer is read
// through the interaction's token: a lobby already, it stays; a public
// message of another content (a deferral's "thinking…"), it becomes the
// lobby; none, or a private one (an error), the lobby is posted with the
// bot token. The message found or posted is recorded as the lobby's
// (x.lobby).
func (x *cexec) showLobby(ctx context.Context, e effect) error {
	if x.rec.Data != nil {
		return nil // started: its lobby was clicked
	}
	if v := x.ix; v != nil && e.Via != nil && v.Token == e.Via.Token && e.ID <= x.upTo {
		return nil // this answer is the lobby
	}
	switch owed, err := x.claimLobby(ctx, e); {
	case err != nil:
		return err
	case !owed:
		return nil // a start asked again answers with it, or it was clicked
	}
	content, comps := lobbyView(x.g, x.td)
	if v := e.Via; v.usable(x.now) {
		msg, err := x.d.Original(ctx, v.Interaction())
		switch {
		case err == nil && msg.Flags&discordgo.MessageFlagsEphemeral == 0:
			w := *v
			w.Orig = msg.ID
			if slices.Contains(customIDs(msg.Components), buttonID(x.g.Rules.Name(), verbJoin, 0, "")) {
				x.lobby = &w
				return nil
			}
			err = x.d.FollowupEdit(ctx, v.Interaction(), "@original", &discordgo.WebhookEdit{Content: &content, Components: &comps, AllowedMentions: noMentions()})
			if err == nil {
				x.lobby = &w
				return nil
			}
			if !permanent(err) {
				return err
			}
		case err != nil && !NotFound(err):
			return err
		}
	}
	if err := x.b.Keep(ctx, x.hold); err != nil {
		return err
	}
	msg, err := x.d.Send(ctx, x.rec.Channel, &discordgo.MessageSend{Content: content, Components: comps, AllowedMentions: noMentions()}, x.lobbyNonce(e))
	if err != nil {
		return err
	}
	x.b.log.Info("lobby posted: the start's answer was lost", "channel", x.rec.Channel, "message", msg.ID)
	x.lobby = &Via{Orig: msg.ID}
	return nil
}

// claimLobby marks the lobby effect e as being shown by this run before
// it reads or posts any message, so that a start asked again (startAgain)
// and this run never both show a lobby: whichever writes first has it. It
// reports whether e is still owed (false: a start took it over, or the
// table started).
func (x *cexec) claimLobby(ctx context.Context, e effect) (bool, error) {
	if e.Claimed {
		return true, nil
	}
	sctx, cancel := context.WithTimeout(ctx, x.b.timeout)
	defer cancel()
	_, err := x.b.update(sctx, x.rec.Channel, "", x.b.onTable(x.rec.Game, func(r *dixbot.Record, _ *present.Game, td *tableData) error {
		i := slices.IndexFunc(td.Outbox, func(o effect) bool { return o.Kind == effLobby && o.ID == e.ID })
		if r.Data != nil || i < 0 || td.opening() != x.td.opening() {
			return ErrNothingToDo
		}
		td.Outbox[i].Claimed = true
		return nil
	}))
	switch {
	case errors.Is(err, ErrNothingToDo), errors.Is(err, dixbot.ErrNotFound):
		return false, nil
	case err != nil:
		return false, err
	}
	return true, nil
}

// lobbyNonce is the idempotency key of the lobby e posts: of its table,
// for no other table's lobby to be taken for it.
func (x *cexec) lobbyNonce(e effect) string {
	return nonceOf("%s/lobby/%s/%d", x.rec.Channel, x.td.opening(), e.ID)
}

// recordLobby records in cur the lobby message this run found or posted,
// unless a click on a lobby message told one already.
func (x *cexec) recordLobby(cur *tableData, data []byte) {
	if x.lobby == nil || data != nil || cur.opening() != x.td.opening() {
		return
	}
	if v := cur.BoardVia; v == nil || v.Orig == "" {
		cur.BoardVia = x.lobby
	}
}

// adopt makes message, posted again (/<game> board) and editable through
// v, the table's board: the board before it is retired (owed), a ping
// waiting for a decision leads to the new one.
func (td *tableData) adopt(r *dixbot.Record, g *present.Game, message string, v *Via, now time.Time) {
	if td.Began == "" {
		td.Began = td.Board
	}
	old := effect{Kind: effRetire, Msg: td.Board}
	if ov := td.BoardVia; ov != nil && (ov.Orig == "" || ov.Orig == td.Board) {
		old.Via = ov
	}
	td.Board, td.BoardVia, td.Pic = message, v, nil
	if old.Msg != "" {
		td.owe(r, now, old)
	}
	td.repointPing(r, g, now)
}

// retryUpdate is the store's Update without an interaction, tried again
// while the store fails for a moment (Transient) until ctx ends, each try
// within the store's timeout: the bot's own work after an answer, which
// nobody would do again if it were dropped.
func (b *Bot) retryUpdate(ctx context.Context, channel string, fn func(*dixbot.Record) error) (*dixbot.Record, error) {
	var r *dixbot.Record
	err := b.retry(ctx, "update", func(sctx context.Context) (err error) {
		r, err = b.update(sctx, channel, "", fn)
		return err
	})
	return r, err
}
