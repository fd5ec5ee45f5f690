package dixtable

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/dixgame/dixbot"

	"github.com/dixgame/dixbot/bot"
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
func lobbyChange(c *bot.Call, version uint32, fn func(r *dixbot.Record, m *dixTable) error) (*dixbot.Record, *dixTable, error) {
	var out *dixTable
	rec, err := changeTable(c, func(r *dixbot.Record, m *dixTable) error {
		if dix.GameOf(r.State) != nil || (c.I.Message != nil && m.olderThanTable(c.I.Message.ID)) {
			return bot.ErrStale
		}
		if err := bot.CheckVersion(version, m.lobbyVersion()); err != nil {
			return err
		}
		if err := fn(r, m); err != nil {
			return err
		}
		m.Lobby++
		if c.I.Message != nil && dix.GameOf(r.State) == nil {
			m.Board = c.I.Message.ID
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

func lobbyJoin(c *bot.Call, p bot.ParsedID) error {
	_, m, err := lobbyChange(c, p.Version, func(_ *dixbot.Record, m *dixTable) error {
		if m.seatOf(c.User) >= 0 {
			return bot.ErrAlreadyJoined
		}
		if len(m.Seats) >= maxPlayers {
			return bot.ErrLobbyFull
		}
		m.Seats = append(m.Seats, seat{ID: c.User, Name: c.Name})
		return nil
	})
	if err != nil {
		return err
	}
	c.Update("", []*discordgo.MessageEmbed{lobbyEmbed(m.Lang, m, "open")}, lobbyButtons(m.Lang, m))
	return nil
}

func lobbyLeave(c *bot.Call, p bot.ParsedID) error {
	_, m, err := lobbyChange(c, p.Version, func(_ *dixbot.Record, m *dixTable) error {
		s := m.seatOf(c.User)
		if s < 0 {
			return bot.ErrNotJoined
		}
		if c.User == m.Creator {
			return bot.ErrCreatorLeave
		}
		m.unseat(s)
		return nil
	})
	if err != nil {
		return err
	}
	c.Update("", []*discordgo.MessageEmbed{lobbyEmbed(m.Lang, m, "open")}, lobbyButtons(m.Lang, m))
	return nil
}

func lobbyStart(c *bot.Call, p bot.ParsedID) error {
	rec, m, err := lobbyChange(c, p.Version, func(r *dixbot.Record, m *dixTable) error {
		if c.User != m.Creator {
			return bot.ErrNotCreator
		}
		if len(m.Seats) < minPlayers {
			return bot.Refuse(bot.ErrTooFew, "err_too_few", map[string]any{"Min": minPlayers})
		}
		first := -1
		if m.Starts > 0 && m.Starts <= len(m.Seats) {
			first = m.Starts - 1
		}
		if err := begin(c, r, m, first); err != nil {
			return err
		}
		m.Board = "" // the lobby message is answered below; the first board comes next
		return nil
	})
	if err != nil {
		return err
	}
	c.Update("", []*discordgo.MessageEmbed{lobbyEmbed(m.Lang, m, "started")}, nil)
	settle(c, rec)
	return nil
}

// begin deals the game of the table m into r: seat first starts (-1: drawn
// at random; a solo game always starts with its player), a computer player
// who starts plays at once, the clock runs and the first board is owed.
func begin(c *bot.Call, r *dixbot.Record, m *dixTable, first int) error {
	opts := dix.Options{Players: len(m.Seats), BustVariant: m.Bust, Seed: c.B.Seed(), FirstPlayer: first}
	if m.Solo {
		opts = dix.Options{Players: 1, Difficulty: m.Diff, Seed: c.B.Seed(), FirstPlayer: 0}
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
			"LevelName": locales.T(m.Lang, "difficulty_"+bot.Itoa(m.Diff), nil)})}
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
	now := c.B.Now()
	newClock(c.B, m, g, now)
	m.owe(r, bot.Effect{Kind: bot.EffBoard, Users: nextDeciders(m, g, c.User)})
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
func lobbyAddCPU(c *bot.Call, p bot.ParsedID) error {
	vals := c.Values()
	if len(vals) != 1 {
		return bot.ErrBadInput
	}
	lvl, err := computer.ParseLevel(vals[0])
	if err != nil {
		return fmt.Errorf("%w: %v", bot.ErrBadInput, err)
	}
	_, m, err := lobbyChange(c, p.Version, func(_ *dixbot.Record, m *dixTable) error {
		if c.User != m.Creator {
			return bot.ErrNotCreator
		}
		if len(m.Seats) >= maxPlayers {
			return bot.ErrLobbyFull
		}
		m.Seats = append(m.Seats, seat{CPU: lvl.String()})
		return nil
	})
	if err != nil {
		return err
	}
	c.Update("", []*discordgo.MessageEmbed{lobbyEmbed(m.Lang, m, "open")}, lobbyButtons(m.Lang, m))
	return nil
}

// lobbyRemoveCPU removes the last computer player seated (the creator).
func lobbyRemoveCPU(c *bot.Call, p bot.ParsedID) error {
	_, m, err := lobbyChange(c, p.Version, func(_ *dixbot.Record, m *dixTable) error {
		if c.User != m.Creator {
			return bot.ErrNotCreator
		}
		for i := len(m.Seats) - 1; i >= 0; i-- {
			if m.Seats[i].CPU != "" {
				m.unseat(i)
				return nil
			}
		}
		return bot.ErrStale // no computer player left: the buttons were old
	})
	if err != nil {
		return err
	}
	c.Update("", []*discordgo.MessageEmbed{lobbyEmbed(m.Lang, m, "open")}, lobbyButtons(m.Lang, m))
	return nil
}

func lobbyCancel(c *bot.Call, p bot.ParsedID) error {
	r, m, err := table(c)
	if err != nil {
		return err
	}
	if dix.GameOf(r.State) != nil || (c.I.Message != nil && m.olderThanTable(c.I.Message.ID)) {
		return bot.ErrStale
	}
	if err := bot.CheckVersion(p.Version, m.lobbyVersion()); err != nil {
		return err
	}
	if c.User != m.Creator {
		return bot.ErrNotCreator
	}
	if err := c.Remove(); err != nil {
		return err
	}
	c.Update("", []*discordgo.MessageEmbed{lobbyEmbed(m.Lang, m, "cancelled")}, nil)
	return nil
}

// create stores a new record; when the channel's game (of any game) is
// over but was not archived yet, it archives it and tries once more. An existing game gives
// a refusal pointing to its board.
func create(c *bot.Call, r *dixbot.Record) error {
	for attempt := 0; ; attempt++ {
		err := c.Retry("create", func(ctx context.Context) error { return c.B.Store.Create(ctx, r) })
		if err == nil {
			return nil
		}
		if !errors.Is(err, dixbot.ErrExists) {
			return err
		}
		old, gerr := c.Get()
		if gerr != nil {
			if errors.Is(gerr, dixbot.ErrNotFound) && attempt == 0 {
				continue // archived in between
			}
			if errors.Is(gerr, bot.ErrOtherGame) {
				if attempt == 0 && c.FinishOver() {
					continue // another game's, over: archived now
				}
				return gerr // another game's, running: its name says which
			}
			return err
		}
		if m, merr := decodeDixTable(old.Meta); merr == nil && m.Origin == c.I.ID {
			// This very command made it: a try that looked failed landed.
			*r = *old
			return nil
		}
		if attempt == 0 && c.FinishOver() {
			continue
		}
		if m, merr := decodeDixTable(old.Meta); merr == nil && m.Board != "" {
			return bot.Refuse(dixbot.ErrExists, "err_game_exists_link", map[string]any{"URL": bot.MessageURL(c.I.GuildID, c.I.ChannelID, m.Board)})
		}
		return err
	}
}

// rememberLobby records the id of the lobby message (the answer to
// /dix start, read after the answer), so its buttons are known as current.
func rememberLobby(b *bot.Bot, ctx context.Context, channel, message string) {
	sctx, cancel := context.WithTimeout(ctx, b.Timeout)
	defer cancel()
	_, err := b.Store.Update(sctx, channel, "", onTable(func(r *dixbot.Record, m *dixTable) error {
		if dix.GameOf(r.State) != nil {
			return bot.ErrNothingToDo // started
		}
		// The lobby owed in case the answer was lost is posted.
		keep, posted := m.Outbox[:0], false
		for _, e := range m.Outbox {
			if e.Kind == bot.EffLobby && e.Msg == "" {
				posted = true
				continue
			}
			keep = append(keep, e)
		}
		m.Outbox = keep
		if m.Board != "" && !posted {
			return bot.ErrNothingToDo // a click on it told the id already
		}
		if m.Board == "" {
			m.Board = message
		}
		if len(keep) == 0 {
			r.Due = time.Time{}
		}
		m.setDue(r, b.Now())
		return nil
	}))
	if err != nil && !errors.Is(err, bot.ErrNothingToDo) {
		if bot.IsStoreFailure(err) && b.Obs != nil {
			b.Obs.StoreError("update")
		}
		b.Log.Warn("could not record the lobby message", "channel", channel, "message", message, "err", err)
	}
}
