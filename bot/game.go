package bot

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/locales"
)

// verbActions maps the one-click verbs to their engine action.
var verbActions = map[string]engine.ActionKind{
	verbDraw:    engine.ActDraw,
	verbStop:    engine.ActStop,
	verbNumbers: engine.ActTakeNumbers,
	verbMoney:   engine.ActTakeMoney,
	verbEndTurn: engine.ActEndTurn,
	verbConsol:  engine.ActConsolation,
	verbBustBuy: engine.ActBustBuy,
	verbPass:    engine.ActPass,
}

// seatFor checks that the clicking user may decide now in the game of r at
// state version: ErrStale for an outdated version (or a game button on a
// lobby), ErrNotInGame for an outsider, ErrNotYourTurn naming the player
// whose decision it is.
func (c *call) seatFor(r *dixbot.Record, version uint32) (*engine.Game, *meta, int, error) {
	m, err := decodeMeta(r.Meta)
	if err != nil {
		return nil, nil, -1, err
	}
	g := r.State
	if g == nil || (c.i.Message != nil && m.olderThanTable(c.i.Message.ID)) {
		return nil, nil, -1, ErrStale
	}
	if err := checkVersion(version, m.version(g)); err != nil {
		return nil, nil, -1, err
	}
	s := m.seatOf(c.user)
	if s < 0 {
		return nil, nil, -1, ErrNotInGame
	}
	if g.Phase == engine.PhaseOver {
		return nil, nil, -1, engine.ErrGameOver
	}
	if actor := g.ToAct(); actor != s {
		return nil, nil, -1, refuse(ErrNotYourTurn, "err_not_your_turn", map[string]any{"Name": m.name(c.lang, actor)})
	}
	return g, m, s, nil
}

// peek loads the game without writing, for prompts: the same checks as seatFor.
func (c *call) peek(version uint32) (*engine.Game, *meta, int, error) {
	r, err := c.get()
	if err != nil {
		return nil, nil, -1, err
	}
	return c.seatFor(r, version)
}

// peekChoice is peek for a prompt that opens one decision: it also returns
// what the clicking seat may decide, and a refusal unless kind is open to it.
func (c *call) peekChoice(version uint32, kind engine.ActionKind) (*engine.Game, *meta, int, engine.Choices, error) {
	g, m, s, err := c.peek(version)
	if err != nil {
		return nil, nil, -1, engine.Choices{}, err
	}
	ch, err := requireChoice(g, s, kind)
	if err != nil {
		return nil, nil, -1, engine.Choices{}, err
	}
	return g, m, s, ch, nil
}

// played is the result of one applied action.
type played struct {
	rec       *dixbot.Record
	m         *meta
	lines     []string // the turn's events so far, in the game's language
	prevActor int
	active    int  // the active seat before the action
	turn      int  // the turn number before the action
	final     bool // the action was taken in the final buy round (4)
	ended     bool
}

// play applies the action built by build for the clicking user, inside one
// exactly-once store update, then answers: a click on the board updates it
// in place; a click on an ephemeral prompt replaces the prompt with what
// confirm returns (text, and components for a next step of the same
// player) and the board is edited after the answer.
func (c *call) play(version uint32, build func(g *engine.Game, seat int) (engine.Action, error), confirm confirmFunc) error {
	var out played
	var act engine.Action
	seat := -1
	rec, err := c.change(func(r *dixbot.Record) error {
		g, m, s, err := c.seatFor(r, version)
		if err != nil {
			return err
		}
		a, err := build(g, s)
		if err != nil {
			return err
		}
		a.Player = s
		prev, active, turn, final := g.ToAct(), g.Active, m.Turn, g.Phase == engine.PhaseFinalBuy
		evs, err := g.Apply(a)
		if err != nil {
			return err
		}
		// Never save a broken game (principle 8): refuse the click instead.
		if err := g.Check(); err != nil {
			return err
		}
		lines := renderEvents(m.Lang, m, evs)
		ended, started := turnBoundary(evs)
		m.Turn += started
		m.addLog(lines...)
		turnLines := m.TurnLog
		if ended || g.Phase == engine.PhaseOver {
			m.TurnLog = nil
		}
		r.Meta = m.encode()
		out = played{m: m, lines: turnLines, prevActor: prev, active: active, turn: turn, ended: ended, final: final}
		act, seat = a, s
		return nil
	})
	if err != nil {
		return err
	}
	out.rec = rec
	fromBoard := c.i.Message != nil && c.i.Message.Flags&discordgo.MessageFlagsEphemeral == 0
	if m, err := decodeMeta(rec.Meta); err == nil {
		out.m = m
	}
	text := ""
	var comps []discordgo.MessageComponent
	if confirm != nil {
		text, comps = confirm(c.lang, act, out.rec.State, out.m, seat)
	}
	c.afterPlay(out, fromBoard, text, comps)
	return nil
}

// confirmFunc returns what replaces the ephemeral prompt once the action a
// of seat is applied; g is the game after it.
type confirmFunc func(lang string, a engine.Action, g *engine.Game, m *meta, seat int) (string, []discordgo.MessageComponent)

// confirmText is a confirmFunc answering one message of lang.
func confirmText(text func(lang string, a engine.Action) string) confirmFunc {
	return func(lang string, a engine.Action, _ *engine.Game, _ *meta, _ int) (string, []discordgo.MessageComponent) {
		return text(lang, a), nil
	}
}

// afterPlay answers an applied action and queues the board work.
func (c *call) afterPlay(out played, fromBoard bool, confirm string, confirmComps []discordgo.MessageComponent) {
	g, m := out.rec.State, out.m
	lang := m.Lang
	over := g.Phase == engine.PhaseOver
	boundary := out.ended || over
	title := locales.T(lang, "summary_title", map[string]any{"Turn": out.turn, "Name": m.name(lang, out.active)})
	if out.final {
		title = locales.T(lang, "summary_title_final", nil)
	}
	summary := summaryEmbed(lang, m, title, out.lines)
	oldBoard := m.Board
	if fromBoard {
		oldBoard = "" // answered in place below
		if boundary {
			c.update("", []*discordgo.MessageEmbed{summary}, nil)
		} else {
			c.update("", []*discordgo.MessageEmbed{boardEmbed(lang, m, g)}, boardButtons(lang, m, g))
		}
	} else {
		c.updateOrReply(confirm, confirmComps)
	}
	channel := c.i.ChannelID
	switch {
	case over:
		c.then(func(ctx context.Context) {
			c.b.retire(ctx, channel, oldBoard, summary)
			c.b.rememberPing(ctx, channel, "")
			c.b.send(ctx, channel, &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{scoreboardEmbed(lang, m, g)}, AllowedMentions: noMentions()})
			c.b.finish(ctx, channel)
		})
	case boundary:
		c.then(func(ctx context.Context) {
			c.b.retire(ctx, channel, oldBoard, summary)
			c.b.postBoard(ctx, channel, m, g, c.user, true)
		})
	default:
		if !fromBoard {
			c.then(func(ctx context.Context) { c.b.editBoard(ctx, channel, m, g) })
		} else if clicked := c.i.Message.ID; clicked != m.Board {
			// The click came from a board the table did not know as current
			// (its id could not be recorded): it is the live one now.
			old := m.Board
			c.then(func(ctx context.Context) {
				c.b.retire(ctx, channel, old, nil)
				c.b.remember(ctx, channel, clicked, false)
			})
		}
		next := g.ToAct()
		switch {
		case next >= 0 && next != out.prevActor && next < len(m.Seats) && m.Seats[next].ID != "" && m.Seats[next].ID != c.user:
			// The new ping replaces (and deletes) the previous one.
			c.then(func(ctx context.Context) { c.b.ping(ctx, channel, m, g, next, c.user) })
		case m.Ping != "":
			// The pinged decision has been made and nobody else is pinged
			// (the decision stays with the clicker, or goes to ALIX).
			c.then(func(ctx context.Context) { c.b.rememberPing(ctx, channel, "") })
		}
	}
}

// updateOrReply replaces the ephemeral prompt the user clicked on with text
// (or answers with an ephemeral message when there is no such message).
func (c *call) updateOrReply(text string, comps []discordgo.MessageComponent) {
	if c.i.Message == nil {
		c.ephemeral(text, comps)
		return
	}
	c.update(text, nil, comps)
}

// retire strips the buttons of an old board message (replacing it by the
// turn summary when one is given). Best effort: failures are logged.
func (b *Bot) retire(ctx context.Context, channel, message string, summary *discordgo.MessageEmbed) {
	if message == "" {
		return
	}
	e := discordgo.NewMessageEdit(channel, message)
	e.Components = &[]discordgo.MessageComponent{}
	if summary != nil {
		e.Embeds = &[]*discordgo.MessageEmbed{summary}
		empty := ""
		e.Content = &empty
	}
	e.AllowedMentions = noMentions()
	if err := b.apiFor(ctx).Edit(ctx, e); err != nil {
		b.log.Warn("could not retire the old board", "channel", channel, "message", message, "err", err)
	}
}

// postBoard posts a fresh board, pinging the player who must act when ping
// is set (unless it is the user who just clicked), and records its id.
func (b *Bot) postBoard(ctx context.Context, channel string, m *meta, g *engine.Game, clicker string, ping bool) {
	ms := &discordgo.MessageSend{
		Embeds:          []*discordgo.MessageEmbed{boardEmbed(m.Lang, m, g)},
		Components:      boardButtons(m.Lang, m, g),
		AllowedMentions: noMentions(),
	}
	if a := g.ToAct(); ping && a >= 0 && a < len(m.Seats) && m.Seats[a].ID != "" && m.Seats[a].ID != clicker {
		ms.Content = "<@" + m.Seats[a].ID + ">"
		ms.AllowedMentions = mentionOnly(m.Seats[a].ID)
	}
	msg, err := b.apiFor(ctx).Send(ctx, channel, ms)
	if err != nil {
		b.log.Error("could not post the board", "channel", channel, "err", err)
		return
	}
	b.remember(ctx, channel, msg.ID, ping)
}

// editBoard updates the current board in place.
func (b *Bot) editBoard(ctx context.Context, channel string, m *meta, g *engine.Game) {
	if m.Board == "" {
		b.postBoard(ctx, channel, m, g, "", false)
		return
	}
	e := discordgo.NewMessageEdit(channel, m.Board)
	comps := boardButtons(m.Lang, m, g)
	e.Components = &comps
	e.Embeds = &[]*discordgo.MessageEmbed{boardEmbed(m.Lang, m, g)}
	e.AllowedMentions = noMentions()
	if err := b.apiFor(ctx).Edit(ctx, e); err != nil {
		b.log.Warn("could not edit the board; posting a new one", "channel", channel, "err", err)
		b.postBoard(ctx, channel, m, g, "", false)
	}
}

// ping tells the player who must now decide, once, with a mention limited to them.
func (b *Bot) ping(ctx context.Context, channel string, m *meta, g *engine.Game, s int, clicker string) {
	if s >= len(m.Seats) || m.Seats[s].ID == "" || m.Seats[s].ID == clicker {
		return
	}
	id := m.Seats[s].ID
	key := "ping_decide"
	d := map[string]any{"Mention": "<@" + id + ">"}
	switch g.Phase {
	case engine.PhaseDraw:
		// The decision comes back to the active player within the turn:
		// an auction on their draw is over.
		key = "ping_resume"
	case engine.PhaseAuction:
		key = "ping_bid"
		if g.Auction != nil && g.Auction.HighBid == 0 {
			key = "ping_bid_first"
		}
		if g.Auction != nil {
			d["Card"] = cardText(m.Lang, g.Auction.Wild)
			d["Amount"] = g.Auction.HighBid
		}
	case engine.PhaseAuctionPay:
		key = "ping_pay"
		if g.Auction != nil {
			d["Card"] = cardText(m.Lang, g.Auction.Wild)
			d["Amount"] = g.Auction.HighBid
		}
	case engine.PhaseFinalBuy:
		key = "ping_final_buy"
	}
	if m.Board != "" {
		d["URL"] = messageURL(guildOf(ctx), channel, m.Board)
		key += "_link"
	}
	msg, err := b.apiFor(ctx).Send(ctx, channel, &discordgo.MessageSend{Content: locales.T(m.Lang, key, d), AllowedMentions: mentionOnly(id)})
	if err != nil {
		b.log.Warn("could not send a message", "channel", channel, "err", err)
		return
	}
	b.rememberPing(ctx, channel, msg.ID)
}

// rememberPing records the new decision ping (message, or none when empty)
// and deletes the previous one, whose decision has been made. A ping is
// deleted only by the store update that replaces it, so it is never deleted
// twice. Best effort: failures are logged.
func (b *Bot) rememberPing(ctx context.Context, channel, message string) {
	sctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	old := ""
	_, err := b.store.Update(sctx, channel, "", func(r *dixbot.Record) error {
		m, err := decodeMeta(r.Meta)
		if err != nil {
			return err
		}
		old, m.Ping = m.Ping, message
		r.Meta = m.encode()
		return nil
	})
	if err != nil {
		if isStoreFailure(err) && b.obs != nil {
			b.obs.StoreError("update")
		}
		b.log.Warn("could not record the ping", "channel", channel, "message", message, "err", err)
		return
	}
	b.deletePing(ctx, channel, old)
}

// deletePing deletes a ping whose decision has been made.
func (b *Bot) deletePing(ctx context.Context, channel, message string) {
	if message == "" {
		return
	}
	if err := b.apiFor(ctx).Delete(ctx, channel, message); err != nil {
		b.log.Warn("could not delete an old ping", "channel", channel, "message", message, "err", err)
	}
}

func (b *Bot) send(ctx context.Context, channel string, ms *discordgo.MessageSend) {
	if _, err := b.apiFor(ctx).Send(ctx, channel, ms); err != nil {
		b.log.Warn("could not send a message", "channel", channel, "err", err)
	}
}

// finish archives a finished game, freeing the channel.
func (b *Bot) finish(ctx context.Context, channel string) {
	sctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	if err := b.store.Finish(sctx, channel); err != nil {
		if isStoreFailure(err) && b.obs != nil {
			b.obs.StoreError("finish")
		}
		b.log.Warn("could not archive the finished game", "channel", channel, "err", err)
	}
}

// The post-answer work gets the Discord API and the guild through its context.
type ctxKey int

const (
	apiKey ctxKey = iota
	guildKey
)

func (b *Bot) apiFor(ctx context.Context) discordAPI {
	if d, ok := ctx.Value(apiKey).(discordAPI); ok {
		return d
	}
	panic("bot: no Discord API in context")
}

func guildOf(ctx context.Context) string {
	g, _ := ctx.Value(guildKey).(string)
	return g
}

// simpleAction handles the one-click decisions on the board.
func (c *call) simpleAction(p parsedID) error {
	kind, ok := verbActions[p.verb]
	if !ok {
		return fmt.Errorf("%w: %q", ErrBadCustomID, p.verb)
	}
	err := c.play(p.version, func(g *engine.Game, s int) (engine.Action, error) {
		return engine.Action{Kind: kind}, nil
	}, confirmText(func(lang string, a engine.Action) string {
		if kind == engine.ActPass {
			return locales.T(lang, "done_pass", nil)
		}
		return locales.T(lang, "done_generic", nil)
	}))
	if err == nil && kind == engine.ActBustBuy {
		// The player chose to buy: the market opens at once (one click
		// less than going through the board's Buy).
		c.offerMarket()
	}
	return err
}

// offerMarket follows an answer with the market prompt when the user may
// buy now. Best effort: nothing is shown otherwise.
func (c *call) offerMarket() {
	r, err := c.getQuiet()
	if err != nil || r.State == nil {
		return
	}
	m, err := decodeMeta(r.Meta)
	if err != nil {
		return
	}
	g, s := r.State, m.seatOf(c.user)
	if s < 0 || g.ToAct() != s {
		return
	}
	ch := g.Choices(s)
	if !hasAction(ch, engine.ActBuy) || len(ch.Buyable) == 0 {
		return
	}
	c.ephemeral(locales.T(c.lang, "prompt_buy", map[string]any{"Capacity": g.BuyCapacity(s)}), buySelects(c.lang, m.version(g), ch.Buyable, proposer(g, s)))
}

// showBoard shows the current board to the user alone.
func (c *call) showBoard() error {
	r, err := c.get()
	if err != nil {
		return err
	}
	m, err := decodeMeta(r.Meta)
	if err != nil {
		return err
	}
	if r.State == nil {
		c.ephemeral(locales.T(c.lang, "lobby_open_here", nil), nil, lobbyEmbed(c.lang, m, "open"))
		return nil
	}
	text := ""
	if m.Board != "" {
		text = locales.T(c.lang, "stale_link", map[string]any{"URL": messageURL(c.i.GuildID, c.i.ChannelID, m.Board)})
	}
	c.ephemeral(text, nil, boardEmbed(c.lang, m, r.State))
	return nil
}

// hand shows the user's private view of their holdings.
func (c *call) hand() error {
	r, err := c.get()
	if err != nil {
		return err
	}
	m, err := decodeMeta(r.Meta)
	if err != nil {
		return err
	}
	if r.State == nil {
		return ErrNotStarted
	}
	s := m.seatOf(c.user)
	if s < 0 || s >= len(r.State.Players) {
		return ErrNotInGame
	}
	c.ephemeral("", nil, handEmbed(c.lang, m, r.State, s))
	return nil
}
