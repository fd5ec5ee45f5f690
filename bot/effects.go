package bot

import (
	"context"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/locales"
)

// Everything the bot does in Discord after answering a click is an effect:
// plain data computed once from the state before and after the action
// (effectsAfter), then carried out in order (Bot.run). Effects hold the
// rendered messages, so carrying them out needs neither the game nor the
// table data.

type effectKind uint8

const (
	// effEdit edits message: its content, embeds and components where set.
	effEdit effectKind = iota + 1
	// effPost posts a message notifying mention (nobody else), then
	// records its id as remember says.
	effPost
	// effFinish archives the finished game, freeing the channel.
	effFinish
)

// remembered says what a posted message becomes in the table data.
type remembered uint8

const (
	rememberNothing remembered = iota
	rememberBoard              // the current board
	rememberPing               // the ping of the pending decision
)

type effect struct {
	kind       effectKind
	message    string // effEdit: the message to edit
	content    *string
	embeds     []*discordgo.MessageEmbed
	components *[]discordgo.MessageComponent
	mention    []string   // effPost: the users notified
	remember   remembered // effPost
	// repost: an effEdit of the board that fails posts it anew instead.
	repost bool
}

func strPtr(s string) *string { return &s }

func compsPtr(cs []discordgo.MessageComponent) *[]discordgo.MessageComponent {
	if cs == nil {
		cs = []discordgo.MessageComponent{}
	}
	return &cs
}

// retireBoard turns an old board into summary (when given) without buttons.
func retireBoard(message string, summary *discordgo.MessageEmbed) effect {
	e := effect{kind: effEdit, message: message, components: compsPtr(nil)}
	if summary != nil {
		e.content, e.embeds = strPtr(""), []*discordgo.MessageEmbed{summary}
	}
	return e
}

// postBoardEffect posts the board of g, notifying mention.
func postBoardEffect(m *meta, g *engine.Game, mention []string) effect {
	return effect{kind: effPost, content: strPtr(mentions(mention)), embeds: []*discordgo.MessageEmbed{boardEmbed(m.Lang, m, g)},
		components: compsPtr(boardButtons(m.Lang, m, g)), mention: mention, remember: rememberBoard}
}

// editBoardEffect updates the current board in place (posting it when
// there is none, or when the edit fails).
func editBoardEffect(m *meta, g *engine.Game) effect {
	if m.Board == "" {
		return postBoardEffect(m, g, nil)
	}
	return effect{kind: effEdit, message: m.Board, embeds: []*discordgo.MessageEmbed{boardEmbed(m.Lang, m, g)},
		components: compsPtr(boardButtons(m.Lang, m, g)), repost: true}
}

// closePingEffect edits a ping whose decision has been made to say so. A
// ping is never deleted: the notification it sent must keep pointing to a
// message.
func closePingEffect(lang, guild, channel, board, ping string) effect {
	text := locales.T(lang, "ping_closed", nil)
	if board != "" {
		text = locales.T(lang, "ping_closed_link", map[string]any{"URL": messageURL(guild, channel, board)})
	}
	return effect{kind: effEdit, message: ping, content: strPtr(text), components: compsPtr(nil)}
}

func mentions(users []string) string {
	parts := make([]string, len(users))
	for i, u := range users {
		parts[i] = "<@" + u + ">"
	}
	return strings.Join(parts, " ")
}

// human is the Discord user of seat s, "" for ALIX or an unknown seat.
func (m *meta) human(s int) string {
	if s < 0 || s >= len(m.Seats) {
		return ""
	}
	return m.Seats[s].ID
}

// effectsAfter is the work that follows the answer to an action: the old
// board retired or the board edited, the next board posted, pings sent
// and closed, the scoreboard, the archive. clicked is the board message
// the click came from ("" for a prompt); clicker never gets a ping for a
// decision they saw appear because of their own click.
func effectsAfter(out played, clicked, clicker, guild, channel string) []effect {
	g, m := out.rec.State, out.m
	lang := m.Lang
	var effs []effect
	if out.oldPing != "" {
		effs = append(effs, closePingEffect(lang, guild, channel, m.Board, out.oldPing))
	}
	boundary := out.ended || g.Phase == engine.PhaseOver
	switch {
	case g.Phase == engine.PhaseOver:
		if clicked == "" {
			effs = append(effs, retireBoard(m.Board, turnSummary(lang, m, out)))
		}
		// The final scoreboard notifies every player, once.
		var all []string
		for s := range m.Seats {
			if u := m.human(s); u != "" {
				all = append(all, u)
			}
		}
		effs = append(effs,
			effect{kind: effPost, content: strPtr(mentions(all)), embeds: []*discordgo.MessageEmbed{scoreboardEmbed(lang, m, g)}, mention: all},
			effect{kind: effFinish})
	case boundary:
		if clicked == "" {
			effs = append(effs, retireBoard(m.Board, turnSummary(lang, m, out)))
		}
		effs = append(effs, postBoardEffect(m, g, nextDeciders(m, g, clicker)))
	default:
		if clicked == "" {
			effs = append(effs, editBoardEffect(m, g))
		} else if clicked != m.Board {
			// The click came from a board the table did not know as
			// current (its id could not be recorded): it is the live one now.
			effs = append(effs, retireBoard(m.Board, nil), effect{kind: effPost, message: clicked, remember: rememberBoard})
		}
		if e, ok := pingEffect(m, g, out, clicker, guild, channel); ok {
			effs = append(effs, e)
		}
	}
	return effs
}

// nextDeciders are the users a fresh board notifies: the player who must
// act, or in the final buy round every player who can still buy something
// (the others are skipped automatically), in order; never the clicker.
func nextDeciders(m *meta, g *engine.Game, clicker string) []string {
	var seats []int
	if g.Phase == engine.PhaseFinalBuy && g.FinalNext < len(g.FinalOrder) {
		for _, s := range g.FinalOrder[g.FinalNext:] {
			if s == g.ToAct() || len(buyableNow(g, s)) > 0 {
				seats = append(seats, s)
			}
		}
	} else if a := g.ToAct(); a >= 0 {
		seats = append(seats, a)
	}
	var out []string
	for _, s := range seats {
		if u := m.human(s); u != "" && u != clicker && !containsString(out, u) {
			out = append(out, u)
		}
	}
	return out
}

// buyableNow is what seat could buy from the market now, whoever's turn it
// is: the market only shrinks during the final round, so a player who can
// buy nothing now will buy nothing then.
func buyableNow(g *engine.Game, s int) []engine.Card {
	var out []engine.Card
	capacity := g.BuyCapacity(s)
	for _, cd := range g.Market {
		if cd.Kind != engine.KindNumber || int(cd.Value) > capacity {
			continue
		}
		owned := false
		for _, c := range g.Players[s].Collection {
			if c == cd {
				owned = true
				break
			}
		}
		if !owned { // R5
			out = append(out, cd)
		}
	}
	return out
}

func containsString(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// pingEffect is the one ping a decision within a turn gets, if any:
//   - an auction opens: one message for every player who will be asked to
//     bid and can afford it, except the active player, who drew the wild;
//   - the auction is won by someone who did not just bid: they pay.
//
// The active player is never pinged within their own turn (the board's
// post pinged them), nor anyone for a decision their own click opened.
func pingEffect(m *meta, g *engine.Game, out played, clicker, guild, channel string) (effect, bool) {
	a := g.Auction
	if a == nil || g.Phase == out.prevPhase {
		return effect{}, false
	}
	d := map[string]any{"Card": cardText(m.Lang, a.Wild), "CardName": cardName(m.Lang, a.Wild), "Amount": a.HighBid}
	var users []string
	key := ""
	switch g.Phase {
	case engine.PhaseAuction:
		key = "ping_auction"
		min := a.HighBid + 1
		if g.Solo() {
			min = max(min, 5)
		}
		for k := a.Next; k < len(a.Order); k++ {
			s := a.Order[k]
			if u := m.human(s); u != "" && u != clicker && s != g.Active && g.Capacity(s) >= min && !containsString(users, u) {
				users = append(users, u)
			}
		}
	case engine.PhaseAuctionPay:
		key = "ping_pay"
		if u := m.human(g.ToAct()); u != "" && u != clicker {
			users = append(users, u)
		}
	}
	if len(users) == 0 {
		return effect{}, false
	}
	d["Mentions"] = mentions(users)
	if m.Board != "" {
		d["URL"] = messageURL(guild, channel, m.Board)
		key += "_link"
	}
	return effect{kind: effPost, content: strPtr(locales.T(m.Lang, key, d)), mention: users, remember: rememberPing}, true
}

// run carries out effects in order. Best effort: a failure is logged and
// the next effect still runs.
func (b *Bot) run(ctx context.Context, channel string, effs []effect) {
	api := b.apiFor(ctx)
	for _, e := range effs {
		switch e.kind {
		case effEdit:
			if e.message == "" {
				continue
			}
			me := discordgo.NewMessageEdit(channel, e.message)
			me.Content, me.Components = e.content, e.components
			if e.embeds != nil {
				me.Embeds = &e.embeds
			}
			me.AllowedMentions = noMentions()
			if err := api.Edit(ctx, me); err != nil {
				b.log.Warn("could not edit a message", "channel", channel, "message", e.message, "err", err)
				if e.repost {
					b.post(ctx, channel, effect{kind: effPost, content: strPtr(""), embeds: e.embeds, components: e.components, remember: rememberBoard})
				}
			}
		case effPost:
			b.post(ctx, channel, e)
		case effFinish:
			b.finish(ctx, channel)
		}
	}
}

// post sends a message (or, with e.message set, only records that
// message) and remembers its id as e.remember says.
func (b *Bot) post(ctx context.Context, channel string, e effect) {
	id := e.message
	if id == "" {
		ms := &discordgo.MessageSend{Embeds: e.embeds, AllowedMentions: noMentions()}
		if e.content != nil {
			ms.Content = *e.content
		}
		if e.components != nil {
			ms.Components = *e.components
		}
		if len(e.mention) > 0 {
			ms.AllowedMentions = &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}, Users: e.mention}
		}
		msg, err := b.apiFor(ctx).Send(ctx, channel, ms)
		if err != nil {
			b.log.Error("could not post a message", "channel", channel, "err", err)
			return
		}
		id = msg.ID
	}
	switch e.remember {
	case rememberBoard:
		b.remember(ctx, channel, id)
	case rememberPing:
		b.rememberPing(ctx, channel, id)
	}
}

// rememberPing records the ping of the pending decision. A ping it
// replaces (one whose closing this update raced with) is closed.
func (b *Bot) rememberPing(ctx context.Context, channel, message string) {
	sctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	old, lang, board := "", "", ""
	_, err := b.store.Update(sctx, channel, "", func(r *dixbot.Record) error {
		m, err := decodeMeta(r.Meta)
		if err != nil {
			return err
		}
		old, m.Ping, lang, board = m.Ping, message, m.Lang, m.Board
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
	if old != "" && old != message {
		b.run(ctx, channel, []effect{closePingEffect(lang, guildOf(ctx), channel, board, old)})
	}
}

// postBoard posts a fresh board notifying the player who must act when
// ping is set (unless it is the clicker), and records its id.
func (b *Bot) postBoard(ctx context.Context, channel string, m *meta, g *engine.Game, clicker string, ping bool) {
	var mention []string
	if ping {
		mention = nextDeciders(m, g, clicker)
	}
	b.run(ctx, channel, []effect{postBoardEffect(m, g, mention)})
}
