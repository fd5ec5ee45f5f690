package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	dixbot "github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/computer"
	cdix "github.com/dixgame/dixbot/computer/dix"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/locales"
)

// table is one channel of the stand-in with its players, played only
// through slash commands and clicks, as people would.
type table struct {
	t       *testing.T
	fake    *fakediscord.Server
	store   func() dixbot.Store // the running program's store
	guild   fakediscord.Guild
	channel fakediscord.Channel
	users   []fakediscord.User
	rng     *rand.Rand
	weights map[string]int // how often the random player picks each verb
	// think is how long a player takes per decision on the stand-in's
	// clock (thinkTime unless a test plays faster); slowest is the
	// slowest answer to a command or click so far.
	think   time.Duration
	slowest time.Duration
	// turns counts the turns the people's decisions were made in: one
	// for the first, one more whenever the seat whose turn it is changed
	// between two of them (computer seats' whole turns are not seen).
	turns int
	// moved counts the decisions made again because the game had moved
	// on by itself meanwhile (decide; at most maxMoved).
	moved int
	// deciding is the Seq of the decision under way plus one (0: none):
	// a button of it gone because the game moved past it is not waited
	// for (click).
	deciding uint64
	// busy counts the clicks answered that the store was unreachable,
	// changing nothing (decide; at most maxBusy).
	busy int
}

// maxBusy bounds the clicks a table's driver makes again because the
// store did not answer in the time a click has, on a loaded machine.
const maxBusy = 10

// movedOn reports whether the game moved past the decision under way
// (decide) by itself: a decision out of time.
func (tb *table) movedOn() bool {
	if tb.deciding == 0 {
		return false
	}
	g := gameOf(tb.t, tb.record())
	return g == nil || uint64(g.Seq) >= tb.deciding
}

// final is r, the first answer to ix, unless r defers it (a busy machine
// or a slow store): then the answer it stands for once it is there, as if
// it had come at once: the "thinking…" message once it says something, a
// follow-up (type 4), or the message clicked once edited (type 7).
func (tb *table) final(ix *fakediscord.Interaction, r *fakediscord.Response) *fakediscord.Response {
	tb.t.Helper()
	if r.Type != fakediscord.CallbackDeferredChannelMessage && r.Type != fakediscord.CallbackDeferredUpdateMessage {
		return r
	}
	var out *fakediscord.Response
	err := waitUntil(waitCtx(tb.t), tb.fake, func() bool {
		// The answer itself first: the follow-ups of the work after it
		// (a new board) come later.
		if cur, ok := ix.Response(); ok && cur.Message != nil {
			m := cur.Message
			switch {
			case r.Type == fakediscord.CallbackDeferredChannelMessage && !m.Loading():
				out = &fakediscord.Response{Type: fakediscord.CallbackChannelMessage, At: r.At, Latency: r.Latency, Message: m}
			case r.Type == fakediscord.CallbackDeferredUpdateMessage && !m.EditedTimestamp.Before(r.At):
				out = &fakediscord.Response{Type: fakediscord.CallbackUpdateMessage, At: r.At, Latency: r.Latency, Message: m}
			}
		}
		if f := ix.Followups(); out == nil && len(f) > 0 {
			out = &fakediscord.Response{Type: fakediscord.CallbackChannelMessage, At: r.At, Latency: r.Latency, Message: &f[0]}
		}
		return out != nil
	})
	if err != nil && r.Message != nil {
		tb.explainGone(r.Message.ID)
	}
	require.NoError(tb.t, err, "the deferred answer never came: %s", describe(r))
	return out
}

// stuck logs the stacks of the program's goroutines that are in the bot's
// own code, for an interaction left unanswered.
func stuck(t *testing.T) {
	t.Helper()
	buf := make([]byte, 8<<20)
	buf = buf[:runtime.Stack(buf, true)]
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "dixbot/bot.") && !strings.Contains(g, "e2e.") {
			t.Logf("goroutine in the bot:\n%s", g)
		}
	}
}

// answered notes the latency of an answer.
func (tb *table) answered(r *fakediscord.Response) {
	tb.slowest = max(tb.slowest, r.Latency)
}

// newTable creates a guild (with the given preferred locale), a channel and
// users named after names, each with their locale ("en-US" unless given as
// "Name/locale").
func newTable(t *testing.T, fake *fakediscord.Server, guildLocale string, names ...string) *table {
	t.Helper()
	g := fake.AddGuild(fakediscord.GuildSpec{Name: "DIX club", PreferredLocale: guildLocale})
	ch, err := fake.AddChannel(g.ID, "dix")
	require.NoError(t, err)
	tb := &table{t: t, fake: fake, guild: g, channel: ch, rng: rand.New(rand.NewPCG(1, uint64(len(names)))), think: thinkTime}
	for _, n := range names {
		name, locale, ok := strings.Cut(n, "/")
		if !ok {
			locale = "en-US"
		}
		u := fake.AddUser(fakediscord.UserSpec{Name: name, Locale: locale})
		require.NoError(t, fake.AddMember(g.ID, u.ID, 0))
		tb.users = append(tb.users, u)
	}
	return tb
}

// command runs a slash command and returns the bot's answer.
func (tb *table) command(user fakediscord.User, line string) *fakediscord.Response {
	tb.t.Helper()
	ctx := waitCtx(tb.t)
	ix, err := tb.fake.RunCommand(ctx, user.ID, tb.channel.ID, line)
	require.NoError(tb.t, err, "%s as %s", line, user.Username)
	r, err := ix.Wait(ctx)
	require.NoError(tb.t, err, "answer to %s", line)
	tb.answered(r)
	return tb.final(ix, r)
}

// click clicks a button as user and returns the bot's answer.
func (tb *table) click(user fakediscord.User, msgID, customID string) *fakediscord.Response {
	tb.t.Helper()
	ctx := waitCtx(tb.t)
	ix, err := tb.fake.Click(ctx, user.ID, msgID, customID)
	// A board edit that repairs an older render landing after a newer
	// answer can take the button away for a moment; the stand-in then
	// delivers nothing, and a person clicks again once the board shows
	// the game as it stands. A board that never comes back still fails.
	for end := time.Now().Add(15 * time.Second); errors.Is(err, fakediscord.ErrUnknownComponent) && time.Now().Before(end); {
		if tb.movedOn() {
			return nil // the decision was taken out of time: gone for good
		}
		time.Sleep(50 * time.Millisecond)
		ix, err = tb.fake.Click(ctx, user.ID, msgID, customID)
	}
	if err != nil {
		tb.explainGone(msgID)
	}
	require.NoError(tb.t, err, "click %s as %s", customID, user.Username)
	r, err := ix.Wait(ctx)
	if err != nil {
		stuck(tb.t)
	}
	require.NoError(tb.t, err, "answer to %s", customID)
	tb.answered(r)
	if id, ok := parseCustomID(customID); ok && r.Type == fakediscord.CallbackDeferredUpdateMessage {
		return tb.finalOf(ix, r, id.version)
	}
	return tb.final(ix, r)
}

// finalOf is final for a deferred click on a game button of version v.
// The board clicked on may show a newer state before the click's own edit
// is made, which the bot then leaves out (an older render never follows a
// newer one): the click is applied once the game is past v, and the board
// changed after the click.
func (tb *table) finalOf(ix *fakediscord.Interaction, r *fakediscord.Response, v uint64) *fakediscord.Response {
	tb.t.Helper()
	clicked := r.At.Add(-r.Latency)
	var out *fakediscord.Response
	err := waitUntil(waitCtx(tb.t), tb.fake, func() bool {
		cur, ok := ix.Response()
		if !ok || cur.Message == nil {
			return false
		}
		m := cur.Message
		switch {
		case !m.EditedTimestamp.Before(r.At):
			out = &fakediscord.Response{Type: fakediscord.CallbackUpdateMessage, At: r.At, Latency: r.Latency, Message: m}
		case !m.EditedTimestamp.Before(clicked):
			if rec := tb.record(); gameOf(tb.t, rec) == nil || uint64(version(tb.t, rec)) > v {
				out = &fakediscord.Response{Type: fakediscord.CallbackUpdateMessage, At: r.At, Latency: r.Latency, Message: m}
			}
		}
		// Or a follow-up: the click refused once deferred (the game moved
		// on meanwhile, or the store stayed unreachable).
		if f := ix.Followups(); out == nil && len(f) > 0 {
			out = &fakediscord.Response{Type: fakediscord.CallbackChannelMessage, At: r.At, Latency: r.Latency, Message: &f[0]}
		}
		return out != nil
	})
	if err != nil && r.Message != nil {
		tb.explainGone(r.Message.ID)
	}
	require.NoError(tb.t, err, "the deferred answer never came: %s", describe(r))
	return out
}

// explainGone logs what a message showed over time and the channel's
// latest messages, for a click whose button is gone.
func (tb *table) explainGone(msgID string) {
	tb.t.Helper()
	ids := func(cs []fakediscord.Component) []string {
		var out []string
		for _, c := range cs {
			if c.CustomID != "" {
				out = append(out, c.CustomID)
			}
			for _, sub := range c.Components {
				if sub.CustomID != "" {
					out = append(out, sub.CustomID)
				}
			}
		}
		return out
	}
	if m, ok := tb.fake.Message(msgID); ok {
		for _, r := range m.History {
			tb.t.Logf("message %s until %s: %v (%s)", msgID, r.ReplacedAt.Format("15:04:05.000"), ids(r.Components), r.By)
		}
		tb.t.Logf("message %s now: %v (%s)", msgID, ids(m.Components), m.EditedBy)
	}
	msgs := tb.fake.Transcript(tb.channel.ID)
	for _, m := range msgs[max(0, len(msgs)-5):] {
		tb.t.Logf("latest %s at %s: %q %v", m.ID, m.Timestamp.Format("15:04:05.000"), firstLine(m.Content), ids(m.Components))
	}
	ixs := tb.fake.Interactions()
	slices.SortFunc(ixs, func(a, b fakediscord.InteractionReport) int { return strings.Compare(a.ID, b.ID) })
	for _, ix := range ixs[max(0, len(ixs)-5):] {
		tb.t.Logf("interaction %s type %d by %s: answered %v with %d after %v", ix.ID, ix.Type, ix.UserID, ix.Responded, ix.CallbackType, ix.Latency)
	}
	if rec := tb.record(); rec != nil && gameOf(tb.t, rec) != nil {
		tb.t.Logf("record version %d", version(tb.t, rec))
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// pick chooses values in a select menu as user and returns the answer.
func (tb *table) pick(user fakediscord.User, msgID, customID string, values ...string) *fakediscord.Response {
	tb.t.Helper()
	ctx := waitCtx(tb.t)
	ix, err := tb.fake.Select(ctx, user.ID, msgID, customID, values...)
	require.NoError(tb.t, err, "select %s %v as %s", customID, values, user.Username)
	r, err := ix.Wait(ctx)
	require.NoError(tb.t, err, "answer to %s", customID)
	tb.answered(r)
	return tb.final(ix, r)
}

// record reads the channel's record (active, else archived).
func (tb *table) record() *dixbot.Record {
	tb.t.Helper()
	r, err := getRecord(waitCtx(tb.t), tb.store(), tb.channel.ID)
	require.NoError(tb.t, err, "reading the channel's game")
	return r
}

// stateBytes is the serialised engine state of the channel's game (the
// table data while it is a lobby).
func (tb *table) stateBytes() []byte {
	tb.t.Helper()
	r := tb.record()
	if r.Data == nil {
		return r.Meta
	}
	return r.Data
}

// gameOf is the DIX game r holds (nil: a lobby).
func gameOf(t *testing.T, r *dixbot.Record) *dix.Game {
	t.Helper()
	if r == nil || r.Data == nil {
		return nil
	}
	require.Equal(t, "dix", r.Game, "the channel's game")
	st, err := dix.Rules{}.Decode(r.Data)
	require.NoError(t, err, "the stored game")
	return st.(dix.State).Game()
}

// tableMeta is the part of the table's data (its JSON form in
// Record.Meta) these tests read: who sits in which seat, and the lobby's
// counter, added to the game's version in the buttons' custom ids.
type tableMeta struct {
	Seats []struct {
		User  string `json:"u"`
		Level string `json:"cpu"`
		Away  bool   `json:"aw"`
	} `json:"s"`
	Lobby uint32 `json:"lc"`
	Board string `json:"b"`
	Pace  string `json:"pc"`
}

func readMeta(t *testing.T, r *dixbot.Record) tableMeta {
	t.Helper()
	var m tableMeta
	require.NoError(t, json.Unmarshal(r.Meta, &m), "the table's data")
	return m
}

// seats lists the Discord user of each seat ("" for a computer seat, and
// for a person's seat the computer plays once they left).
func seats(t *testing.T, r *dixbot.Record) []string {
	t.Helper()
	m := readMeta(t, r)
	ids := make([]string, len(m.Seats))
	for i, s := range m.Seats {
		if s.Level == "" {
			ids[i] = s.User
		}
	}
	return ids
}

// version is the version the game's buttons carry now: the game's.
func version(t *testing.T, r *dixbot.Record) uint32 {
	t.Helper()
	return gameOf(t, r).Seq
}

func (tb *table) user(id string) fakediscord.User {
	tb.t.Helper()
	for _, u := range tb.users {
		if u.ID == id {
			return u
		}
	}
	tb.t.Fatalf("user %s is not at this table", id)
	return fakediscord.User{}
}

// customID is a parsed "dix:<verb>:<version>[:<arg>]" component id.
type customID struct {
	verb    string
	version uint64
	arg     string
	raw     string
}

func parseCustomID(s string) (customID, bool) {
	parts := strings.SplitN(s, ":", 4)
	if len(parts) < 3 || parts[0] != "dix" {
		return customID{}, false
	}
	v, err := strconv.ParseUint(parts[2], 10, 64)
	if err != nil {
		return customID{}, false
	}
	c := customID{verb: parts[1], version: v, raw: s}
	if len(parts) > 3 {
		c.arg = parts[3]
	}
	return c, true
}

// components lists the interactive components of a message with their ids.
func components(m fakediscord.Message) []fakediscord.Component {
	var out []fakediscord.Component
	for _, row := range m.Components {
		for _, c := range row.Components {
			if c.CustomID != "" && !c.Disabled {
				out = append(out, c)
			}
		}
	}
	return out
}

// decisionButtons are m's buttons of state version v that decide or open
// the clicker's prompt: the moves by their move ("mv" ids), the prompt
// under "pr".
func decisionButtons(m fakediscord.Message, v uint32) map[string]customID {
	buttons := map[string]customID{}
	for _, c := range components(m) {
		id, ok := parseCustomID(c.CustomID)
		if !ok || id.version != uint64(v) {
			continue
		}
		switch id.verb {
		case "mv":
			buttons[id.arg] = id
		case "pr":
			buttons["pr"] = id
		}
	}
	return buttons
}

// boardFor waits for the public message carrying the decision buttons of
// the record's current state (the bot may post a fresh board after
// answering).
func (tb *table) boardFor(rec *dixbot.Record) (fakediscord.Message, map[string]customID) {
	tb.t.Helper()
	m, buttons, _ := tb.waitBoard(rec, false)
	return m, buttons
}

// boardOrMoved is boardFor, or moved true when the game moves past rec
// (or ends) first: on a loaded machine, seconds-long banks can run out
// and the computer decide before the board of rec shows.
func (tb *table) boardOrMoved(rec *dixbot.Record) (fakediscord.Message, map[string]customID, bool) {
	tb.t.Helper()
	return tb.waitBoard(rec, true)
}

// waitBoard waits for the board of rec's state, or, with orMoved, for the
// game to move past it (moved true, no buttons).
func (tb *table) waitBoard(rec *dixbot.Record, orMoved bool) (fakediscord.Message, map[string]customID, bool) {
	tb.t.Helper()
	seq := version(tb.t, rec)
	var (
		m       fakediscord.Message
		buttons map[string]customID
	)
	err := tb.fake.WaitFor(waitCtx(tb.t), func() bool {
		msgs := tb.fake.VisibleMessages(tb.channel.ID, "")
		for i := len(msgs) - 1; i >= 0; i-- {
			if buttons = decisionButtons(msgs[i], seq); len(buttons) > 0 {
				m = msgs[i]
				return true
			}
		}
		if !orMoved {
			return false
		}
		now := tb.record()
		g := gameOf(tb.t, now)
		return now.Finished || g == nil || g.Seq != seq || g.Phase == dix.PhaseOver
	})
	if err != nil {
		last, _ := tb.fake.LatestPublic(tb.channel.ID)
		tb.explainGone(last.ID)
		tb.t.Fatalf("no board with buttons for state %d: %v; latest public message: %q %+v", seq, err, last.Content, last.Components)
	}
	return m, buttons, len(buttons) == 0
}

// decision is what the seat to act decides: the normal computer player's
// decision, or the easy one's now and then, so games see busts, auctions
// and purchases.
func (tb *table) decision(g *dix.Game, seat int) dix.Action {
	lvl := computer.Normal
	if tb.rng.IntN(4) == 0 {
		lvl = computer.Easy
	}
	return cdix.Decide(g, seat, lvl, tb.rng)
}

// maxMoved bounds the decisions a table's driver makes again because the
// game moved on by itself between the board read and the click.
const maxMoved = 20

// decide makes one decision of the player to act, by clicks only, and
// checks that it was applied exactly once (Seq grew). It returns false when
// the game is over.
func (tb *table) decide() bool {
	tb.t.Helper()
	// The log before the record: a decision out of time after this read
	// is counted below, even one taken before the record is read.
	logged := logLines(tb.t, tb.store(), tb.channel.ID)
	rec := tb.record()
	g := gameOf(tb.t, rec)
	require.NotNil(tb.t, g, "the game has started")
	if rec.Finished || g.Phase == dix.PhaseOver {
		return false
	}
	seat := g.ToAct()
	require.GreaterOrEqual(tb.t, seat, 0)
	user := tb.user(seats(tb.t, rec)[seat])
	board, buttons, moved := tb.boardOrMoved(rec)
	if moved {
		// The game moved on by itself (decisions out of time) before
		// its board showed this state: decided on as it stands.
		return true
	}
	a := tb.decision(g, seat)
	m := string(dix.FormatMove(a))
	tb.deciding = uint64(g.Seq) + 1
	defer func() { tb.deciding = 0 }()
	outs := timedOutIn(logged, user.Username)
	var r *fakediscord.Response
	if id, ok := buttons[m]; ok {
		r = tb.click(user, board.ID, id.raw)
		if r != nil && r.Ephemeral() && tb.movedOn() {
			r = nil // refused as outdated: the decision was taken out of time
		}
	} else {
		pr, ok := buttons["pr"]
		require.True(tb.t, ok, "no button for %q nor a prompt on the board: %v", m, slices.Collect(maps.Keys(buttons)))
		opened := tb.click(user, board.ID, pr.raw)
		switch {
		case opened == nil:
		case !opened.Ephemeral() && tb.moved < maxMoved:
			// The answer is the board brought up to date.
			require.Greater(tb.t, gameOf(tb.t, tb.record()).Seq, g.Seq, "a board's prompt answered publicly though the game had not moved: %s", describe(opened))
			opened = nil
		default:
			r = tb.throughPrompt(user, opened, a)
		}
		if opened == nil {
			r = nil
		}
	}
	if r != nil && r.Ephemeral() && r.Message != nil &&
		strings.Contains(r.Message.Content, locales.T(locales.For(user.Locale), "err_store_unavailable", nil)) &&
		gameOf(tb.t, tb.record()).Seq == g.Seq {
		// The store did not answer in the time a click has (a loaded
		// machine): the click changed nothing and said so; the player
		// tries again, as a person would.
		tb.busy++
		require.Less(tb.t, tb.busy, maxBusy, "clicks answered that the store was unreachable")
		return true
	}
	if r == nil {
		// The game moved on between the board read and the decision (a
		// decision out of time, on a machine slower than the game's
		// clock): the decision is made again on the game as it stands.
		require.Less(tb.t, tb.moved, maxMoved, "decisions made again because the game moved on")
		require.Greater(tb.t, gameOf(tb.t, tb.record()).Seq, g.Seq, "a decision given up though the game had not moved")
		// The computer took it: out of time, or at once for a seat whose
		// player is away (after two decisions out of time in a row).
		away := clockSeats(tb.t, rec)[seat].Away || clockSeats(tb.t, tb.record())[seat].Away
		if !away && timedOut(tb.t, tb.store(), tb.channel.ID, user.Username) <= outs {
			lines := logLines(tb.t, tb.store(), tb.channel.ID)
			tb.t.Fatalf("a decision of %s given up though the computer did not take it; the log ends:\n%s",
				user.Username, strings.Join(lines[max(0, len(lines)-8):], "\n"))
		}
		tb.moved++
		return true
	}
	after := gameOf(tb.t, tb.record())
	// One action, then those with a single possible answer (taken by themselves).
	require.Greater(tb.t, after.Seq, g.Seq, "deciding %s applied its action (answer: %s)", m, describe(r))
	if tb.turns == 0 {
		tb.turns = 1
	}
	if after.Active != g.Active && after.Phase != dix.PhaseOver {
		tb.turns++
	}
	// The player took thinkTime to decide: Discord's rate-limit windows,
	// counted on the stand-in's clock, see a human pace.
	tb.fake.Advance(tb.think)
	return true
}

// throughPrompt makes decision a from the private prompt r shows: its
// move when a button or the menu offers it, else the steps towards it (a
// colour of the market, a card, a page of bids); a payment is the first
// the payment step proposes.
func (tb *table) throughPrompt(user fakediscord.User, r *fakediscord.Response, a dix.Action) *fakediscord.Response {
	tb.t.Helper()
	m := string(dix.FormatMove(a))
	for k := 0; ; k++ {
		if r == nil {
			return nil // the game moved on (click)
		}
		require.True(tb.t, r.Ephemeral(), "the prompt is private: %s", describe(r))
		if r.Message != nil && strings.HasPrefix(r.Message.Content, "⚠️") && tb.movedOn() {
			// A step refused (the prompt keeps its steps under the
			// refusal) because the decision was taken out of time
			// meanwhile: another seat decides now.
			return nil
		}
		require.Less(tb.t, k, 12, "no way to %q through the prompt: %s", m, describe(r))
		msg := *r.Message
		var moves []customID
		var sel fakediscord.Component
		for _, c := range components(msg) {
			id, ok := parseCustomID(c.CustomID)
			switch {
			case !ok:
			case id.verb == "mv" && id.arg == m:
				return tb.click(user, msg.ID, id.raw)
			case id.verb == "mv":
				moves = append(moves, id)
			case id.verb == "sel":
				sel = c
			}
		}
		values := map[string]bool{}
		for _, o := range sel.Options {
			values[o.Value] = true
		}
		next := ""
		switch {
		case values["mv:"+m]:
			return tb.pick(user, msg.ID, sel.CustomID, "mv:"+m)
		case (a.Kind == dix.ActBuy || a.Kind == dix.ActPay) && len(moves) > 0:
			return tb.click(user, msg.ID, moves[0].raw) // the payment proposed
		case a.Kind == dix.ActBuy && values["st:b "+a.Card.String()]:
			next = "st:b " + a.Card.String()
		case a.Kind == dix.ActBuy && values["st:c "+a.Card.Color.String()]:
			next = "st:c " + a.Card.Color.String()
		case a.Kind == dix.ActBid:
			for _, o := range sel.Options {
				if from, ok := strings.CutPrefix(o.Value, "st:a "); ok {
					if n, _ := strconv.Atoi(from); n <= a.Amount {
						next = o.Value
					}
				}
			}
		}
		if next == "" && len(components(msg)) == 0 && tb.movedOn() {
			return nil // refused: the decision was taken out of time meanwhile
		}
		require.NotEmpty(tb.t, next, "no step towards %q on the prompt: %s %v", m, describe(r), slices.Collect(maps.Keys(values)))
		r = tb.pick(user, msg.ID, sel.CustomID, next)
	}
}

func hasVerb(m fakediscord.Message, verb string) bool {
	for _, c := range components(m) {
		if id, ok := parseCustomID(c.CustomID); ok && id.verb == verb {
			return true
		}
	}
	return false
}

// describe summarises an answer for failure messages.
func describe(r *fakediscord.Response) string {
	if r == nil {
		return "<no answer>"
	}
	s := fmt.Sprintf("type %d", r.Type)
	if r.Message != nil {
		s += fmt.Sprintf(" ephemeral=%v content=%q", r.Message.Ephemeral(), r.Message.Content)
		for _, e := range r.Message.Embeds {
			s += fmt.Sprintf(" embed=%q", e.Title)
		}
	}
	return s
}

// playUntil makes decisions until cond holds for the stored game.
func (tb *table) playUntil(cond func(*dix.Game) bool) *dixbot.Record {
	tb.t.Helper()
	for i := 0; ; i++ {
		require.Less(tb.t, i, 5000, "the game never reached the condition")
		rec := tb.record()
		if cond(gameOf(tb.t, rec)) {
			return rec
		}
		require.True(tb.t, tb.decide(), "the game ended before the condition held")
	}
}

// playToEnd makes decisions until the game is over.
func (tb *table) playToEnd() {
	tb.t.Helper()
	for i := 0; ; i++ {
		require.Less(tb.t, i, 5000, "the game never ended")
		if !tb.decide() {
			return
		}
	}
}

// lobby opens a lobby with /dix start as the first user, has the others
// join, and starts the game. It returns the board message of the first turn.
func (tb *table) lobby(startLine string) {
	tb.t.Helper()
	r := tb.command(tb.users[0], startLine)
	require.NotNil(tb.t, r.Message, "the lobby: %s", describe(r))
	lobby := *r.Message
	for _, u := range tb.users[1:] {
		lobby = tb.clickVerb(u, lobby, "join")
	}
	tb.clickVerb(tb.users[0], lobby, "go")
	rec := tb.record()
	require.NotNil(tb.t, gameOf(tb.t, rec), "the game started")
	assert.Len(tb.t, seats(tb.t, rec), len(tb.users))
}

// clickVerb clicks the button of verb on m and returns m as it is after the
// answer.
func (tb *table) clickVerb(u fakediscord.User, m fakediscord.Message, verb string) fakediscord.Message {
	tb.t.Helper()
	for _, c := range components(m) {
		if id, ok := parseCustomID(c.CustomID); ok && id.verb == verb {
			r := tb.click(u, m.ID, c.CustomID)
			require.False(tb.t, r.Ephemeral(), "%s by %s refused: %s", verb, u.Username, describe(r))
			now, ok := tb.fake.Message(m.ID)
			require.True(tb.t, ok)
			return now
		}
	}
	tb.t.Fatalf("no %s button on message %q", verb, m.Content)
	return m
}

// checkScoreboard waits for the final scoreboard and checks that it shows
// the engine's results of the stored game: each player's rank order, name
// and total.
func (tb *table) checkScoreboard(names []string) fakediscord.Message {
	tb.t.Helper()
	rec := tb.record()
	require.Equal(tb.t, dix.PhaseOver, gameOf(tb.t, rec).Phase)
	res := gameOf(tb.t, rec).Results()
	m, err := tb.fake.WaitMessage(waitCtx(tb.t), tb.channel.ID, "", func(m fakediscord.Message) bool {
		if len(m.Embeds) == 0 {
			return false
		}
		title := m.Embeds[0].Title
		return title == locales.T("en", "dix_score_title", nil) || title == locales.T("fr", "dix_score_title", nil)
	})
	require.NoError(tb.t, err, "the final scoreboard")
	// The game is archived once the scoreboard is out.
	err = waitUntil(waitCtx(tb.t), tb.fake, func() bool { return tb.record().Finished })
	require.NoError(tb.t, err, "the finished game is archived")
	fields := m.Embeds[0].Fields
	require.Len(tb.t, fields, len(res), "one row per player")
	for i, r := range res {
		assert.Contains(tb.t, fields[i].Name, names[r.Player], "row %d is seat %d", i, r.Player)
		assert.Contains(tb.t, fields[i].Name, strconv.Itoa(r.Score.Total), "row %d shows %s's score", i, names[r.Player])
	}
	return m
}

// noViolations checks that the stand-in saw no breach of Discord's rules.
func noViolations(t *testing.T, fake *fakediscord.Server) {
	t.Helper()
	assert.Empty(t, fake.Violations(), "protocol violations")
	for _, r := range fake.Interactions() {
		assert.True(t, r.Responded && r.InTime, "interaction %s answered in time (latency %v, callback %d)", r.ID, r.Latency, r.CallbackType)
	}
}

// waitUntil re-checks cond after every change in the stand-in and every
// few milliseconds (for conditions on the store, which the stand-in does not
// see), until it holds or ctx ends.
func waitUntil(ctx context.Context, fake *fakediscord.Server, cond func() bool) error {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		changed := fake.Changes()
		if cond() {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-changed:
		case <-tick.C:
		}
	}
}

// getRecord reads a channel's record, retrying while the store reports
// itself unavailable (a store call has a short deadline, which a loaded test
// machine can miss; the reads of the test are not what is under test).
func getRecord(ctx context.Context, st dixbot.Store, channel string) (*dixbot.Record, error) {
	for {
		r, err := st.Get(ctx, channel)
		if !errors.Is(err, dixbot.ErrUnavailable) || ctx.Err() != nil {
			return r, err
		}
		select {
		case <-ctx.Done():
			return r, err
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// gameButton returns the custom id of m's button of game and verb (and
// argument, when given).
func gameButton(game string, m fakediscord.Message, verb, arg string) (string, bool) {
	for _, c := range components(m) {
		parts := strings.SplitN(c.CustomID, ":", 4)
		if len(parts) < 3 || parts[0] != game || parts[1] != verb {
			continue
		}
		if arg == "" || (len(parts) == 4 && parts[3] == arg) {
			return c.CustomID, true
		}
	}
	return "", false
}

// gameClick clicks m's button of game and verb (and argument) as u; the
// answer must be the message updated in place. The button may come with
// an edit of m still on its way (the game the test read from the store is
// ahead of the board until the edit after the last answer lands).
func (tb *table) gameClick(game string, u fakediscord.User, m fakediscord.Message, verb, arg string) fakediscord.Message {
	tb.t.Helper()
	id, ok := gameButton(game, m, verb, arg)
	if !ok {
		_ = waitUntil(waitCtx(tb.t), tb.fake, func() bool {
			if now, found := tb.fake.Message(m.ID); found {
				m = now
			}
			id, ok = gameButton(game, m, verb, arg)
			return ok
		})
	}
	require.True(tb.t, ok, "no %s:%s:%s button on %q", game, verb, arg, m.Content)
	r := tb.click(u, m.ID, id)
	require.False(tb.t, r.Ephemeral(), "%s by %s refused: %s", id, u.Username, describe(r))
	now, ok := tb.fake.Message(m.ID)
	require.True(tb.t, ok)
	return now
}

// openGame opens a game of the table's people alone with /<game> start and
// returns its board.
func (tb *table) openGame(game string) fakediscord.Message {
	tb.t.Helper()
	r := tb.command(tb.users[0], "/"+game+" start")
	require.NotNil(tb.t, r.Message)
	require.False(tb.t, r.Ephemeral(), "the lobby: %s", describe(r))
	board := *r.Message
	for _, u := range tb.users[1:] {
		board = tb.gameClick(game, u, board, "join", "")
	}
	return tb.gameClick(game, tb.users[0], board, "go", "")
}

// gameVerbs are the verbs of the board's decision buttons: a move, and
// the button that opens the clicker's prompt.
var gameVerbs = []string{"mv", "pr"}

// dixOf is the DIX game r holds: nil for a lobby, a record of another
// game or one that does not decode (gameOf says why).
func dixOf(r *dixbot.Record) *dix.Game {
	if r == nil || r.Data == nil || r.Game != "dix" {
		return nil
	}
	st, err := dix.Rules{}.Decode(r.Data)
	if err != nil {
		return nil
	}
	return st.(dix.State).Game()
}

// choose picks one of buttons at random, drawing more often than not.
func (tb *table) choose(buttons map[string]customID) customID {
	tb.t.Helper()
	require.NotEmpty(tb.t, buttons)
	if id, ok := buttons["draw"]; ok && tb.rng.IntN(3) > 0 {
		return id
	}
	keys := slices.Sorted(maps.Keys(buttons))
	return buttons[keys[tb.rng.IntN(len(keys))]]
}
