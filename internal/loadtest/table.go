package loadtest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
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
	kindSelect              // a select menu (the market prompt)
	numKinds
)

func (k kind) String() string { return [...]string{"command", "button", "select"}[k] }

// recentMessages is how many of a channel's last public messages a player
// reads to find a new board or the scoreboard (the board, the ping under
// it, the last turn's summary...).
const recentMessages = 10

// answerWait bounds the wait for an answer, which the stand-in ends after
// its 3-second deadline anyway.
const answerWait = 30 * time.Second

// table is one channel with its players, who play there game after game.
// Only its own goroutine uses it until play returns.
type table struct {
	fake    *fakediscord.Server
	cfg     *Config
	lang    string
	channel string
	players []fakediscord.User
	byName  map[string]fakediscord.User
	rng     *rand.Rand
	recent  *window // shared by the tables, for the progress lines

	since   string                // the current game's lobby: older messages are earlier games'
	boardID string                // the board message last decided on
	want    uint64                // the lowest state version not decided on yet
	last    *fakediscord.Response // the last answer, for error messages

	// mu guards samples, unanswered and last while a game of simultaneous
	// decisions (Qwixx) has several players' interactions under way.
	mu         sync.Mutex
	samples    [numKinds][]time.Duration
	unanswered int // interactions the stand-in saw go unanswered for 3 s
	gone       int // clicks on a button the board had just lost
	games      int // games opened
	turns      int // board messages decided on: one per turn
	decisions  int // decisions applied
	refusals   int // decisions the bot refused (a stale board, a card too dear)
	err        error

	// Read by the progress lines while the table plays.
	answered atomic.Int64 // interactions answered
	finished atomic.Int64 // games that reached the scoreboard
}

// play plays games until the last has ended (repeat false) or ctx ends.
func (t *table) play(ctx context.Context, repeat bool) {
	for {
		err := t.open(ctx)
		if err == nil {
			if t.cfg.Game == GameQwixx {
				err = t.playQwixx(ctx)
			} else {
				err = t.playGame(ctx)
			}
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

// open opens a lobby with the start command, has the others join, and
// starts the game.
func (t *table) open(ctx context.Context) error {
	var lobby fakediscord.Message
	for attempt := 1; ; attempt++ {
		r, err := t.interact(ctx, kindCommand, func(ctx context.Context) (*fakediscord.Interaction, error) {
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
			if err := sleep(ctx, max(t.think(), 200*time.Millisecond)); err != nil {
				return err
			}
			continue
		}
		break
	}
	t.since, t.boardID, t.want = lobby.ID, "", 0
	t.games++
	for _, u := range t.players[1:] {
		if err := t.lobbyClick(ctx, u, lobby.ID, "join"); err != nil {
			return err
		}
	}
	return t.lobbyClick(ctx, t.players[0], lobby.ID, "go")
}

// lobbyClick clicks the button of verb on the lobby as u.
func (t *table) lobbyClick(ctx context.Context, u fakediscord.User, lobbyID, verb string) error {
	m, ok := t.fake.Message(lobbyID)
	ids := withVerb(m, verb)
	if !ok || len(ids) == 0 {
		return fmt.Errorf("no %s button on the lobby", verb)
	}
	r, err := t.click(ctx, u, lobbyID, ids[0].raw)
	if err != nil {
		return fmt.Errorf("%s: %w", verb, err)
	}
	if r.Type != fakediscord.CallbackUpdateMessage {
		return fmt.Errorf("%s by %s refused: %s", verb, u.Username, describe(r))
	}
	return nil
}

// playGame makes decisions until the scoreboard is out.
func (t *table) playGame(ctx context.Context) error {
	refusedInARow := 0
	for {
		b, over, err := t.next(ctx)
		if err != nil {
			return err
		}
		if over {
			t.finished.Add(1)
			return nil
		}
		applied, err := t.decide(ctx, b)
		if err != nil {
			return err
		}
		if !applied {
			t.refusals++
			if refusedInARow++; refusedInARow == 20 {
				return fmt.Errorf("20 decisions in a row refused on board %s (version %d), the last with %s", b.msg.ID, b.version, describe(t.last))
			}
			continue
		}
		refusedInARow = 0
		t.decisions++
		if b.msg.ID != t.boardID {
			t.turns++
			t.boardID = b.msg.ID
		}
		t.want = b.version + 1
	}
}

// next waits for a board of a version not decided on yet, or the
// scoreboard (over).
func (t *table) next(ctx context.Context) (board, bool, error) {
	stall := time.NewTimer(t.cfg.Stall)
	defer stall.Stop()
	for {
		changed := t.fake.ChannelChanges(t.channel)
		if b, over, ok := t.look(); ok {
			return b, over, nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return board{}, false, ctx.Err()
		case <-stall.C:
			return board{}, false, fmt.Errorf("no board of version %d or later and no scoreboard after %v; the channel ends with %s", t.want, t.cfg.Stall, t.tail())
		}
	}
}

// look reads the channel once: the board decided on last (edited within a
// turn), then the newest messages of this game (a new turn's board, the
// scoreboard).
func (t *table) look() (board, bool, bool) {
	if t.boardID != "" {
		if m, ok := t.fake.Message(t.boardID); ok {
			if b, ok := readBoard(m, t.lang); ok && b.version >= t.want {
				return b, false, true
			}
		}
	}
	msgs := t.fake.RecentMessages(t.channel, "", recentMessages)
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.ID != t.since && !idAfter(m.ID, t.since) {
			break
		}
		if isScoreboard(m, t.lang) {
			return board{}, true, true
		}
		if b, ok := readBoard(m, t.lang); ok && b.version >= t.want {
			return b, false, true
		}
	}
	return board{}, false, false
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

// weights make a player draw often and stop sometimes, so that games see
// busts, auctions and purchases.
var weights = map[string]int{"draw": 5, "stop": 3, "num": 3, "money": 1, "buy": 4, "end": 1, "cons": 1, "bbuy": 1, "bid": 3, "pass": 1, "pay": 1}

func (t *table) choose(buttons map[string]customID) customID {
	verbs := make([]string, 0, len(buttons))
	total := 0
	for v := range buttons {
		verbs = append(verbs, v)
	}
	slices.Sort(verbs)
	for _, v := range verbs {
		total += weights[v]
	}
	n := t.rng.IntN(total)
	for _, v := range verbs {
		if n -= weights[v]; n < 0 {
			return buttons[v]
		}
	}
	return buttons[verbs[0]]
}

// decide makes the decision of the board's marked player: a click, and
// for a purchase, a bid or a payment the private prompt that follows. It
// reports whether the decision was applied.
func (t *table) decide(ctx context.Context, b board) (bool, error) {
	user, ok := t.byName[b.actor]
	if !ok {
		return false, fmt.Errorf("board %s (version %d) marks no player of this table as deciding: %q", b.msg.ID, b.version, b.actor)
	}
	id := t.choose(b.buttons)
	r, err := t.click(ctx, user, b.msg.ID, id.raw)
	if err != nil {
		return false, t.tolerate(err)
	}
	switch id.verb {
	case "buy":
		return t.buy(ctx, user, b, r)
	case "bid":
		return t.prompt(ctx, user, r, "bidn", func(ids []customID) customID { return ids[t.rng.IntN(len(ids))] })
	case "pay":
		return t.prompt(ctx, user, r, "apay", func(ids []customID) customID { return ids[0] })
	}
	return r.Type == fakediscord.CallbackUpdateMessage, nil
}

// tolerate returns nil for what a busy game may show a player: an answer
// that never came (counted), or a button gone before the click because
// the board had just changed (counted); other errors stop the table.
func (t *table) tolerate(err error) error {
	switch {
	case errors.Is(err, fakediscord.ErrNoResponse):
		return nil
	case errors.Is(err, fakediscord.ErrUnknownComponent), errors.Is(err, fakediscord.ErrComponentDisabled), errors.Is(err, fakediscord.ErrUnknownMessage):
		t.gone++
		return nil
	}
	return err
}

// buy completes a purchase from the market prompt: a card, then the
// proposed payment; a card too dear ends the turn instead.
func (t *table) buy(ctx context.Context, user fakediscord.User, b board, r *fakediscord.Response) (bool, error) {
	if r.Message == nil || !r.Ephemeral() {
		return false, nil
	}
	var menus []fakediscord.Component
	for _, c := range controls(*r.Message) {
		if c.Type == fakediscord.ComponentStringSelect && len(c.Options) > 0 {
			menus = append(menus, c)
		}
	}
	if len(menus) == 0 {
		return false, nil // refused: not a market prompt
	}
	menu := menus[t.rng.IntN(len(menus))]
	opt := menu.Options[t.rng.IntN(len(menu.Options))]
	r, err := t.interact(ctx, kindSelect, func(ctx context.Context) (*fakediscord.Interaction, error) {
		return t.fake.Select(ctx, user.ID, r.Message.ID, menu.CustomID, opt.Value)
	})
	if err != nil {
		return false, t.tolerate(err)
	}
	if r.Message != nil && len(withVerb(*r.Message, "bpay")) > 0 {
		return t.prompt(ctx, user, r, "bpay", func(ids []customID) customID { return ids[0] })
	}
	end, ok := b.buttons["end"]
	if !ok {
		return false, nil
	}
	r, err = t.click(ctx, user, b.msg.ID, end.raw)
	if err != nil {
		return false, t.tolerate(err)
	}
	return r.Type == fakediscord.CallbackUpdateMessage, nil
}

// prompt clicks one of the buttons of verb on the private prompt r. The
// decision is applied when the prompt is replaced by its confirmation; a
// refusal redraws the prompt with its buttons.
func (t *table) prompt(ctx context.Context, user fakediscord.User, r *fakediscord.Response, verb string, pick func([]customID) customID) (bool, error) {
	if r.Message == nil {
		return false, nil
	}
	ids := withVerb(*r.Message, verb)
	if len(ids) == 0 {
		return false, nil
	}
	id := pick(ids)
	r2, err := t.click(ctx, user, r.Message.ID, id.raw)
	if err != nil {
		return false, t.tolerate(err)
	}
	if r2.Message != nil {
		if _, still := r2.Message.FindComponent(id.raw); still {
			return false, nil
		}
	}
	return r2.Type == fakediscord.CallbackUpdateMessage, nil
}

// click thinks, then clicks a button as user.
func (t *table) click(ctx context.Context, user fakediscord.User, msgID, customID string) (*fakediscord.Response, error) {
	return t.interact(ctx, kindButton, func(ctx context.Context) (*fakediscord.Interaction, error) {
		return t.fake.Click(ctx, user.ID, msgID, customID)
	})
}

// interact thinks, sends one interaction and waits for its answer,
// recording its latency. An interaction left unanswered is counted and
// returned as fakediscord.ErrNoResponse. The answer is waited for even
// when ctx ends meanwhile: it belongs to the run.
func (t *table) interact(ctx context.Context, k kind, send func(context.Context) (*fakediscord.Interaction, error)) (*fakediscord.Response, error) {
	return t.interactAfter(ctx, k, t.think(), send)
}

// interactAfter is interact with the think time given: safe for
// concurrent use by the players of one table (it draws nothing from the
// table's random source).
func (t *table) interactAfter(ctx context.Context, k kind, think time.Duration, send func(context.Context) (*fakediscord.Interaction, error)) (*fakediscord.Response, error) {
	if err := sleep(ctx, think); err != nil {
		return nil, err
	}
	ix, err := send(ctx)
	if err != nil {
		return nil, err
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
		return nil, err
	}
	t.mu.Lock()
	t.samples[k] = append(t.samples[k], r.Latency)
	t.last = r
	t.mu.Unlock()
	t.answered.Add(1)
	t.recent.add(r.Latency)
	return r, nil
}

// think is how long a player takes before an interaction: Think, varied
// uniformly by ±Jitter.
func (t *table) think() time.Duration {
	d := float64(t.cfg.Think)
	if j := t.cfg.Jitter; j > 0 {
		d *= 1 + j*(2*t.rng.Float64()-1)
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
