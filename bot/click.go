package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/locales"
)

// routeClick handles a click on a game's component.
func (b *Bot) routeClick(c *Call, g *present.Game, p parsedID) error {
	c.Game = g.Rules.Name()
	switch p.Verb {
	case verbAgain:
		return c.rematchClick(g)
	case verbLog:
		return c.showLog(g, p.n)
	case verbKick:
		return c.kickClick(g, p.Arg)
	case verbEnd:
		return c.endConfirmed(g, p)
	case verbKeep:
		c.updateOrReply(locales.T(c.Lang, "abandon_kept", nil), nil)
		return nil
	case verbMove:
		return c.applyMove(g, p)
	case verbPrompt:
		return c.showPrompt(g, p, "")
	case verbStep:
		return c.showPrompt(g, p, p.Arg)
	case verbModal:
		return c.openModal(g, p)
	case verbSubmit:
		return fmt.Errorf("%w: %s:%s is a form's", ErrBadCustomID, p.Prefix, p.Verb)
	case verbSelect:
		vals := c.Values()
		if len(vals) != 1 || len(vals[0]) > present.MaxOptionValue {
			return ErrBadInput
		}
		kind, arg, _ := strings.Cut(vals[0], ":")
		if arg == "" || len(arg) > engine.MaxMoveLen {
			return ErrBadInput
		}
		p.Arg = arg
		switch kind {
		case "mv":
			return c.applyMove(g, p)
		case "st":
			return c.showPrompt(g, p, arg)
		}
		return ErrBadInput
	case verbPace, verbOpt:
		vals := c.Values()
		if len(vals) != 1 || vals[0] == "" || len(vals[0]) > engine.MaxMoveLen {
			return ErrBadInput
		}
		p.Arg = vals[0]
	}
	return c.lobbyButton(g, p)
}

// submitModal handles the submission of a game's form: the
// move is the form's verb and its text.
func (b *Bot) submitModal(c *Call, g *present.Game, p parsedID) error {
	c.Game = g.Rules.Name()
	if p.Verb != verbSubmit {
		return fmt.Errorf("%w: %s:%s is not a form", ErrBadCustomID, p.Prefix, p.Verb)
	}
	text, ok := c.modalValues()[modalText]
	if !ok || len(text) > present.MaxInputText {
		return ErrBadInput
	}
	p.Arg += " " + text
	return c.applyMove(g, p)
}

// steadyLobbyVerb reports whether a lobby button of verb means the same
// whatever the lobby shows (join, leave, add a computer, start, cancel):
// its custom id carries no lobby counter (0) and stays the same across
// the lobby's edits, so that two people clicking at once both land
// (STYLE.md, Handlers). Removing the last computer seat depends on the
// seats shown: its id carries the counter.
func steadyLobbyVerb(verb string) bool {
	switch verb {
	case verbJoin, verbLeave, verbCPU, verbGo, verbCancel:
		return true
	}
	return false
}

// lobbyButton handles the lobby's buttons. A button of an earlier
// table's lobby (a message older than the interaction that opened this
// one) is outdated, whatever its id.
func (c *Call) lobbyButton(g *present.Game, p parsedID) error {
	started, cancelled := false, false
	var plan startPlan
	if p.Verb == verbGo {
		plan = c.foreseeStart(g)
	}
	r, td, err := c.changeTable(g, func(r *dixbot.Record, td *tableData) error {
		steady := p.n == 0 && steadyLobbyVerb(p.Verb)
		if r.Data != nil || !steady && uint64(td.Lobby) != p.n || c.I.Message != nil && laterID(td.opening(), c.I.Message.ID) {
			return ErrStale
		}
		if m := c.I.Message; m != nil && m.Flags&discordgo.MessageFlagsEphemeral == 0 && !c.onLobby(td) {
			// The lobby's answer is made in place: another message (a
			// ping, a notice) is no lobby, and the id is forged.
			return fmt.Errorf("%w: a lobby's id on a message that does not carry it", ErrBadCustomID)
		}
		if m := c.I.Message; m != nil && m.Flags&discordgo.MessageFlagsEphemeral == 0 {
			td.noteLobby(m.ID)
		}
		td.lobbyPosted(r)
		var err error
		if started, cancelled, err = c.lobbyChange(g, p, r, td, plan); err != nil {
			return err
		}
		td.Lobby++
		if !started && !cancelled {
			td.oweLobbyEdit(r, c.B.now())
		}
		return nil
	})
	if errors.Is(err, ErrStale) {
		return c.answerStale(g, true)
	}
	if err != nil {
		return err
	}
	c.Shows = &shows{Seq: uint64(td.Lobby)}
	if cancelled {
		c.Shows = &shows{Retire: true}
		c.Retry("finish", func(ctx context.Context) error { return c.B.store.Finish(ctx, c.I.ChannelID) })
		c.Update(locales.T(td.Lang, "table_lobby_closed", map[string]any{"Game": En(g.Rules.Name() + "_title")}), nil, nil)
		return nil
	}
	if started {
		c.settleAnswer(r)
		return c.showBoard(g, r, td)
	}
	if r.Data != nil {
		// The change landed on a try whose reply was lost, and the game
		// started since (r is the record as it stands): the message
		// clicked is its board, which the answer shows, not the lobby.
		return c.showBoard(g, r, td)
	}
	content, comps := lobbyView(g, td)
	c.Update(content, nil, comps)
	c.settleAnswer(r)
	return nil
}

// onLobby reports whether the message clicked is td's lobby: it carries
// the id clicked, or it was clicked as the lobby before. The lobby may no
// longer carry the id: Discord sends the message as it is now, its
// buttons perhaps redrawn since the clicker's screen showed them.
func (c *Call) onLobby(td *tableData) bool {
	return clickedOnMessage(c.I) || c.I.Message != nil && td.BoardVia != nil && td.BoardVia.Orig == c.I.Message.ID
}

// lobbyChange applies a click p on the lobby to td, within the update of
// r: it reports whether the game started or the lobby was cancelled.
func (c *Call) lobbyChange(g *present.Game, p parsedID, r *dixbot.Record, td *tableData, plan startPlan) (started, cancelled bool, err error) {
	switch p.Verb {
	case verbJoin:
		if td.seated(c.User) {
			return false, false, ErrAlreadyJoined
		}
		if len(td.Seats) >= g.MaxSeats {
			return false, false, ErrLobbyFull
		}
		td.Seats = append(td.Seats, tableSeat{User: c.User, Name: c.Name})
	case verbLeave:
		s := td.seatOf(c.User)
		switch {
		case s < 0:
			return false, false, ErrNotJoined
		case c.User == td.Creator:
			return false, false, ErrCreatorLeave
		}
		td.Seats = slices.Delete(td.Seats, s, s+1)
	case verbCPU:
		if !slices.Contains(g.Levels, p.Arg) {
			return false, false, ErrBadCustomID
		}
		if c.User != td.Creator {
			return false, false, ErrNotCreator // the creator seats the computers
		}
		if len(td.Seats) >= g.MaxSeats {
			return false, false, ErrLobbyFull
		}
		td.Seats = append(td.Seats, tableSeat{Name: locales.T(td.Lang, "table_cpu_name", map[string]any{
			"N": len(td.Seats) + 1, "Level": locales.T(td.Lang, "table_level_"+p.Arg, nil)}), Level: p.Arg})
	case verbRmCPU:
		if c.User != td.Creator {
			return false, false, ErrNotCreator
		}
		last := len(td.Seats) - 1
		if last < 1 || td.Seats[last].User != "" {
			return false, false, Refuse(ErrBadInput, "table_err_no_cpu", nil)
		}
		td.Seats = td.Seats[:last]
	case verbCancel:
		if c.User != td.Creator {
			return false, false, ErrNotCreator
		}
		cancelled = true
	case verbPace:
		if err := choosePace(g, td, c.User, p.Arg); err != nil {
			return false, false, err
		}
	case verbOpt:
		if err := chooseOption(g, td, c.User, p.Arg); err != nil {
			return false, false, err
		}
	case verbGo:
		if c.User != td.Creator {
			return false, false, ErrNotCreator
		}
		if len(td.Seats) < g.MinSeats {
			return false, false, Refuse(ErrTooFew, "err_too_few", map[string]any{"Min": g.MinSeats})
		}
		now := c.B.now()
		td.Board = c.I.Message.ID
		st, err := c.B.startTableWith(g, r, td, now, plan)
		if err != nil {
			return false, false, err
		}
		td.oweChange(r, g, st, planPings(st, td, 0, td.seatOf(c.User), now), now, c.B.self)
		started = true
	}
	return started, cancelled, nil
}
