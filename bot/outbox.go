package bot

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot"
)

// The outbox: what a change of the game asks of Discord besides the answer
// to the click (a fresh board, a ping, retiring an old board, the final
// scoreboard) is written as effects into the table data by the same
// exactly-once store update as the change itself, with the record's Due
// time a few seconds ahead. The process that made the change then does the
// effects and removes them; if it dies first, any process finds the game
// through Store.Due once the grace is over,
// claims it by moving Due on, and does them. Effects are idempotent: a
// message is posted with a nonce Discord deduplicates, and edits set a
// message to what it must show, so doing one twice shows it once.

// effect is one piece of Discord work owed by a change of the game.
type effect struct {
	ID    uint32   `json:"i"`
	Kind  string   `json:"k"`
	Msg   string   `json:"m,omitempty"`
	Users []string `json:"u,omitempty"` // users to mention
	Text  string   `json:"x,omitempty"`
	// Again marks an edit owed because an older render of the board may
	// have landed after a newer one: no answer counts as having made it.
	// By is the process whose render that was (Bot.self): its own fence
	// orders its requests, so it alone may leave the edit out where its
	// last render showed the game as it stands; another process's fence
	// says nothing of when that render landed.
	Again bool   `json:"a,omitempty"`
	By    string `json:"by,omitempty"`
	// Via is the interaction that can edit Msg (games' settled
	// pings; nil: the bot token).
	Via *Via `json:"v,omitempty"`
	// Claimed marks a lobby owed whose showing a run has begun: a start
	// asked again no longer answers with the lobby (lobby.go).
	Claimed bool `json:"c,omitempty"`
}

// outboxGrace is how long the process that made a change has to do its
// effects before any process may take them over; outboxLease how long a
// process that took them over has before another may.
const (
	outboxGrace = 3 * time.Second
	outboxLease = 30 * time.Second
)

// ErrNothingToDo ends an update that finds nothing to do (a claim on a game
// whose effects are not, or no longer, due).
var ErrNothingToDo = errors.New("bot: nothing due")

// holdMargin is how long before the end of its hold on a channel's
// effects a run stops posting on that hold alone: a message it posts
// lands within that time, before another process may take the effects
// over and look for it among the channel's messages. Past it, the run
// holds the effects longer (Keep) before it posts. Most of the grace:
// on a busy machine or a slow Discord a post may take more than a second
// to land, and the run that does its effects at once, as every run does
// on a quiet machine, posts well within the rest.
const holdMargin = outboxGrace * 5 / 6

// errHoldLost: another process took a channel's effects over (or the
// channel changed) while this run's hold on them was ending; the run
// leaves them to that process.
var errHoldLost = errors.New("bot: the effects were taken over")

// testHooks are the one seam through which tests change a Bot's timing:
// all zero in production, but for effectDelay, which the end-to-end tests
// set through Options.EffectDelay.
type testHooks struct {
	// effectDelay holds the effects a change owes, after its answer, for
	// this long: a test widens the window in which a process that dies
	// leaves them to another.
	effectDelay time.Duration
	// beforeEffects, when set, runs then, before a change's own effects.
	beforeEffects func()
	// foldWait, when set, replaces foldWait.
	foldWait time.Duration
}

// beforeEffects holds a change's own effects for the test hooks; nothing
// in production.
func (b *Bot) beforeEffects() {
	if d := b.hooks.effectDelay; d > 0 {
		time.Sleep(d)
	}
	if f := b.hooks.beforeEffects; f != nil {
		f()
	}
}

// leftForLater logs why a batch of effects stopped (err nil: it did not).
func (b *Bot) leftForLater(channel string, err error) {
	switch {
	case errors.Is(err, errHoldLost):
		b.log.Info("effects left to the process that took them over", "channel", channel)
	case err != nil:
		b.log.Warn("effects left for later", "channel", channel, "err", err)
	}
}

// Hold is a run's hold on the effects of a channel: the process whose
// change owes them holds them for the grace after it wrote the change, a
// process that claimed them for its lease (which a clock's moment due
// sooner may cut short). Only the holder posts a message for an effect:
// a follow-up carries no nonce, so two processes posting the same effect
// would show it twice.
type Hold struct {
	channel string
	until   time.Time // when another process may take the effects over
}

// newHold is the hold of a run on rec's effects: for the grace after the
// change was written when the run is that change's own (ix.held), else
// for the lease from now.
func newHold(rec *dixbot.Record, ix *Via) *Hold {
	h := &Hold{channel: rec.Channel, until: time.Now().Add(outboxLease)}
	if ix != nil && !ix.held.IsZero() {
		h.until = ix.held
	}
	return h
}

// heldBy is v holding the effects of the change written at written.
func heldBy(v *Via, written time.Time) *Via {
	if v != nil {
		v.held = written.Add(outboxGrace)
	}
	return v
}

// Keep makes sure the run still holds the effects before it posts a
// message. Near the end of the hold it moves the record's Due on by a
// lease, unless another process holds them by then; it then returns
// errHoldLost and leaves the effects to that process, which looks for the
// messages this run posted before posting them again. While effects are
// owed, a change (any click, of any process) keeps the record due within
// the grace (outboxDue, dixTable.owe); only a hold moves it further on: a
// claim's lease, or another process's own effects held longer. A claim
// and this update are both compare-and-set updates of the record, so one
// of them sees the other's.
func (b *Bot) Keep(ctx context.Context, h *Hold) error {
	now := time.Now()
	if h == nil || now.Before(h.until.Add(-holdMargin)) {
		return nil
	}
	sctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	// Due times are set from the table's clock (b.now) or the wall clock;
	// the later of the two reads both.
	ref := now
	if t := b.now(); t.After(ref) {
		ref = t
	}
	due := ref.Add(outboxLease)
	_, err := b.update(sctx, h.channel, "", func(r *dixbot.Record) error {
		if r.Due.After(ref.Add(outboxGrace)) {
			return errHoldLost
		}
		r.Due = due
		return nil
	})
	switch {
	case errors.Is(err, errHoldLost), errors.Is(err, dixbot.ErrNotFound):
		return errHoldLost
	case err != nil:
		return fmt.Errorf("%w: %w", errHoldLost, err)
	}
	h.until = now.Add(outboxLease)
	b.log.Info("effects held longer", "channel", h.channel)
	return nil
}

// RunDue does the pending work of a channel found by Store.Due as of asOf:
// it claims the game (moving its Due time on by a lease, so other processes
// leave it) and does its effects with the bot token of s. Use it as the
// handler of a schedule.Runner over the store. It returns nil when there
// was nothing to do (already done or taken by another process).
func (b *Bot) RunDue(ctx context.Context, s *discordgo.Session, channel string, asOf time.Time) error {
	return b.runDueOn(ctx, b.sessionAPI(s), channel, asOf)
}

func (b *Bot) runDueOn(ctx context.Context, d DiscordAPI, channel string, asOf time.Time) error {
	if b.batches.Busy(channel) {
		return nil // this process's own batch does the effects (internal/batches)
	}
	return b.runTableDue(ctx, d, channel, asOf)
}

// latestRecords is a store that knows, without a round trip, the latest
// record this process wrote or read (store.Redis).
type latestRecords interface {
	Latest(channel string, version uint64) (*dixbot.Record, bool)
}

// Latest is the newest record of rec's channel: the one this process
// wrote or read last when the store keeps it (no round trip; a later
// write of another process is then found by the compare-and-set of the
// update that records the effects done), else as stored.
func (b *Bot) Latest(ctx context.Context, rec *dixbot.Record) (*dixbot.Record, error) {
	if l, ok := b.store.(latestRecords); ok {
		if fresh, ok := l.Latest(rec.Channel, rec.Version); ok {
			if fresh == nil {
				return rec, nil
			}
			return fresh, b.upgrade(fresh)
		}
	}
	sctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	return b.get(sctx, rec.Channel)
}

// peek is the channel's record as this process last wrote or read it when
// the store keeps it (no round trip; another process may have written
// since), else as stored: for work the update checks again.
func (b *Bot) peek(ctx context.Context, channel string) (*dixbot.Record, error) {
	if l, ok := b.store.(latestRecords); ok {
		if rec, ok := l.Latest(channel, 0); ok && rec != nil {
			return rec, b.upgrade(rec)
		}
	}
	sctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	return b.get(sctx, channel)
}

// Via is an interaction whose token changes messages without the bot
// token: the answer to an interaction and its follow-up messages are made,
// and can be edited, with the interaction's own token for 15 minutes
// (https://discord.com/developers/docs/interactions/receiving-and-responding#followup-messages),
// and those requests do not count against the bot's global rate limit of
// 50 per second (https://discord.com/developers/docs/interactions/receiving-and-responding#endpoints).
// So the work a click owes (the next board, a ping, closing the last ping)
// is done through that click's interaction, and a message keeps the
// interaction it was made with so a later click can still edit it. The
// bot token is used only when no interaction is valid any more (a
// deadline acting hours later), or when the interaction's request fails.
type Via struct {
	App   string `json:"a"`
	Token string `json:"t"`
	At    int64  `json:"at"` // when the interaction arrived (Unix ms)
	// Orig is the message the interaction's answer updated (a click on a
	// button edits the message it sits on): it is edited as "@original".
	Orig string `json:"o,omitempty"`
	// Pic is the key of the board picture the answer put on Orig ("":
	// none, or not a board); never stored.
	Pic string `json:"-"`
	// held is when the hold of the change this interaction wrote on its
	// effects ends (zero: not known); never stored.
	held time.Time
}

// viaLife is how long an interaction's token is used after it arrived:
// Discord's 15 minutes, less a margin for the requests under way.
const viaLife = 14 * time.Minute

// usable reports whether v's token can still be used at now.
func (v *Via) usable(now time.Time) bool {
	return v != nil && v.Token != "" && now.Before(time.UnixMilli(v.At).Add(viaLife))
}

func (v *Via) Interaction() *discordgo.Interaction {
	return &discordgo.Interaction{AppID: v.App, Token: v.Token}
}

// laterID reports whether snowflake a was made after b.
func laterID(a, b string) bool {
	na, erra := strconv.ParseUint(strings.TrimLeft(a, "abcdefghijklmnopqrstuvwxyz-"), 10, 64)
	nb, errb := strconv.ParseUint(strings.TrimLeft(b, "abcdefghijklmnopqrstuvwxyz-"), 10, 64)
	return erra == nil && errb == nil && na > nb
}

// customIDs lists the custom ids of the components in rows, in order.
func customIDs(rows []discordgo.MessageComponent) []string {
	var out []string
	for _, row := range rows {
		var cs []discordgo.MessageComponent
		switch r := row.(type) {
		case *discordgo.ActionsRow:
			cs = r.Components
		case discordgo.ActionsRow:
			cs = r.Components
		}
		for _, c := range cs {
			switch b := c.(type) {
			case *discordgo.Button:
				out = append(out, b.CustomID)
			case discordgo.Button:
				out = append(out, b.CustomID)
			case *discordgo.SelectMenu:
				out = append(out, b.CustomID)
			case discordgo.SelectMenu:
				out = append(out, b.CustomID)
			}
		}
	}
	return out
}

func fnv32(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}

// permanent reports whether Discord refused a request for good (a client
// error other than a rate limit), so retrying it is pointless.
func permanent(err error) bool {
	var rerr *discordgo.RESTError
	if errors.As(err, &rerr) && rerr.Response != nil {
		code := rerr.Response.StatusCode
		return code >= 400 && code < 500 && code != http.StatusTooManyRequests
	}
	return false
}

// mentionUsers allows exactly users to be notified.
func mentionUsers(users []string) *discordgo.MessageAllowedMentions {
	am := noMentions()
	am.Users = append([]string(nil), users...)
	return am
}

func Mentions(users []string) string {
	parts := make([]string, len(users))
	for i, u := range users {
		parts[i] = "<@" + u + ">"
	}
	return strings.Join(parts, " ")
}
