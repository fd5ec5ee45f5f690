package loadtest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dixgame/dixbot/internal/fakediscord"
)

// kind is what a player did, for the latency figures by kind.
type kind int

const (
	kindCommand kind = iota // a slash command
	kindButton              // a button, on the board, the lobby or a prompt
	kindSelect              // a select menu (a prompt's steps and choices)
	kindModal               // a form submitted (Dixxit's clue)
	numKinds
)

func (k kind) String() string { return [...]string{"command", "button", "select", "modal"}[k] }

// recentMessages is how many of a channel's last public messages a player
// reads to find the board (the board, the pings under it...).
const recentMessages = 6

// answerWait bounds the wait for an answer, which the stand-in ends after
// its 3-second deadline anyway.
const answerWait = 30 * time.Second

// refusedLimit is how many decisions in a row a table lets the bot refuse
// before it stops: a player who cannot get a decision through is stuck.
const refusedLimit = 20

// player is one person at a table. Its random source is used only by its
// own decisions, of which there is one at a time.
type player struct {
	fakediscord.User
	rng *rand.Rand
}

// game is what the players know of the game they play: how to read its
// board and how one of them makes a decision the board asks of them.
type game interface {
	// read reads message m: ok is false when it is neither a board of
	// this game with decision buttons nor its final scoreboard.
	read(m fakediscord.Message) (v view, ok bool)
	// decide makes p's decision on board v, as p would: the clicks, each
	// after p's think time, and the private prompts that follow. It runs
	// beside the other players' decisions and touches the table only
	// through its interactions.
	decide(ctx context.Context, t *table, p *player, v view) outcome
}

// outcome is what one player's decision came to.
type outcome struct {
	name    string
	next    uint64 // the lowest board version that may ask this player again
	applied int    // decisions applied (a bid that wins, then its payment: two)
	refused int    // clicks refused
	gone    int    // clicks on a button gone
	err     error
}

// table is one channel with its players, who play there game after game.
// Only its own goroutine uses it until play returns, except through
// interactAfter.
type table struct {
	fake    *fakediscord.Server
	cfg     *Config
	lang    string
	channel string
	players []*player
	rng     *rand.Rand
	recent  *window // shared by the tables, for the progress lines
	game    game

	since string // the current game's lobby: older messages are earlier games'

	// mu guards samples, unanswered and last while players' interactions
	// are under way.
	mu         sync.Mutex
	samples    [numKinds][]time.Duration
	unanswered int                   // interactions the stand-in saw go unanswered for 3 s
	last       *fakediscord.Response // the last answer, for error messages

	gone      int // clicks on a button the board had just lost
	games     int // games opened
	turns     int // turns (Qwixx: rolls) the boards showed
	decisions int // decisions applied
	refusals  int // decisions the bot refused (a stale board, a card too dear)
	err       error

	// Read by the progress lines while the table plays.
	answered atomic.Int64 // interactions answered
	finished atomic.Int64 // games that reached the scoreboard
}

// names are the players' names.
func (t *table) names() []string {
	out := make([]string, len(t.players))
	for i, p := range t.players {
		out[i] = p.Username
	}
	return out
}

// play plays games until the last has ended (repeat false) or ctx ends.
func (t *table) play(ctx context.Context, repeat bool) {
	for {
		err := t.open(ctx)
		if err == nil {
			err = t.playGame(ctx)
		}
		if ctx.Err() != nil {
			return // the run is over: whatever was under way stops here
		}
		if err != nil {
			t.err = err
			return
		}
		if !repeat {
			return
		}
	}
}

// open opens a lobby with the start command, has the others join and
// the creator seat the computers, and starts the game: the lobby becomes
// the board.
func (t *table) open(ctx context.Context) error {
	var lobby fakediscord.Message
	for attempt := 1; ; attempt++ {
		r, err := t.interact(ctx, t.rng, kindCommand, func(ctx context.Context) (*fakediscord.Interaction, error) {
			return t.fake.RunCommand(ctx, t.players[0].ID, t.channel, t.cfg.Start)
		})
		switch {
		case err != nil && !errors.Is(err, fakediscord.ErrNoResponse):
			return fmt.Errorf("%s: %w", t.cfg.Start, err)
		case err == nil && r.Message != nil && !r.Ephemeral() && len(withVerb(*r.Message, "join")) > 0:
			lobby = *r.Message
		case attempt == 20:
			return fmt.Errorf("%s refused 20 times: %s", t.cfg.Start, describe(r))
		default:
			// The last game is not archived yet, or the answer was lost:
			// as a person would, try again a moment later.
			if err := sleep(ctx, max(think(t.cfg, t.rng), 200*time.Millisecond)); err != nil {
				return err
			}
			continue
		}
		break
	}
	t.since = lobby.ID
	t.games++
	for _, p := range t.players[1:] {
		if err := t.lobbyClick(ctx, p.User, lobby.ID, "join"); err != nil {
			return err
		}
	}
	for range t.cfg.Computers {
		if err := t.lobbyClick(ctx, t.players[0].User, lobby.ID, "cpu"); err != nil {
			return err
		}
	}
	return t.lobbyClick(ctx, t.players[0].User, lobby.ID, "go")
}

// lobbyClick clicks the (first) button of verb on the lobby as u.
func (t *table) lobbyClick(ctx context.Context, u fakediscord.User, lobbyID, verb string) error {
	m, ok := t.fake.Message(lobbyID)
	ids := withVerb(m, verb)
	if !ok || len(ids) == 0 {
		return fmt.Errorf("no %s button on the lobby", verb)
	}
	r, err := t.click(ctx, t.rng, u, lobbyID, ids[0].raw)
	if err != nil {
		return fmt.Errorf("%s: %w", verb, err)
	}
	if r.Type != fakediscord.CallbackUpdateMessage {
		return fmt.Errorf("%s by %s refused: %s", verb, u.Username, describe(r))
	}
	return nil
}

// playGame plays the game opened on the lobby t.since until its
// scoreboard: whenever the board asks players who have no decision under
// way, each makes it (game.decide) beside the others, after their own
// think time. The board is followed wherever it is: a board posted again
// further down the channel replaces the one known.
func (t *table) playGame(ctx context.Context) error {
	boardID := t.since
	next := map[string]uint64{}   // by player: the lowest board version that may ask them again
	inflight := map[string]bool{} // players whose decision is under way
	results := make(chan outcome, len(t.players))
	stall := time.NewTimer(t.cfg.Stall)
	defer stall.Stop()
	turn, round := 0, ""
	refusedInARow := 0
	tally := func(o outcome) error {
		delete(inflight, o.name)
		next[o.name] = max(next[o.name], o.next)
		t.refusals += o.refused
		t.gone += o.gone
		t.decisions += o.applied
		if o.applied > 0 {
			refusedInARow = 0
		} else if o.refused > 0 {
			if refusedInARow++; refusedInARow == refusedLimit {
				return fmt.Errorf("%d decisions in a row refused, the last with %s; the channel ends with %s", refusedLimit, describe(t.lastAnswer()), t.tail())
			}
		}
		return o.err
	}
	for {
		changed := t.fake.ChannelChanges(t.channel)
		v, ok := t.board(boardID)
		if !ok {
			return fmt.Errorf("the board %s is gone; the channel ends with %s", boardID, t.tail())
		}
		boardID = v.msg.ID
		if v.over {
			for len(inflight) > 0 {
				select {
				case o := <-results:
					if err := tally(o); err != nil {
						return err
					}
				case <-ctx.Done():
					return ctx.Err()
				}
			}
			t.finished.Add(1)
			return nil
		}
		// Turns are counted as the boards show them, so that a run ended
		// midway counts the turns its games played.
		switch {
		case v.turn > turn:
			t.turns += v.turn - turn
			turn = v.turn
		case v.turn == 0 && v.round != "" && v.round != round:
			t.turns++
			round = v.round
		}
		for _, p := range t.players {
			n := p.Username
			if _, asked := v.deciding[n]; !asked || inflight[n] || v.version < next[n] || len(v.buttons) == 0 {
				continue
			}
			inflight[n] = true
			go func() { results <- t.game.decide(ctx, t, p, v) }()
		}
		select {
		case <-changed:
			stall.Reset(t.cfg.Stall)
		case o := <-results:
			if err := tally(o); err != nil {
				return err
			}
		case <-ctx.Done():
			return ctx.Err()
		case <-stall.C:
			return fmt.Errorf("the board asked nobody for %v; the channel ends with %s", t.cfg.Stall, t.tail())
		}
	}
}

// board reads the game's board as it stands: the board known (boardID)
// or a newer message of the game's since its lobby, the one whose
// decision buttons are the newest (a board posted again replaces the
// last one), or the final scoreboard. ok is false when boardID is gone
// and no newer board is found.
func (t *table) board(boardID string) (view, bool) {
	var best view
	found := false
	msgs := t.fake.RecentMessages(t.channel, "", recentMessages)
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.ID != boardID && !idAfter(m.ID, boardID) {
			break
		}
		v, ok := t.game.read(m)
		switch {
		case !ok:
		case v.over:
			return v, true
		case !found || v.version > best.version:
			best, found = v, true
		}
	}
	if found {
		return best, true
	}
	// The board is further up the channel than its last messages.
	m, ok := t.fake.Message(boardID)
	if !ok || m.Deleted {
		return view{}, false
	}
	v, ok := t.game.read(m)
	if !ok {
		// A board without decisions for a moment (a computer's turn):
		// nobody is asked.
		return view{msg: m}, true
	}
	return v, true
}

// tail describes the channel's last public messages, for errors.
func (t *table) tail() string {
	var parts []string
	for _, m := range t.fake.RecentMessages(t.channel, "", 3) {
		title := ""
		if len(m.Embeds) > 0 {
			title = m.Embeds[0].Title
		}
		var ids []string
		for _, c := range controls(m) {
			ids = append(ids, c.CustomID)
		}
		parts = append(parts, fmt.Sprintf("%s %q %q %v", m.ID, title, m.Content, ids))
	}
	return strings.Join(parts, "; ")
}

// tolerate sorts out what a busy game may show a player: an answer that
// never came (counted by interact), or a button gone before the click
// because the board had just changed (counted in o). It returns the
// error that stops the table, nil for those.
func tolerate(o *outcome, err error) error {
	switch {
	case errors.Is(err, fakediscord.ErrNoResponse):
		return nil
	case errors.Is(err, fakediscord.ErrUnknownComponent), errors.Is(err, fakediscord.ErrComponentDisabled), errors.Is(err, fakediscord.ErrUnknownMessage):
		o.gone++
		return nil
	}
	return err
}

// click thinks, then clicks a button as user.
func (t *table) click(ctx context.Context, rng *rand.Rand, user fakediscord.User, msgID, customID string) (*fakediscord.Response, error) {
	return t.interact(ctx, rng, kindButton, func(ctx context.Context) (*fakediscord.Interaction, error) {
		return t.fake.Click(ctx, user.ID, msgID, customID)
	})
}

// pick thinks, then picks value in the select menu customID as user.
func (t *table) pick(ctx context.Context, rng *rand.Rand, user fakediscord.User, msgID, customID, value string) (*fakediscord.Response, error) {
	return t.interact(ctx, rng, kindSelect, func(ctx context.Context) (*fakediscord.Interaction, error) {
		return t.fake.Select(ctx, user.ID, msgID, customID, value)
	})
}

// interact thinks (drawing from rng), sends one interaction and waits for
// its answer, recording its latency.
func (t *table) interact(ctx context.Context, rng *rand.Rand, k kind, send func(context.Context) (*fakediscord.Interaction, error)) (*fakediscord.Response, error) {
	_, r, err := t.interactAfter(ctx, k, think(t.cfg, rng), send)
	return r, err
}

// interactAfter waits think, sends one interaction and waits for its
// answer, recording its latency. An interaction left unanswered is
// counted and returned as fakediscord.ErrNoResponse. The answer is waited
// for even when ctx ends meanwhile: it belongs to the run. It is safe for
// concurrent use by the players of one table.
func (t *table) interactAfter(ctx context.Context, k kind, think time.Duration, send func(context.Context) (*fakediscord.Interaction, error)) (*fakediscord.Interaction, *fakediscord.Response, error) {
	if err := sleep(ctx, think); err != nil {
		return nil, nil, err
	}
	ix, err := send(ctx)
	if err != nil {
		return nil, nil, err
	}
	wctx, cancel := context.WithTimeout(context.Background(), answerWait)
	defer cancel()
	r, err := ix.Wait(wctx)
	if err != nil {
		if errors.Is(err, fakediscord.ErrNoResponse) {
			t.mu.Lock()
			t.unanswered++
			t.mu.Unlock()
		}
		return ix, nil, err
	}
	t.mu.Lock()
	t.samples[k] = append(t.samples[k], r.Latency)
	t.last = r
	t.mu.Unlock()
	t.answered.Add(1)
	t.recent.add(r.Latency)
	return ix, r, nil
}

// lastAnswer is the last answer any player got.
func (t *table) lastAnswer() *fakediscord.Response {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.last
}

// think is how long a player takes before an interaction: Think, varied
// uniformly by ±Jitter.
func think(cfg *Config, rng *rand.Rand) time.Duration {
	d := float64(cfg.Think)
	if j := cfg.Jitter; j > 0 {
		d *= 1 + j*(2*rng.Float64()-1)
	}
	return time.Duration(d)
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-tm.C:
		return nil
	}
}

// describe summarises an answer for error messages.
func describe(r *fakediscord.Response) string {
	if r == nil {
		return "no answer"
	}
	s := fmt.Sprintf("answer type %d", r.Type)
	if r.Message != nil {
		s += fmt.Sprintf(", ephemeral %v, %q", r.Message.Ephemeral(), r.Message.Content)
	}
	return s
}
