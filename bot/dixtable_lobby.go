package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/dixgame/dixbot"

	dixview "github.com/dixgame/dixbot/bot/dix"

	computer "github.com/dixgame/dixbot/computer/dix"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

// Player counts of a multiplayer game.
const (
	minPlayers = 2
	maxPlayers = 5
)

// lobbyChange runs fn on the lobby's table data inside one exactly-once
// store update; ErrStale when the game has started or the lobby changed
// since the buttons were drawn.
func (c *call) lobbyChange(version uint32, fn func(r *dixbot.Record, m *dixTable) error) (*dixbot.Record, *dixTable, error) {
	var out *dixTable
	rec, err := c.changeTable(func(r *dixbot.Record, m *dixTable) error {
		if r.State != nil || (c.i.Message != nil && m.olderThanTable(c.i.Message.ID)) {
			return ErrStale
		}
		if err := checkVersion(version, m.lobbyVersion()); err != nil {
			return err
		}
		if err := fn(r, m); err != nil {
			return err
		}
		m.Lobby++
		if c.i.Message != nil && r.State == nil {
			m.Board = c.i.Message.ID
		}
		out = m
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if m, err := decodeDixTable(rec.Meta); err == nil {
		out = m
	}
	return rec, out, nil
}

func (c *call) lobbyJoin(p parsedID) error {
	_, m, err := c.lobbyChange(p.version, func(_ *dixbot.Record, m *dixTable) error {
		if m.seatOf(c.user) >= 0 {
			return ErrAlreadyJoined
		}
		if len(m.Seats) >= maxPlayers {
			return ErrLobbyFull
		}
		m.Seats = append(m.Seats, seat{ID: c.user, Name: c.name})
		return nil
	})
	if err != nil {
		return err
	}
	c.update("", []*discordgo.MessageEmbed{lobbyEmbed(m.Lang, m, "open")}, lobbyButtons(m.Lang, m))
	return nil
}

func (c *call) lobbyLeave(p parsedID) error {
	_, m, err := c.lobbyChange(p.version, func(_ *dixbot.Record, m *dixTable) error {
		s := m.seatOf(c.user)
		if s < 0 {
			return ErrNotJoined
		}
		if c.user == m.Creator {
			return ErrCreatorLeave
		}
		m.unseat(s)
		return nil
	})
	if err != nil {
		return err
	}
	c.update("", []*discordgo.MessageEmbed{lobbyEmbed(m.Lang, m, "open")}, lobbyButtons(m.Lang, m))
	return nil
}

func (c *call) lobbyStart(p parsedID) error {
	rec, m, err := c.lobbyChange(p.version, func(r *dixbot.Record, m *dixTable) error {
		if c.user != m.Creator {
			return ErrNotCreator
		}
		if len(m.Seats) < minPlayers {
			return refuse(ErrTooFew, "err_too_few", map[string]any{"Min": minPlayers})
		}
		first := -1
		if m.Starts > 0 && m.Starts <= len(m.Seats) {
			first = m.Starts - 1
		}
		if err := c.begin(r, m, first); err != nil {
			return err
		}
		m.Board = "" // the lobby message is answered below; the first board comes next
		return nil
	})
	if err != nil {
		return err
	}
	c.update("", []*discordgo.MessageEmbed{lobbyEmbed(m.Lang, m, "started")}, nil)
	c.settle(rec)
	return nil
}

// begin deals the game of the table m into r: seat first starts (-1: drawn
// at random; a solo game always starts with its player), a computer player
// who starts plays at once, the clock runs and the first board is owed.
func (c *call) begin(r *dixbot.Record, m *dixTable, first int) error {
	opts := dix.Options{Players: len(m.Seats), BustVariant: m.Bust, Seed: c.b.seed(), FirstPlayer: first}
	if m.Solo {
		opts = dix.Options{Players: 1, Difficulty: m.Diff, Seed: c.b.seed(), FirstPlayer: 0}
	}
	g, err := dix.New(opts)
	if err != nil {
		return err
	}
	r.State = g
	m.Turn = 1
	g.Opts.FirstPlayer = g.Active // the seat that started, drawn or not (for a rematch)
	m.Starts = 0
	if m.Solo {
		m.Log = []string{locales.T(m.Lang, "log_solo_started", map[string]any{"Name": m.name(m.Lang, 0), "Level": m.Diff,
			"LevelName": locales.T(m.Lang, "difficulty_"+itoa(m.Diff), nil)})}
	} else {
		m.Log = []string{locales.T(m.Lang, "log_started", map[string]any{"Name": m.name(m.Lang, g.Active)})}
	}
	m.TurnLog = append(m.TurnLog, m.Log...)
	// A computer player who starts plays at once.
	evs, lines, err := applyForced(m.Lang, m, g, nil, false)
	if err != nil {
		return err
	}
	_, started := dixview.TurnBoundary(evs)
	m.Turn += started
	m.addLog(lines...)
	now := c.b.now()
	c.b.newClock(m, g, now)
	m.owe(r, effect{Kind: effBoard, Users: nextDeciders(m, g, c.user)})
	m.setDue(r, now)
	return nil
}

// unseat removes seat s from the lobby. The seat due to start keeps
// starting; when it is the one removed, the seat after it starts.
func (m *dixTable) unseat(s int) {
	m.Seats = slices.Delete(m.Seats, s, s+1)
	switch {
	case m.Starts > s+1:
		m.Starts--
	case m.Starts == s+1 && s == len(m.Seats):
		m.Starts = 1 // the seat after the last is the first
	}
	if len(m.Seats) == 0 {
		m.Starts = 0
	}
}

// lobbyAddCPU seats a computer player of the level chosen (the creator).
func (c *call) lobbyAddCPU(p parsedID) error {
	vals := c.values()
	if len(vals) != 1 {
		return ErrBadInput
	}
	lvl, err := computer.ParseLevel(vals[0])
	if err != nil {
		return fmt.Errorf("%w: %v", ErrBadInput, err)
	}
	_, m, err := c.lobbyChange(p.version, func(_ *dixbot.Record, m *dixTable) error {
		if c.user != m.Creator {
			return ErrNotCreator
		}
		if len(m.Seats) >= maxPlayers {
			return ErrLobbyFull
		}
		m.Seats = append(m.Seats, seat{CPU: lvl.String()})
		return nil
	})
	if err != nil {
		return err
	}
	c.update("", []*discordgo.MessageEmbed{lobbyEmbed(m.Lang, m, "open")}, lobbyButtons(m.Lang, m))
	return nil
}

// lobbyRemoveCPU removes the last computer player seated (the creator).
func (c *call) lobbyRemoveCPU(p parsedID) error {
	_, m, err := c.lobbyChange(p.version, func(_ *dixbot.Record, m *dixTable) error {
		if c.user != m.Creator {
			return ErrNotCreator
		}
		for i := len(m.Seats) - 1; i >= 0; i-- {
			if m.Seats[i].CPU != "" {
				m.unseat(i)
				return nil
			}
		}
		return ErrStale // no computer player left: the buttons were old
	})
	if err != nil {
		return err
	}
	c.update("", []*discordgo.MessageEmbed{lobbyEmbed(m.Lang, m, "open")}, lobbyButtons(m.Lang, m))
	return nil
}

func (c *call) lobbyCancel(p parsedID) error {
	r, m, err := c.table()
	if err != nil {
		return err
	}
	if r.State != nil || (c.i.Message != nil && m.olderThanTable(c.i.Message.ID)) {
		return ErrStale
	}
	if err := checkVersion(p.version, m.lobbyVersion()); err != nil {
		return err
	}
	if c.user != m.Creator {
		return ErrNotCreator
	}
	if err := c.remove(); err != nil {
		return err
	}
	c.update("", []*discordgo.MessageEmbed{lobbyEmbed(m.Lang, m, "cancelled")}, nil)
	return nil
}

// create stores a new record; when the channel's game (of any game) is
// over but was not archived yet, it archives it and tries once more. An existing game gives
// a refusal pointing to its board.
func (c *call) create(r *dixbot.Record) error {
	for attempt := 0; ; attempt++ {
		err := c.retry("create", func(ctx context.Context) error { return c.b.store.Create(ctx, r) })
		if err == nil {
			return nil
		}
		if !errors.Is(err, dixbot.ErrExists) {
			return err
		}
		old, gerr := c.get()
		if gerr != nil {
			if errors.Is(gerr, dixbot.ErrNotFound) && attempt == 0 {
				continue // archived in between
			}
			if errors.Is(gerr, errOtherGame) {
				if attempt == 0 && c.finishOver() {
					continue // another game's, over: archived now
				}
				return gerr // another game's, running: its name says which
			}
			return err
		}
		if m, merr := decodeDixTable(old.Meta); merr == nil && m.Origin == c.i.ID {
			// This very command made it: a try that looked failed landed.
			*r = *old
			return nil
		}
		if attempt == 0 && c.finishOver() {
			continue
		}
		if m, merr := decodeDixTable(old.Meta); merr == nil && m.Board != "" {
			return refuse(dixbot.ErrExists, "err_game_exists_link", map[string]any{"URL": messageURL(c.i.GuildID, c.i.ChannelID, m.Board)})
		}
		return err
	}
}

// rememberLobby records the id of the lobby message (the answer to
// /dix start, read after the answer), so its buttons are known as current.
func (b *Bot) rememberLobby(ctx context.Context, channel, message string) {
	sctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	_, err := b.store.Update(sctx, channel, "", onTable(func(r *dixbot.Record, m *dixTable) error {
		if r.State != nil {
			return errNothingToDo // started
		}
		// The lobby owed in case the answer was lost is posted.
		keep, posted := m.Outbox[:0], false
		for _, e := range m.Outbox {
			if e.Kind == effLobby && e.Msg == "" {
				posted = true
				continue
			}
			keep = append(keep, e)
		}
		m.Outbox = keep
		if m.Board != "" && !posted {
			return errNothingToDo // a click on it told the id already
		}
		if m.Board == "" {
			m.Board = message
		}
		if len(keep) == 0 {
			r.Due = time.Time{}
		}
		m.setDue(r, b.now())
		return nil
	}))
	if err != nil && !errors.Is(err, errNothingToDo) {
		if isStoreFailure(err) && b.obs != nil {
			b.obs.StoreError("update")
		}
		b.log.Warn("could not record the lobby message", "channel", channel, "message", message, "err", err)
	}
}
