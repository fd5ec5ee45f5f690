package dixtable

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
	dixview "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

// verbActions maps the one-click verbs to their engine action.
var verbActions = map[string]dix.ActionKind{
	verbDraw:    dix.ActDraw,
	verbStop:    dix.ActStop,
	verbNumbers: dix.ActTakeNumbers,
	verbMoney:   dix.ActTakeMoney,
	verbEndTurn: dix.ActEndTurn,
	verbConsol:  dix.ActConsolation,
	verbBustBuy: dix.ActBustBuy,
	verbPass:    dix.ActPass,
}

// seatFor checks that the clicking user may decide now in the game of r
// (table data m) at state version: ErrStale for an outdated version (or a
// game button on a lobby), ErrNotInGame for an outsider, ErrNotYourTurn
// naming the player whose decision it is.
func seatFor(c *bot.Call, r *dixbot.Record, m *dixTable, version uint32) (*dix.Game, *dixTable, int, error) {
	g := dix.GameOf(r.State)
	if g == nil && c.I.Message != nil && m.newerThanTable(c.I.Message.ID) {
		// A game button of this very table on a lobby: the store lost the
		// start of the game.
		return nil, nil, -1, fmt.Errorf("%w: a game button on a lobby", bot.ErrAhead)
	}
	if g == nil || (c.I.Message != nil && m.olderThanTable(c.I.Message.ID)) {
		return nil, nil, -1, bot.ErrStale
	}
	if err := bot.CheckVersion(version, m.version(g)); err != nil {
		return nil, nil, -1, err
	}
	s := m.seatOf(c.User)
	if s < 0 {
		return nil, nil, -1, bot.ErrNotInGame
	}
	if g.Phase == dix.PhaseOver {
		return nil, nil, -1, dix.ErrGameOver
	}
	if m.Seats[s].Gone != "" {
		return nil, nil, -1, bot.ErrHandedOver
	}
	if m.PausedBy != "" {
		return nil, nil, -1, bot.Refuse(bot.ErrPaused, "err_paused", map[string]any{"Name": m.PausedBy})
	}
	if actor := g.ToAct(); actor != s {
		return nil, nil, -1, bot.Refuse(bot.ErrNotYourTurn, "err_not_your_turn", map[string]any{"Name": m.name(c.Lang, actor)})
	}
	return g, m, s, nil
}

// peek loads the game without writing, for prompts: the same checks as seatFor.
func peek(c *bot.Call, version uint32) (*dix.Game, *dixTable, int, error) {
	r, m, err := table(c)
	if err != nil {
		return nil, nil, -1, err
	}
	return seatFor(c, r, m, version)
}

// peekChoice is peek for a prompt that opens one decision: it also returns
// what the clicking seat may decide, and a refusal unless kind is open to it.
func peekChoice(c *bot.Call, version uint32, kind dix.ActionKind) (*dix.Game, *dixTable, int, dix.Choices, error) {
	g, m, s, err := peek(c, version)
	if err != nil {
		return nil, nil, -1, dix.Choices{}, err
	}
	ch, err := dixview.RequireChoice(g, s, kind)
	if err != nil {
		return nil, nil, -1, dix.Choices{}, err
	}
	return g, m, s, ch, nil
}

// played is the result of one applied action.
type played struct {
	rec       *dixbot.Record
	m         *dixTable
	lines     []string // the turn's events so far, in the game's language
	prevActor int
	prevPhase dix.Phase
	active    int    // the active seat before the action
	turn      int    // the turn number before the action
	final     bool   // the action was taken in the final buy round (4)
	ended     bool   // a turn ended (or the game)
	summary   string // title of the turn's summary
	// played are the seats whose whole turn was played by this update
	// too (ALIX's, a computer player's), after the active one's.
	played []int
}

// maxForced bounds the decisions taken automatically after one click: the
// computer players' whole turns (several draws, auctions, purchases) and
// the final round of five players skipping.
const maxForced = 400

// forced is the only answer open to seat now when it has exactly one and
// that answer decides nothing: stop with an empty deck, end a turn or skip
// a final buy with nothing buyable, pass an auction one cannot afford, pay
// a won auction that only one payment covers (R3).
func forced(g *dix.Game, seat int) (dix.ActionKind, bool) {
	if seat < 0 || g.IsAlix(seat) {
		return 0, false
	}
	ch := g.Choices(seat)
	if g.Phase == dix.PhaseAuctionPay && dixview.HasAction(ch, dix.ActPay) {
		if _, ok := dixview.OnlyPayment(g, seat, ch.Owe); ok {
			return dix.ActPay, true
		}
		return 0, false
	}
	if len(ch.Actions) != 1 {
		return 0, false
	}
	switch k := ch.Actions[0]; k {
	case dix.ActStop, dix.ActEndTurn, dix.ActPass:
		return k, true
	}
	return 0, false
}

// applyForced takes every decision that has only one possible answer, in
// the same store update as the click that led to it, and says so in lines
// of lang. Nobody is asked (or pinged) for a decision they cannot make.
//
// The computer players' decisions come from memo when it holds them (see
// cpuMemo); with record, memo keeps those taken.
func applyForced(lang string, m *dixTable, g *dix.Game, memo cpuMemo, record bool) ([]dix.Event, []string, error) {
	var all []dix.Event
	var lines []string
	for range maxForced {
		s := g.ToAct()
		lvl, cpu := m.computer(s)
		if (cpu || m.handedOver(s)) && g.Phase != dix.PhaseOver {
			// A computer player's move, or the computer's for a person
			// absent or gone, played at once and told like ALIX's. Its
			// randomness comes from the state, so a retried update
			// decides the same.
			r := rand.New(rand.NewPCG(uint64(g.Seq), uint64(len(g.Deck))<<8|uint64(s)))
			a := dix.Action{}
			if cpu {
				a = memo.decide(g, s, lvl, r, record)
			} else {
				a = autoMove(g, s, m.Seats[s].Gone != "", r)
				m.Seats[s].Auto++
			}
			evs, err := g.Apply(a)
			if err != nil {
				return nil, nil, err
			}
			all = append(all, evs...)
			lines = append(lines, dixview.Events(m.names(lang), evs)...)
			continue
		}
		k, ok := forced(g, s)
		if !ok {
			break
		}
		d := map[string]any{"Name": m.name(lang, s)}
		key := ""
		switch {
		case k == dix.ActStop:
			key = "dix_log_auto_stop"
		case k == dix.ActPass:
			key = "dix_log_auto_pass"
		case k == dix.ActPay:
			key = "dix_log_auto_pay"
		case g.Phase == dix.PhaseFinalBuy:
			key = "dix_log_auto_skip"
		default:
			key = "dix_log_auto_end"
		}
		if k == dix.ActPass {
			// Choices gives no minimum when the bid is out of reach: the
			// smallest legal bid is one more than the high bid (solo: 5).
			min := 1
			if g.Auction != nil {
				min = g.Auction.HighBid + 1
			}
			if g.Solo() && min < 5 {
				min = 5
			}
			d["Min"] = min
		}
		a := dix.Action{Kind: k, Player: s}
		if k == dix.ActPay {
			a.Payment, _ = dixview.OnlyPayment(g, s, g.Choices(s).Owe)
			d["Payment"] = dixview.PaymentText(lang, a.Payment)
		}
		evs, err := g.Apply(a)
		if err != nil {
			return nil, nil, err
		}
		all = append(all, evs...)
		// The automatic line replaces the plain one of the same decision.
		if len(evs) > 0 && evs[0].Player == s {
			switch evs[0].Kind {
			case dix.EvPassed, dix.EvStopped, dix.EvFinalBuySkipped, dix.EvPaid:
				evs = evs[1:]
			}
		}
		lines = append(lines, locales.T(lang, key, d))
		lines = append(lines, dixview.Events(m.names(lang), evs)...)
	}
	return all, lines, nil
}

// play applies the action built by build for the clicking user, then every
// decision that has only one possible answer, inside one exactly-once store
// update that also records the Discord work the change owes (the outbox),
// then answers: a click on the board updates it in place; a click on an
// ephemeral prompt replaces the prompt with what confirm returns (text, and
// components for a next step of the same player) and the board is edited
// after the answer.
func play(c *bot.Call, version uint32, build func(g *dix.Game, seat int) (dix.Action, error), confirm confirmFunc) error {
	var out played
	var act dix.Action
	seat := -1
	o := originOf(c)
	// The computer players' turns this click leads to are worked out
	// before the update, so its deadline is the store's alone.
	o.memo = foresee(c, version, build, o)
	rec, err := changeTable(c, func(r *dixbot.Record, m *dixTable) error {
		g, m, s, err := seatFor(c, r, m, version)
		if err != nil {
			return err
		}
		a, err := build(g, s)
		if err != nil {
			return err
		}
		a.Player = s
		m.Seats[s].Late = 0 // they answer in time again
		out, err = advance(r, m, g, &a, nil, o, c.B.Now())
		if err != nil {
			return err
		}
		act, seat = a, s
		return nil
	})
	if err != nil {
		if errors.Is(err, bot.ErrNotYourTurn) || errors.Is(err, bot.ErrStale) {
			// Any click of an absent player brings them back, even one
			// on a board that moved on.
			if r, gerr := c.GetQuiet(); gerr == nil {
				dixComeBack(c, r)
			}
		}
		return err
	}
	out.rec = rec
	if m, err := decodeDixTable(rec.Meta); err == nil {
		out.m = m
	}
	text := ""
	var comps []discordgo.MessageComponent
	if confirm != nil {
		text, comps = confirm(c.Lang, act, dix.GameOf(out.rec.State), out.m, seat)
	}
	answerPlay(c, out, o.fromBoard, text, comps)
	settle(c, rec)
	return nil
}

// origin is what made a change of the game: a click (its user, where it
// was made) or, with no user, the clock.
type origin struct {
	user, guild, channel string
	fromBoard            bool   // the click was on the board message
	clicked              string // the message clicked on
	// retired: the message clicked on is a board this process retired
	// (a board replaced while the click was on its way), never adopted.
	retired bool
	// memo holds the computer players' decisions worked out before the
	// update (nil: none); foresee says the change is played on a copy to
	// fill it (cpumemo.go).
	memo    cpuMemo
	foresee bool
}

// origin is the origin of the call's changes.
func originOf(c *bot.Call) origin {
	o := origin{user: c.User, guild: c.I.GuildID, channel: c.I.ChannelID}
	if c.I.Message != nil {
		o.clicked = c.I.Message.ID
		o.fromBoard = c.I.Message.Flags&discordgo.MessageFlagsEphemeral == 0
		o.retired = c.B.Fences.Retired(o.clicked)
	}
	return o
}

// advance applies a (nil: no action, the seats changed hands or the game
// resumed), then every decision taken automatically unless the game is
// paused; it checks the game, runs the clock on to
// the next decision and records the turn's lines (pre first) and the
// Discord work owed, all inside the store update of r.
func advance(r *dixbot.Record, m *dixTable, g *dix.Game, a *dix.Action, pre []string, o origin, now time.Time) (played, error) {
	prev, prevPhase, active, turn, final := g.ToAct(), g.Phase, g.Active, m.Turn, g.Phase == dix.PhaseFinalBuy
	lines := pre
	var evs []dix.Event
	if a != nil {
		var err error
		evs, err = g.Apply(*a)
		if err != nil {
			return played{}, err
		}
		lines = append(lines, dixview.Events(m.names(m.Lang), evs)...)
	}
	if m.PausedBy == "" {
		// While paused nothing moves: the computer plays a seat handed
		// over during the pause once the game is resumed.
		more, moreLines, err := applyForced(m.Lang, m, g, o.memo, o.foresee)
		if err != nil {
			return played{}, err
		}
		evs = append(evs, more...)
		lines = append(lines, moreLines...)
	}
	// Never save a broken game (principle 8): refuse the change instead.
	if err := g.Check(); err != nil {
		return played{}, err
	}
	m.tick(g, now, a != nil)
	ended, started := dixview.TurnBoundary(evs)
	m.Turn += started
	m.addLog(lines...)
	turnLines := m.turnSummary(m.Lang)
	var finished []string // the turn's lines, for the game log
	if ended || g.Phase == dix.PhaseOver {
		finished = m.TurnLog
		if m.TurnCut > 0 {
			finished = append(append(append([]string(nil), m.TurnLog[:turnHead]...), locales.N(m.Lang, "log_more", m.TurnCut, nil)), m.TurnLog[turnHead:]...)
		}
		m.TurnLog, m.TurnCut = nil, 0
	}
	out := played{m: m, lines: turnLines, prevActor: prev, prevPhase: prevPhase, active: active, turn: turn, ended: ended, final: final}
	out.played = wholeTurns(evs)
	out.summary = out.summaryTitle()
	if len(finished) > 0 {
		m.owe(r, bot.Effect{Kind: bot.EffLog, Title: out.summary, Lines: finished})
	}
	m.owe(r, effectsOf(out, g, o)...)
	m.setDue(r, now)
	r.Meta = m.Encode()
	return out, nil
}

// confirmFunc returns what replaces the ephemeral prompt once the action a
// of seat is applied; g is the game after it.
type confirmFunc func(lang string, a dix.Action, g *dix.Game, m *dixTable, seat int) (string, []discordgo.MessageComponent)

// confirmText is a confirmFunc answering one message of lang.
func confirmText(text func(lang string, a dix.Action) string) confirmFunc {
	return func(lang string, a dix.Action, _ *dix.Game, _ *dixTable, _ int) (string, []discordgo.MessageComponent) {
		return text(lang, a), nil
	}
}

// summaryTitle is the title of the summary the turn's board becomes.
func (out played) summaryTitle() string {
	return dixview.SummaryTitle(out.m.names(out.m.Lang), out.turn, out.active, out.played, out.final)
}

// wholeTurns are the seats whose turn both started and ended within evs.
func wholeTurns(evs []dix.Event) []int {
	var out []int
	started := -1
	for _, ev := range evs {
		switch ev.Kind {
		case dix.EvTurnStarted:
			started = ev.Player
		case dix.EvTurnEnded, dix.EvGameOver:
			if started >= 0 {
				out = append(out, started)
				started = -1
			}
		}
	}
	return out
}

// effectsOf is the Discord work an applied action owes: at the end of a
// turn the old board becomes its summary and a fresh board pings who must
// act next; within a turn the board shows the game as it stands, an auction pings its bidders at once and a won auction its
// winner, and a ping whose decision is over says so; at the end the
// scoreboard is posted and the game archived.
func effectsOf(out played, g *dix.Game, o origin) []bot.Effect {
	m := out.m
	fromBoard := o.fromBoard
	over := g.Phase == dix.PhaseOver
	boundary := out.ended || over
	var effs []bot.Effect
	// A click on the board changes it in place through its answer, and
	// the same change is owed here too: the executor leaves it out when
	// the answer did it, and does it when the answer was lost (the
	// process died first), so the board never stays outdated.
	if retired := m.Board; boundary && (fromBoard || retired != "") {
		if fromBoard {
			retired = o.clicked
		}
		effs = append(effs, bot.Effect{Kind: bot.EffRetire, Msg: retired, Title: out.summary, Lines: out.lines})
	}
	switch {
	case over:
		return append(effs, bot.Effect{Kind: bot.EffResult}, bot.Effect{Kind: bot.EffScores}, bot.Effect{Kind: bot.EffFinish})
	case boundary:
		return append(effs, bot.Effect{Kind: bot.EffBoard, Users: nextDeciders(m, g, o.user)})
	}
	if clicked := o.clicked; fromBoard && clicked != m.Board && !o.retired && !bot.OlderMessage(clicked, m.Board) {
		// The click came from a board the table did not know as current
		// (its id could not be recorded): it is the live one now. A board
		// posted before the recorded one (replaced while the click was on
		// its way) is not: the recorded board shows the click's change.
		effs = append(effs, bot.Effect{Kind: bot.EffAdopt, Msg: clicked})
	}
	effs = append(effs, bot.Effect{Kind: bot.EffEdit})
	if e, ok := pingEffect(m, g, out, o.user, o.guild, o.channel); ok {
		effs = append(effs, e) // it closes the previous ping first
	} else if m.Ping != "" && g.Phase != out.prevPhase {
		// The pinged decision is over (the auction closed, the payment
		// made) and nobody new is pinged.
		effs = append(effs, bot.Effect{Kind: bot.EffPinged})
	}
	return effs
}

// answerPlay answers an applied action: the board clicked on shows the game
// as it stands (or the turn's summary once the turn is over), a private
// prompt is replaced by its confirmation.
func answerPlay(c *bot.Call, out played, fromBoard bool, confirm string, confirmComps []discordgo.MessageComponent) {
	g, m := dix.GameOf(out.rec.State), out.m
	switch {
	case !fromBoard:
		c.UpdateOrReply(confirm, confirmComps)
	case out.ended || g.Phase == dix.PhaseOver:
		// The turn's summary: the board's picture goes with the board.
		c.Shows = &bot.Shows{Retire: true}
		c.Update("", []*discordgo.MessageEmbed{dixview.SummaryEmbed(m.Lang, out.summary, out.lines)}, nil)
	default:
		e, files := boardAnswer(c, m, g)
		c.Shows = &bot.Shows{Seq: uint64(g.Seq)}
		c.Update("", []*discordgo.MessageEmbed{e}, dixview.BoardButtons(m.view(m.Lang), g), files...)
	}
}

// simpleAction handles the one-click decisions on the board.
func simpleAction(c *bot.Call, p bot.ParsedID) error {
	kind, ok := verbActions[p.Verb]
	if !ok {
		return fmt.Errorf("%w: %q", bot.ErrBadCustomID, p.Verb)
	}
	err := play(c, p.Version, func(g *dix.Game, s int) (dix.Action, error) {
		return dix.Action{Kind: kind}, nil
	}, confirmText(func(lang string, a dix.Action) string {
		if kind == dix.ActPass {
			return locales.T(lang, "dix_done_pass", nil)
		}
		return locales.T(lang, "done_generic", nil)
	}))
	if err == nil && kind == dix.ActBustBuy {
		// The player chose to buy: the market opens at once (one click
		// less than going through the board's Buy).
		offerMarket(c)
	}
	return err
}

// offerMarket follows an answer with the market prompt when the user may
// buy now. Best effort: nothing is shown otherwise.
func offerMarket(c *bot.Call) {
	r, m, err := tableQuiet(c)
	if err != nil || dix.GameOf(r.State) == nil {
		return
	}
	g, s := dix.GameOf(r.State), m.seatOf(c.User)
	if s < 0 || g.ToAct() != s {
		return
	}
	ch := g.Choices(s)
	if !dixview.HasAction(ch, dix.ActBuy) || len(ch.Buyable) == 0 {
		return
	}
	c.Ephemeral(dixview.MarketPrompt(c.Lang, g, s, ch))
}

// showBoard shows the current board to the user alone.
func showBoard(c *bot.Call) error {
	r, m, err := table(c)
	if err != nil {
		return err
	}
	if dix.GameOf(r.State) == nil {
		c.Ephemeral(locales.T(c.Lang, "lobby_open_here", nil), nil, lobbyEmbed(c.Lang, m, "open"))
		return nil
	}
	text := ""
	if m.Board != "" {
		text = locales.T(c.Lang, "stale_link", map[string]any{"URL": bot.MessageURL(c.I.GuildID, c.I.ChannelID, m.Board)})
	}
	e, files := boardMessage(c.B, c.Lang, m, dix.GameOf(r.State), c.CanAttach())
	c.EphemeralFiles(text, nil, files, e)
	return nil
}

// boardText shows the clicking user, privately and in their language, the
// whole board as text: the market and every collection by colour, which a
// pictured board leaves to its picture. It is how a screen reader reads
// what the picture shows.
func boardText(c *bot.Call) error {
	r, m, err := table(c)
	if err != nil {
		return err
	}
	if dix.GameOf(r.State) == nil {
		c.Ephemeral(locales.T(c.Lang, "lobby_open_here", nil), nil, lobbyEmbed(c.Lang, m, "open"))
		return nil
	}
	c.Ephemeral("", nil, dixview.BoardEmbed(m.view(c.Lang), dix.GameOf(r.State)))
	return nil
}

// hand shows the user's private view of their holdings.
func hand(c *bot.Call) error {
	g, m, s, err := mySeat(c)
	if err != nil {
		return err
	}
	e, files := handMessage(c.B, c.Lang, m, g, s, c.CanAttach())
	c.EphemeralFiles("", nil, files, e)
	return nil
}

// mySeat loads the running game and the clicking user's seat in it, for
// their private views: ErrNotStarted for a lobby, ErrNotInGame for an
// outsider.
func mySeat(c *bot.Call) (*dix.Game, *dixTable, int, error) {
	r, m, err := table(c)
	if err != nil {
		return nil, nil, -1, err
	}
	if dix.GameOf(r.State) == nil {
		return nil, nil, -1, bot.ErrNotStarted
	}
	s := m.seatOf(c.User)
	if s < 0 || s >= len(dix.GameOf(r.State).Players) {
		return nil, nil, -1, bot.ErrNotInGame
	}
	return dix.GameOf(r.State), m, s, nil
}
