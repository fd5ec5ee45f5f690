package bot

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/locales"
)

// applyMove applies the clicker's decision, then the forced decisions
// and the computer seats' until a person must decide, in one update.
func (c *Call) applyMove(g *present.Game, p parsedID) error {
	m := engine.Move(p.Arg)
	if sp, ok := g.Presenter.(present.Stamper); ok {
		click, err := strconv.ParseUint(c.I.ID, 10, 64)
		if err != nil {
			return fmt.Errorf("%w: interaction id %q", ErrBadInput, c.I.ID)
		}
		if m, err = sp.Stamp(m, click); err != nil {
			return fmt.Errorf("%w: %v", ErrBadCustomID, err)
		}
	}
	back, raced := false, false
	// The computer's decisions this move leads to are worked out before
	// the update, for a game whose computer is slow (foresight.go).
	foreseen := c.foresee(g, p.n, m)
	r, td, err := c.changeTable(g, func(r *dixbot.Record, td *tableData) error {
		if r.Data == nil {
			return ErrStale
		}
		seat := td.seatOf(c.User)
		if seat < 0 {
			if td.seated(c.User) {
				return Refuse(ErrHandedOver, "table_err_handed_over", nil)
			}
			return Refuse(ErrNotInGame, "table_err_not_seated", nil)
		}
		if olderThanBoard(c.I.Message, td.Board) {
			return ErrStale // a message of an earlier game of the channel
		}
		if v := c.boardVia(); v != nil && (laterID(v.Orig, td.Board) || td.Board == "" && td.Origin != "" && !laterID(td.Origin, v.Orig)) {
			// A board posted again (/<game> board) whose adoption was
			// lost, or the first board of a rematch or a solo start
			// whose message Discord would not name: the click makes it
			// the board. A later message that does not carry the id
			// clicked (a ping, a notice) is no board: the id is forged,
			// and the answer, made in place, would turn that message
			// into one.
			if !clickedOnMessage(c.I) {
				return fmt.Errorf("%w: a message after the board that does not carry it", ErrBadCustomID)
			}
			td.adopt(r, g, v.Orig, v, c.B.now())
		}
		if td.Paused != "" {
			return Refuse(ErrPaused, "table_err_paused", map[string]any{"Name": td.Paused, "Command": "/" + En(g.Rules.Name()+"_cmd_name")})
		}
		st, err := g.Rules.Decode(r.Data)
		if err != nil {
			return err
		}
		if td.returns(seat, st) {
			// An absent person's click brings them back, and only that.
			back = true
			td.comeBack(seat, st, c.B.now())
			setTableDue(r, td, g, st)
			td.oweChange(r, g, st, pingPlan{}, c.B.now(), c.B.self)
			return nil
		}
		switch {
		case p.n > st.Seq():
			return fmt.Errorf("%w: version %d is newer than the game's %d", ErrAhead, p.n, st.Seq())
		case seat < len(td.Open) && p.n < td.Open[seat]:
			return ErrStale
		}
		since := st.Seq() + 1
		now := c.B.now()
		raced = len(st.ToDecide()) > 1
		evs, err := applyOpen(g, st, td, seat, m, now, true)
		if err != nil {
			if errors.Is(err, engine.ErrInvariant) || errors.Is(err, engine.ErrCorrupt) {
				return err
			}
			rf := g.Presenter.Refusal(c.Lang, st, seat, m, err)
			return Refuse(errMoveRefused, rf.Key, td.refusalData(rf))
		}
		more, err := c.B.advanceWith(g, st, td, now, foreseen)
		if err != nil {
			return err
		}
		td.tell(g, append(evs, more...))
		noteActed(td, seat, now)
		td.Seats[seat].Late = 0 // they decide in time again
		setTableDue(r, td, g, st)
		td.oweChange(r, g, st, planPings(st, td, since, seat, now), now, c.B.self)
		r.Data = st.Encode()
		return nil
	})
	if err != nil {
		return c.clickFailed(g, err)
	}
	if raced {
		c.raced = r.Data
	}
	c.settleAnswer(r)
	if back {
		c.Ephemeral(locales.T(c.Lang, "table_back_you", nil), nil)
		return nil
	}
	return c.answerMove(g, r, td)
}

// answerMove answers a decision applied to r: in the private prompt it
// came from, or on the board.
func (c *Call) answerMove(g *present.Game, r *dixbot.Record, td *tableData) error {
	switch {
	case c.fromPrompt() || (c.I.Message != nil && c.I.Message.Flags&discordgo.MessageFlagsEphemeral != 0):
		// A decision from a private prompt: the prompt says it is taken,
		// and the public board is edited after the answer (its owed edit).
		// When the seat decides again in a prompt ("your bid won, now
		// pay"), the prompt shows that decision's first step in place.
		if next, st, ok := c.B.nextPrompt(g, r, td, c.Lang, c.User); ok {
			done := locales.T(c.Lang, "table_prompt_done", nil)
			c.Update(withLine(done, next.Content), next.Embeds, promptComponents(g.Rules.Name(), st.Seq(), next), next.Files...)
			return nil
		}
		c.Update(locales.T(c.Lang, "table_prompt_done", nil), nil, nil)
		c.Then(c.dismissPrompt)
		return nil
	case c.I.Message == nil:
		// A form's submission without its message: said privately.
		c.Ephemeral(locales.T(c.Lang, "table_prompt_done", nil), nil)
		return nil
	}
	return c.showBoard(g, r, td)
}

// dismissPrompt removes the private prompt whose decision was just taken,
// once its answer said so: an evening of decisions leaves no trail of
// "Done" messages. The prompt is the message of the click, which the
// interaction's token may delete ("@original": for a component the
// message it is on,
// https://discord.com/developers/docs/interactions/receiving-and-responding#delete-original-interaction-response).
// If that fails the prompt stays, saying "Done", and nothing else is lost.
func (c *Call) dismissPrompt(ctx context.Context) {
	if m := c.I.Message; m != nil {
		// Another click on it answered from now on is answered apart,
		// and one being answered in place lands first (Update).
		unlock := c.B.dismissed.lock(m.ID)
		defer unlock()
		c.B.dismissed.add(m.ID, c.B.now())
	}
	if err := c.D.DeleteOriginal(ctx, c.I); err != nil {
		c.B.log.Debug("could not remove a private prompt", "interaction", c.I.ID, "err", err)
	}
}

// dismissed are the private prompts this process removed, by message id,
// for the life of an interaction's token (viaLife), after which no click
// on them comes. Safe for concurrent use. Its locks, one per message while
// in use, order a prompt's removal and the answers that update it in
// place; the answers on other messages do not wait for them.
type dismissed struct {
	mu    sync.Mutex
	m     map[string]time.Time
	locks map[string]*messageLock
}

// messageLock is the lock of one message, with the calls holding or
// waiting for it.
type messageLock struct {
	mu    sync.Mutex
	users int
}

// lock takes the lock of message's removal and answers, and returns its
// release.
func (d *dismissed) lock(message string) func() {
	d.mu.Lock()
	if d.locks == nil {
		d.locks = map[string]*messageLock{}
	}
	l := d.locks[message]
	if l == nil {
		l = &messageLock{}
		d.locks[message] = l
	}
	l.users++
	d.mu.Unlock()
	l.mu.Lock()
	return func() {
		l.mu.Unlock()
		d.mu.Lock()
		if l.users--; l.users == 0 {
			delete(d.locks, message)
		}
		d.mu.Unlock()
	}
}

func (d *dismissed) add(message string, now time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.m == nil {
		d.m = map[string]time.Time{}
	}
	if len(d.m) >= dismissedPrune {
		for id, at := range d.m {
			if now.Sub(at) > viaLife {
				delete(d.m, id)
			}
		}
	}
	d.m[message] = now
}

func (d *dismissed) has(message string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	_, ok := d.m[message]
	return ok
}

// dismissedPrune is the size of dismissed from which an addition drops
// the prompts whose clicks are over.
const dismissedPrune = 1024

// promptOf is the clicker's seat, the game and the step of draft of the
// presenter's private prompt for a click on a board (or a prompt) of
// version p.n. A draft that is not a step of the seat's decision now is
// refused as a forged custom id; a prompt beyond Discord's limits is the
// presenter's fault, logged and said as an internal error, never cut.
func (c *Call) promptOf(g *present.Game, p parsedID, draft string) (present.Prompt, engine.State, error) {
	pr, ok := g.Presenter.(present.Prompter)
	if !ok {
		return present.Prompt{}, nil, ErrBadCustomID
	}
	r, td, err := c.readTable(g)
	if err != nil {
		return present.Prompt{}, nil, err
	}
	if r.Data == nil {
		return present.Prompt{}, nil, ErrStale
	}
	seat := td.seatOf(c.User)
	if seat < 0 {
		return present.Prompt{}, nil, Refuse(ErrNotInGame, "table_err_not_seated", nil)
	}
	st, err := g.Rules.Decode(r.Data)
	if err != nil {
		return present.Prompt{}, nil, err
	}
	if p.n > st.Seq() {
		return present.Prompt{}, nil, fmt.Errorf("%w: version %d is newer than the game's %d", ErrAhead, p.n, st.Seq())
	}
	if olderThanBoard(c.I.Message, td.Board) || (seat < len(td.Open) && p.n < td.Open[seat]) {
		return present.Prompt{}, nil, ErrStale
	}
	if td.returns(seat, st) {
		// Looking at one's prompt or hand is a click too: an absent
		// person is back.
		if err := c.backAtTable(g); err != nil {
			return present.Prompt{}, nil, err
		}
	}
	prompt, err := c.B.promptStep(pr, td, c.Lang, st, seat, draft)
	var why *present.NoPromptError
	switch {
	case errors.As(err, &why):
		return present.Prompt{}, nil, Refuse(ErrNotYourTurn, why.Refusal.Key, td.refusalData(why.Refusal))
	case errors.Is(err, present.ErrBadDraft):
		return present.Prompt{}, nil, fmt.Errorf("%w: %v", ErrBadCustomID, err)
	case errors.Is(err, present.ErrNoPrompt), err == nil && prompt.Empty():
		return present.Prompt{}, nil, Refuse(ErrNotYourTurn, "table_err_no_prompt", nil)
	case err != nil:
		return present.Prompt{}, nil, err
	}
	if err := prompt.Check(); err != nil {
		return present.Prompt{}, nil, fmt.Errorf("bot: %s's prompt at step %q: %w", g.Rules.Name(), draft, err)
	}
	return c.B.promptPictured(td, prompt), st, nil
}

// backAtTable gives the clicker, absent, their seat back (and does only
// that), as their click on a move would; a game over brings nobody back.
func (c *Call) backAtTable(g *present.Game) error {
	r, _, err := c.changeTable(g, func(r *dixbot.Record, td *tableData) error {
		seat := td.seatOf(c.User)
		if seat < 0 || r.Data == nil {
			return ErrNothingToDo
		}
		st, err := g.Rules.Decode(r.Data)
		if err != nil {
			return err
		}
		if !td.returns(seat, st) {
			return ErrNothingToDo
		}
		td.comeBack(seat, st, c.B.now())
		setTableDue(r, td, g, st)
		td.oweChange(r, g, st, pingPlan{}, c.B.now(), c.B.self)
		return nil
	})
	if errors.Is(err, ErrNothingToDo) {
		return nil
	}
	if err == nil {
		c.settleAnswer(r)
	}
	return err
}

// nextPrompt is the first step of the private prompt of user's seat in
// the game r holds, when the seat must decide in one now.
func (b *Bot) nextPrompt(g *present.Game, r *dixbot.Record, td *tableData, lang, user string) (present.Prompt, engine.State, bool) {
	pr, ok := g.Presenter.(present.Prompter)
	seat := td.seatOf(user)
	if !ok || seat < 0 || r.Data == nil || td.Paused != "" {
		return present.Prompt{}, nil, false
	}
	st, err := g.Rules.Decode(r.Data)
	if err != nil || !slices.Contains(st.ToDecide(), seat) {
		return present.Prompt{}, nil, false
	}
	next, err := b.promptStep(pr, td, lang, st, seat, "")
	if err != nil || next.Empty() || next.Check() != nil {
		return present.Prompt{}, nil, false
	}
	return b.promptPictured(td, next), st, true
}

// clickFailed answers a click on a game's board or prompt that err
// stopped: a board ahead of the store (restored from an older copy) is
// retired for a fresh one, an outdated click is told so with the board as
// it stands, any other error is returned.
func (c *Call) clickFailed(g *present.Game, err error) error {
	switch {
	case errors.Is(err, ErrAhead):
		return c.answerRestored(g)
	case errors.Is(err, ErrStale):
		return c.answerStale(g, false)
	}
	return err
}

// openModal opens the form of the clicker's private prompt whose
// verb the button carries.
func (c *Call) openModal(g *present.Game, p parsedID) error {
	prompt, st, err := c.promptOf(g, p, "")
	if err != nil {
		return c.clickFailed(g, err)
	}
	for _, bt := range prompt.Buttons {
		if md := bt.Modal; md != nil && md.Verb == p.Arg {
			c.Modal(buttonID(g.Rules.Name(), verbSubmit, st.Seq(), md.Verb), md.Title, []discordgo.TextInput{{
				CustomID: modalText, Label: present.Truncate(md.Label, present.MaxInputLabel), Style: discordgo.TextInputShort, Placeholder: present.Truncate(md.Placeholder, present.MaxInputHolder),
				Required: true, MinLength: md.Min, MaxLength: md.Max,
			}})
			return nil
		}
	}
	return Refuse(ErrNotYourTurn, "table_err_no_prompt", nil)
}

// showPrompt shows the step of draft of the clicker's private prompt
// (Prompter): a menu of choices, or buttons, with the step's pictures. It
// writes nothing: a step opened from the board is a new private message,
// one opened from the prompt replaces it in place.
func (c *Call) showPrompt(g *present.Game, p parsedID, draft string) error {
	prompt, st, err := c.promptOf(g, p, draft)
	if err != nil {
		return c.clickFailed(g, err)
	}
	comps := promptComponents(g.Rules.Name(), st.Seq(), prompt)
	if c.I.Message != nil && c.I.Message.Flags&discordgo.MessageFlagsEphemeral != 0 {
		c.Update(prompt.Content, prompt.Embeds, comps, prompt.Files...)
		return nil
	}
	c.ephemeralFiles(prompt.Content, comps, prompt.Files, prompt.Embeds...)
	return nil
}

// promptComponents are the menu and the buttons of a prompt's step shown
// at state version seq; prompt passed its Check.
func promptComponents(game string, seq uint64, prompt present.Prompt) []discordgo.MessageComponent {
	var comps []discordgo.MessageComponent
	if len(prompt.Choices) > 0 {
		var opts []discordgo.SelectMenuOption
		for _, ch := range prompt.Choices {
			opts = append(opts, discordgo.SelectMenuOption{Label: ch.Label, Value: present.ChoiceValue(ch)})
		}
		comps = append(comps, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.SelectMenu{CustomID: buttonID(game, verbSelect, seq, ""), Placeholder: prompt.Placeholder, Options: opts},
		}})
	}
	if len(prompt.Buttons) > 0 {
		comps = append(comps, boardComponents(game, seq, present.Board{Rows: [][]present.Button{prompt.Buttons}})...)
	}
	return comps
}

// olderThanBoard reports whether msg was posted before the board message
// board: it then belongs to an earlier game of the channel, or is a
// board posted again since (custom ids carry only the state's version).
// Message ids are snowflakes, whose order is their creation order
// (https://discord.com/developers/docs/reference#snowflakes); they are
// compared as laterID does.
func olderThanBoard(msg *discordgo.Message, board string) bool {
	if msg == nil || board == "" {
		return false
	}
	return laterID(board, msg.ID)
}

// applyOpen applies seat's move m and keeps td.Open: a seat whose decision
// opens with this move (newly deciding, deciding again after its own move,
// or deciding something else, for a decisionKeyer) gets the new Seq, and
// now as the start of its clock. A seat whose decision closes is charged
// its time (TableData.spend), seat's own with the increment when made
// (its person clicked, or their time ran out).
func applyOpen(g *present.Game, st engine.State, td *tableData, seat int, m engine.Move, now time.Time, made bool) ([]engine.Event, error) {
	before := st.ToDecide()
	keyer, _ := st.(decisionKeyer)
	var keys []uint64
	if keyer != nil {
		for _, s := range before {
			keys = append(keys, keyer.DecisionKey(s))
		}
	}
	evs, err := st.Apply(seat, m)
	if err != nil {
		return nil, err
	}
	if len(td.Open) < len(td.Seats) {
		td.Open = append(td.Open, make([]uint64, len(td.Seats)-len(td.Open))...)
	}
	after := st.ToDecide()
	for i, s := range before {
		j := slices.Index(after, s)
		if s == seat || j < 0 || (keyer != nil && keyer.DecisionKey(s) != keys[i]) {
			td.spend(g, s, now, made && s == seat)
		}
	}
	for _, s := range after {
		i := slices.Index(before, s)
		if s == seat || i < 0 || (keyer != nil && keyer.DecisionKey(s) != keys[i]) {
			td.Open[s] = st.Seq()
			noteOpened(td, s, now)
			if s < len(td.Wake) {
				td.Wake[s] = 0 // a new decision, a new reaction
			}
		}
	}
	return evs, nil
}

// decisionKeyer is a state that names each seat's current decision, for
// a seat whose decision changes while it stays deciding (in Dixxit, a
// guesser who becomes the next clue-giver when another finds the target).
type decisionKeyer interface {
	DecisionKey(seat int) uint64
}

// maxAdvance bounds the decisions the table takes in one update: more
// than any game's whole length.
const maxAdvance = 100000

// advance takes the forced decisions and the computer seats' decisions
// until a person must decide, the computer seats left are still taking
// their time (reaction.go), or the game is over.
func (b *Bot) advance(g *present.Game, st engine.State, td *tableData, now time.Time) ([]engine.Event, error) {
	return b.advanceWith(g, st, td, now, nil)
}

// advanceWith is advance with the computer's decisions foreseen in f
// (foresight.go; nil: none).
func (b *Bot) advanceWith(g *present.Game, st engine.State, td *tableData, now time.Time, f *foresight) ([]engine.Event, error) {
	var all []engine.Event
	if td.Paused != "" {
		return nil, nil // nobody plays while the game is paused
	}
	f = f.of(td)
	decide := func(s int) (engine.Move, error) {
		level := td.Seats[s].Level
		return f.player(g.Player(level, td.Lang), level).Decide(st, s, td.rng(st, s))
	}
	for range maxAdvance {
		if st.Over() {
			return all, nil
		}
		seat, m, ok := -1, engine.Move(""), false
		due, dueAt := -1, int64(0) // the computer seat whose reaction ended first
		for _, s := range st.ToDecide() {
			m, ok = st.Forced(s)
			if !ok && s < len(td.Seats) && td.Seats[s].Away && td.Seats[s].Level == "" {
				var err error
				if m, err = engine.AbsentMove(f.player(g.Player(g.Default, td.Lang), g.Default), st, s, td.rng(st, s)); err != nil {
					return nil, fmt.Errorf("bot: absent seat %d: %w", s, err)
				}
				ok = true
			}
			if !ok && s < len(td.Seats) && td.Seats[s].Level != "" {
				if at, reacts := td.wake(g, st, s, now); reacts {
					if at <= now.UnixMilli() && td.Missing == nil && (due < 0 || at < dueAt) {
						due, dueAt = s, at
					}
					continue
				}
				var err error
				if m, err = decide(s); err != nil {
					return nil, fmt.Errorf("bot: computer seat %d: %w", s, err)
				}
				ok = true
			}
			if ok {
				seat = s
				break // who decides may have changed
			}
		}
		if seat < 0 && due >= 0 {
			var err error
			if m, err = decide(due); err != nil {
				return nil, fmt.Errorf("bot: computer seat %d: %w", due, err)
			}
			if m, err = stampAt(g, m, time.UnixMilli(dueAt)); err != nil {
				return nil, fmt.Errorf("bot: computer seat %d: %w", due, err)
			}
			seat = due
		}
		if seat < 0 {
			return all, nil
		}
		evs, err := applyOpen(g, st, td, seat, m, now, false)
		if err != nil {
			return nil, fmt.Errorf("bot: decision %q of seat %d: %w", m, seat, err)
		}
		all = append(all, evs...)
	}
	return nil, fmt.Errorf("%w: the game does not end", engine.ErrInvariant)
}

// rng is the computer's randomness for seat's decision at st: of the
// table's seed and the decision, so that the decision taken again (an
// update tried again, another process) is the same.
func (td *tableData) rng(st engine.State, seat int) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(td.Seed), st.Seq()*8+uint64(seat)))
}
