package bot

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	computer "github.com/dixgame/dixbot/computer/qwixx"
	rules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/internal/discordapi"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

// toActivePrompt plays Qwixx clicks on the board until the active player
// may open their private prompt, opens it and returns it with the custom
// id of its menu and the menu's first decision.
func toActivePrompt(t *testing.T, h *harness, users []string, board *tabletest.Message) (*tabletest.Message, *tabletest.Message, string, string) {
	t.Helper()
	for step := 0; ; step++ {
		require.Less(t, step, 50, "the active player never had a prompt")
		g, _, _ := h.qstate()
		if g.Phase == rules.PhaseWhite && g.Deciding(g.Active) {
			res := h.ClickOn(users[g.Active], board, h.qmust(board, verbPrompt, ""))
			prompt := res.Shown(nil)
			require.NotNil(t, prompt)
			sel, ok := qfind(prompt, verbSelect, "")
			require.True(t, ok, "a menu of decisions")
			vals := tabletest.SelectOptions(prompt, sel)
			require.NotEmpty(t, vals)
			return board, prompt, sel, vals[0]
		}
		seat := g.ToDecide()[0]
		m, err := computer.Player{Level: computer.Normal}.Decide(rules.StateOf(g), seat, rand.New(rand.NewPCG(uint64(step), 1)))
		require.NoError(t, err)
		board = h.ClickOn(users[seat], board, h.qmust(board, verbMove, string(m))).Shown(board)
	}
}

// boardShows reports whether the board message shows the channel's game
// as it stands.
func boardShows(t *testing.T, h *harness, board string) bool {
	t.Helper()
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	td, err := decodeTableData(r.Meta)
	require.NoError(t, err)
	pb, _, err := h.b.drawBoard(h.b.games[r.Game], r, td, "")
	require.NoError(t, err)
	return h.Rec.Message(board).Content == pb.Content
}

// A decision taken in a private prompt while Discord fails leaves the
// board's edit owed in the record, which becomes due after the grace;
// whoever finds it due then edits the board, once, through the token of
// the board's last click rather than the bot token.
func TestBoardEditOwedSurvivesAFailure(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	users := []string{"u1", "u2"}
	board, prompt, sel, val := toActivePrompt(t, h, users, h.openQwixx(users))
	g, _, _ := h.qstate()
	h.Rec.Mu.Lock()
	h.Rec.Fail = errors.New("discord unreachable")
	h.Rec.Mu.Unlock()
	res := h.ClickOn(users[g.Active], prompt, sel, val)
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, res.Response().Type, "the prompt says the decision is taken")
	h.Rec.Mu.Lock()
	h.Rec.Fail = nil
	h.Rec.Mu.Unlock()

	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	td, err := decodeTableData(r.Meta)
	require.NoError(t, err)
	require.NotEmpty(t, td.Outbox, "the board's edit is still owed")
	assert.Equal(t, effEdit, td.Outbox[0].Kind)
	require.False(t, r.Due.IsZero())
	assert.False(t, boardShows(t, h, board.ID), "the board is behind the game")

	// Within the grace, the process that made the change has the effects.
	n := h.Rec.Count()
	require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, time.Now()))
	assert.Equal(t, n, h.Rec.Count(), "nothing done before the grace is over")

	require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, r.Due))
	assert.True(t, boardShows(t, h, board.ID), "the board shows the game")
	for _, c := range h.Rec.Since(n) {
		assert.NotContains(t, []string{"edit", "send"}, c.Op, "no request with the bot token")
	}
	_, td, _ = h.qstate()
	assert.Empty(t, td.Outbox, "nothing left owed")

	// Found due again, it does nothing.
	n = h.Rec.Count()
	require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, time.Now().Add(time.Hour)))
	for _, c := range h.Rec.Since(n) {
		assert.NotEqual(t, "followupEdit", c.Op, "the board is not edited twice")
	}
}

// A click on the board delivered twice, the first delivery having died
// before its answer, is applied once and answered as the first answer
// would have been: the board as it stands, in place.
func TestRedeliveredClickShowsTheBoard(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	users := []string{"u1", "u2"}
	board := h.openQwixx(users)
	g, _, _ := h.qstate()
	seq := g.Seq
	seat := g.ToDecide()[0]
	ix := h.ClickIx(users[seat], board, h.qmust(board, verbMove, "w -"))
	h.runAnswerLost(ix)

	again := *ix
	res := h.Run(&again)
	g, _, _ = h.qstate()
	assert.Equal(t, seq+1, g.Seq, "applied once")
	resp := res.Response()
	require.NotNil(t, resp)
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, resp.Type, "the board in place")
	assert.True(t, boardShows(t, h, board.ID), "the board shows the game")
}

// The board edit of a change made while another change lands shows the
// older game; the table owes the board again, and the next run shows the
// newer game: an older render is never the board's last word.
func TestBoardEditOvertakenIsShownAgain(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	users := []string{"u1", "u2", "u3"}
	board, prompt, sel, val := toActivePrompt(t, h, users, h.openQwixx(users))
	g, _, _ := h.qstate()
	var other int = -1
	for _, s := range g.ToDecide() {
		if s != g.Active {
			other = s
		}
	}
	require.GreaterOrEqual(t, other, 0)
	overtaken := false
	h.Rec.Mu.Lock()
	h.Rec.Refuse = func(c tabletest.Call) error {
		if c.Op != "followupEdit" || c.Edit.ID != board.ID || overtaken {
			return nil
		}
		overtaken = true
		// Another player's decision lands while this edit is on its way.
		return passWhiteSum(h.Db, h.Channel, other)
	}
	h.Rec.Mu.Unlock()
	h.ClickOn(users[g.Active], prompt, sel, val)
	h.Rec.Mu.Lock()
	h.Rec.Refuse = nil
	h.Rec.Mu.Unlock()
	require.True(t, overtaken)
	assert.False(t, boardShows(t, h, board.ID), "the edit showed the older game")
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	td, err := decodeTableData(r.Meta)
	require.NoError(t, err)
	require.Len(t, td.Outbox, 1, "the board is owed again")
	assert.True(t, td.Outbox[0].Again)
	require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, r.Due))
	assert.True(t, boardShows(t, h, board.ID), "the board shows the newer game")
}

// A ping owed by a change is posted as a follow-up of the clicking
// interaction and settled through it; a finished game's last effects
// archive it, and the board then shows the final scoreboard.
func TestGameEndIsOwed(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	users := []string{"u1"}
	board := h.openQwixx(users, "easy")
	for step := 0; ; step++ {
		require.Less(t, step, 2000, "the game does not end")
		r, err := h.Db.Get(context.Background(), h.Channel)
		require.NoError(t, err)
		if r.Finished {
			break
		}
		td, err := decodeTableData(r.Meta)
		require.NoError(t, err)
		assert.Empty(t, td.Outbox, "every click's effects are done after its answer")
		st, err := rules.Rules{}.Decode(r.Data)
		require.NoError(t, err)
		require.False(t, st.Over(), "a game over is archived by its last effect")
		m, err := computer.Player{Level: computer.Normal}.Decide(st, 0, rand.New(rand.NewPCG(uint64(step), 3)))
		require.NoError(t, err)
		board = h.ClickOn("u1", board, h.qmust(board, verbMove, string(m))).Shown(board)
	}
	assert.Contains(t, h.Rec.Message(board.ID).Content, locales.T("en", "qwixx_over_title", nil))
	for _, c := range h.Rec.Since(0) {
		assert.NotContains(t, []string{"edit", "send"}, c.Op, "no request with the bot token at human pace")
	}
}

// A ping owed while Discord fails, then settled by later clicks before it
// was ever posted: the effects wait in order, and the run that posts the
// ping settles that very message, as a follow-up edited through its token.
func TestPingSettledBeforePosted(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.now = func() time.Time { return now }
	users := []string{"u1", "u2", "u3"}
	h.Rec.Mu.Lock()
	h.Rec.Fail = errors.New("discord unreachable")
	h.Rec.Mu.Unlock()
	board := h.openQwixx(users)
	_, td, _ := h.qstate()
	require.NotNil(t, td.Ping, "a ping is owed")
	assert.Empty(t, td.Ping.ID, "not posted")
	g, _, _ := h.qstate()
	for _, s := range g.ToDecide() {
		board = h.ClickOn(users[s], board, h.qmust(board, verbMove, "w -")).Shown(board)
	}
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	td, err = decodeTableData(r.Meta)
	require.NoError(t, err)
	settle := -1
	for i, e := range td.Outbox {
		if n, ok := pingRef(e); ok {
			settle = i
			assert.Less(t, uint32(0), n)
		}
	}
	require.GreaterOrEqual(t, settle, 0, "the settle names the ping by its effect")
	h.Rec.Mu.Lock()
	h.Rec.Fail = nil
	h.Rec.Mu.Unlock()
	n := h.Rec.Count()
	require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, r.Due))
	posted, settled := false, false
	for _, c := range h.Rec.Since(n) {
		if c.Op == "followup" && c.Params.AllowedMentions != nil && len(c.Params.AllowedMentions.Users) > 0 {
			posted = true
		}
		if c.Op == "followupEdit" && c.Edit.Content != nil && *c.Edit.Content == locales.T("en", "table_ping_settled", map[string]any{"Names": "Bob, Chloé"}) {
			settled = true
		}
	}
	assert.True(t, posted, "the ping is posted")
	assert.True(t, settled, "and settled")
	_, td, _ = h.qstate()
	assert.Empty(t, td.Outbox)
}

// When Discord refuses the board's edit for a rate limit, the outbox is
// due again when the limit's retry_after says, not at its fixed grace or
// lease: much later for a long global 429, sooner for a short 429 of a
// route, and then done.
func TestOutboxWaitsOutTheRateLimit(t *testing.T) {
	t.Parallel()
	route := &discordgo.RateLimitError{RateLimit: &discordgo.RateLimit{TooManyRequests: &discordgo.TooManyRequests{RetryAfter: 400 * time.Millisecond}}}
	for _, tc := range []struct {
		name string
		err  error
		wait time.Duration
	}{
		{"global 429 of 40 s", &discordapi.RateLimited{After: 40 * time.Second, Global: true, Sent: true}, 40 * time.Second},
		{"route 429 of 400 ms", route, 400 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newQwixxHarness(t, false)
			users := []string{"u1", "u2"}
			_, prompt, sel, val := toActivePrompt(t, h, users, h.openQwixx(users))
			g, _, _ := h.qstate()
			refuse := func(on bool) {
				h.Rec.Mu.Lock()
				defer h.Rec.Mu.Unlock()
				h.Rec.Refuse = nil
				if on {
					h.Rec.Refuse = func(c tabletest.Call) error {
						if c.Op != "respond" {
							return tc.err
						}
						return nil
					}
				}
			}
			refuse(true)
			before := time.Now()
			h.ClickOn(users[g.Active], prompt, sel, val)
			r, err := h.Db.Get(context.Background(), h.Channel)
			require.NoError(t, err)
			td, err := decodeTableData(r.Meta)
			require.NoError(t, err)
			require.NotEmpty(t, td.Outbox, "the board's edit is still owed")
			assert.WithinDuration(t, before.Add(tc.wait), r.Due, time.Second, "due when the limit ends")

			// Claimed once due (a lease of 30 s), and refused again.
			assert.Error(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, r.Due), "refused again")
			r, err = h.Db.Get(context.Background(), h.Channel)
			require.NoError(t, err)
			assert.WithinDuration(t, time.Now().Add(tc.wait), r.Due, time.Second, "due when the limit ends, not at the lease's end")

			refuse(false)
			require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, r.Due))
			_, td, _ = h.qstate()
			assert.Empty(t, td.Outbox, "done once the limit let it go")
		})
	}
}

// A change's own process posts the messages its effects owe only while it
// holds them (the grace after the change): the ping a Qwixx game's start
// owes is not posted by the change's own process once another process
// took its effects over, and that process posts it once.
func TestOwnEffectsOnlyWhileHeld(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	lobby := h.qcommand("u1", "start").Shown(nil)
	require.NotNil(t, lobby)
	lobby = h.ClickOn("u2", lobby, h.qmust(lobby, verbJoin, "")).Shown(lobby)
	h.b.hooks.effectDelay = outboxGrace
	h.b.hooks.beforeEffects = func() {
		_, err := h.Db.Update(context.Background(), h.Channel, "", func(r *dixbot.Record) error {
			r.Due = time.Now().Add(outboxLease) // what another process's claim writes
			return nil
		})
		require.NoError(t, err)
	}
	res := h.ClickOn("u1", lobby, h.qmust(lobby, verbGo, ""))
	for _, c := range res.Calls {
		assert.False(t, c.Posted(), "nothing posted once the effects were taken over: %s", c.Op)
	}
	_, td, _ := h.qstate()
	owed := 0
	for _, e := range td.Outbox {
		if e.Kind == effPing {
			owed++
		}
	}
	require.Equal(t, 1, owed, "Bob's ping is still owed")

	h.b.hooks = testHooks{}
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	before := h.Rec.Count()
	require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, r.Due))
	posts := 0
	for _, c := range h.Rec.Since(before) {
		if c.Posted() {
			posts++
		}
	}
	assert.Equal(t, 1, posts, "the ping is posted once")
	_, td, _ = h.qstate()
	assert.Empty(t, td.Outbox)
}

// An effect Discord refuses for good (the message to retire was deleted
// by a moderator) is skipped: it does not block the effects after it,
// which are done, and the outbox is left empty.
// owe writes effs into the outbox of the channel's table, as a change
// would, and returns the record written.
func (h *harness) owe(effs ...effect) *dixbot.Record {
	h.T.Helper()
	rec, err := h.Db.Update(context.Background(), h.Channel, "", func(r *dixbot.Record) error {
		td, err := decodeTableData(r.Meta)
		if err != nil {
			return err
		}
		td.owe(r, time.Now(), effs...)
		r.Meta = td.Encode()
		return nil
	})
	require.NoError(h.T, err)
	return rec
}

func TestPermanentRefusalIsSkipped(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	board := h.openQwixx([]string{"u1", "u2"})
	rec := h.owe(effect{Kind: effRetire, Msg: "gone"}, effect{Kind: effEdit})
	gone := &discordgo.RESTError{Response: &http.Response{StatusCode: http.StatusNotFound},
		Message: &discordgo.APIErrorMessage{Code: discordgo.ErrCodeUnknownMessage}}
	h.Rec.Mu.Lock()
	h.Rec.Refuse = func(c tabletest.Call) error {
		if c.Edit != nil && c.Edit.ID == "gone" {
			return gone
		}
		return nil
	}
	h.Rec.Mu.Unlock()
	before := h.Rec.Count()
	require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, rec.Due))
	_, td, _ := h.qstate()
	assert.Empty(t, td.Outbox, "nothing left owed")
	edited, refused := false, false
	for _, c := range h.Rec.Since(before) {
		edited = edited || c.Edit != nil && c.Edit.ID == board.ID && !c.Refused
		refused = refused || c.Edit != nil && c.Edit.ID == "gone" && c.Refused
	}
	assert.True(t, refused, "the retire was tried")
	assert.True(t, edited, "the board's edit after the refused effect was done")
}

// getHookStore calls hook at each Get, before it reads, until hook
// reports that it acted: the moment another process may write.
type getHookStore struct {
	*tabletest.MemStore
	mu   sync.Mutex
	hook func() bool
}

func (s *getHookStore) Get(ctx context.Context, channel string) (*dixbot.Record, error) {
	s.mu.Lock()
	hook := s.hook
	s.mu.Unlock()
	if hook != nil && hook() {
		s.mu.Lock()
		s.hook = nil
		s.mu.Unlock()
	}
	return s.MemStore.Get(ctx, channel)
}

// errNotYet: the moment has not come.
var errNotYet = errors.New("not yet")

func (s *getHookStore) arm(hook func() bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hook = hook
}

// whiteSumRace opens a Qwixx table of three people on a store whose reads
// run a hook, at the white sum where every seat decides: me clicks,
// other is the seat whose change another process writes (otherDecides).
type whiteSumRace struct {
	db        *getHookStore
	h         *harness
	users     []string
	board     *tabletest.Message
	me, other int
	shown     string // the board's text before the click
	seq       uint64 // the game's sequence number before the click
}

func newWhiteSumRace(t *testing.T) *whiteSumRace {
	db := &getHookStore{MemStore: tabletest.NewMemStore()}
	h := newQwixxHarnessOn(t, db, false)
	users := []string{"u1", "u2", "u3"}
	board := h.openQwixx(users)
	g, _, _ := h.qstate()
	deciding := g.ToDecide()
	require.Len(t, deciding, 3, "the white sum: every seat decides")
	return &whiteSumRace{db: db, h: h, users: users, board: board, me: deciding[0], other: deciding[1],
		shown: h.Rec.Message(board.ID).Content, seq: g.Seq}
}

// otherDecides writes the other seat's pass on the white sum, as another
// process would; errNotYet when me has not decided yet and mine is set.
func (w *whiteSumRace) otherDecides(mine bool) error {
	_, err := w.h.Db.Update(context.Background(), w.h.Channel, "", func(r *dixbot.Record) error {
		st, err := rules.Rules{}.Decode(r.Data)
		if err != nil {
			return err
		}
		if mine && slices.Contains(st.ToDecide(), w.me) {
			return errNotYet
		}
		if _, err := st.Apply(w.other, "w -"); err != nil {
			return err
		}
		r.Data = st.Encode()
		return nil
	})
	return err
}

// otherAfterTheAnswer clicks me's pass on the board, and writes the
// other's change once this click's answer is on the board, as another
// process would (its answer not sent), with every effect owed done too
// when done is set. It returns the name of the third seat, the one left
// to decide.
func (w *whiteSumRace) otherAfterTheAnswer(t *testing.T, done bool) string {
	h, board := w.h, w.board
	acted := false
	w.db.arm(func() bool {
		if h.Rec.Message(board.ID).Content == w.shown {
			return false
		}
		require.NoError(t, w.otherDecides(false))
		if done {
			require.NoError(t, outboxDoneElsewhere(h.Db, h.Channel))
		}
		acted = true
		return true
	})
	resp := h.ClickOn(w.users[w.me], board, h.qmust(board, verbMove, "w -")).Response()
	require.NotNil(t, resp)
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, resp.Type, "the board in place: the game had not moved at the check")
	require.True(t, acted, "the other's change landed after the answer")
	return []string{"Alice", "Bob", "Chloé"}[3-w.me-w.other]
}

// Two seats decide at once, each on its own process: the other's change
// is written after this click's, and its answer may have landed already.
// This click's answer, which shows the older game, is left out (the click
// acknowledged, the board not changed), so it cannot put the older game
// back on the board. Without the other's change, the answer is the board.
func TestAnswerOvertakenByAnotherProcessIsLeftOut(t *testing.T) {
	t.Parallel()
	w := newWhiteSumRace(t)
	db, h, users, board, me, other, shown, seq := w.db, w.h, w.users, w.board, w.me, w.other, w.shown, w.seq
	acted := false
	db.arm(func() bool {
		// Once this click's change is written: the other's lands.
		err := w.otherDecides(true)
		if errors.Is(err, errNotYet) {
			return false
		}
		require.NoError(t, err)
		acted = true
		return true
	})
	resp := h.ClickOn(users[me], board, h.qmust(board, verbMove, "w -")).Response()
	require.NotNil(t, resp)
	assert.Equal(t, discordgo.InteractionResponseDeferredMessageUpdate, resp.Type, "left out: the later change shows itself")
	require.True(t, acted, "the other's change landed before the answer")
	// The older game, the one this click's change alone made, never
	// reaches the board: "Waiting for" lists the third seat alone now.
	names := []string{"Alice", "Bob", "Chloé"}
	older := "Waiting for: " + names[other] + ", " + names[3-me-other]
	if other > 3-me-other {
		older = "Waiting for: " + names[3-me-other] + ", " + names[other]
	}
	require.Contains(t, shown, "Waiting for: Alice, Bob, Chloé")
	for _, c := range h.Rec.Since(0) {
		if c.Resp != nil && c.Resp.Data != nil {
			assert.NotContains(t, c.Resp.Data.Content, older, "%s: the older game", c.Op)
		}
		if c.Edit != nil && c.Edit.Content != nil {
			assert.NotContains(t, *c.Edit.Content, older, "%s: the older game", c.Op)
		}
	}
	assert.Equal(t, shown, h.Rec.Message(board.ID).Content, "the board as it was: the other's answer shows the newer game")
	g, _, _ := h.qstate()
	assert.Equal(t, seq+2, g.Seq, "both decisions applied")

	// The same race without the other's change: the board in place.
	g, _, _ = h.qstate()
	third := -1
	for _, s := range g.ToDecide() {
		if s != me && s != other {
			third = s
		}
	}
	require.GreaterOrEqual(t, third, 0)
	resp = h.ClickOn(users[third], board, h.qmust(board, verbMove, "w -")).Response()
	require.NotNil(t, resp)
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, resp.Type, "the board in place")
}

// Two seats decide at once, each on its own process, and the other's
// change is written after this click's answer was checked (overtaken) but
// before it is known landed: the other's answer may have landed first,
// so the board may show the older game. The board's edit is owed again,
// and the due work shows the game as it stands.
func TestAnswerOvertakenAfterItsCheckIsShownAgain(t *testing.T) {
	t.Parallel()
	w := newWhiteSumRace(t)
	h, board, seq := w.h, w.board, w.seq
	third := w.otherAfterTheAnswer(t, false)
	g, td, _ := h.qstate()
	assert.Equal(t, seq+2, g.Seq, "both decisions applied")
	// The board shows the game as it stands at once, by the outbox's
	// edit after the answer: no edit is left owed for later.
	assert.Contains(t, h.Rec.Message(board.ID).Content, "Waiting for: "+third, "the board shows the game as it stands")
	assert.False(t, cedAgain(td.Outbox), "no edit owed again: %+v", td.Outbox)
	assert.Empty(t, td.Outbox, "every effect done")
}

// Two seats decide at once, each on its own process, and the other's
// change is written after this click's answer was checked (overtaken),
// answered first and its effects done (its answer counted as showing the
// game), all before this click's effects run: this click's answer, which
// landed last, shows the older game, and no effect is left whose record
// would compare it with the game as stored. The board's edit is owed
// again all the same, and the due work shows the game as it stands.
func TestAnswerLandedLastAfterTheOthersEffectsIsShownAgain(t *testing.T) {
	t.Parallel()
	w := newWhiteSumRace(t)
	h, board := w.h, w.board
	third := w.otherAfterTheAnswer(t, true)
	require.NotContains(t, h.Rec.Message(board.ID).Content, "Waiting for: "+third+"\n",
		"the board shows this click's game, older than the one stored")
	rec, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	_, td, _ := h.qstate()
	require.True(t, cedAgain(td.Outbox), "the board's edit is owed again: %+v", td.Outbox)
	require.False(t, rec.Due.After(h.b.now()), "due at once")
	require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, rec.Due))
	assert.Contains(t, h.Rec.Message(board.ID).Content, "Waiting for: "+third, "the board shows the game as it stands")
	_, td, _ = h.qstate()
	assert.Empty(t, td.Outbox, "every effect done")
}

// A click whose answer shows the board counts as shown the board edits
// owed by earlier changes. Where several seats decide at once, one owed
// by another process is owed again in that process's name, since that
// process's answer may land after this one's and only it knows when: any
// process sends it should that process die first. One of this process's
// own is not (its fence orders its answers), nor one where a single seat
// decides (the click came from a board that showed the earlier change).
func TestEarlierEditOfAnotherProcessIsOwedAgain(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		by    string
		alone bool // a single seat decides
	}{{"another", false}, {"self", false}, {"another", true}} {
		h := newQwixxHarness(t, false)
		users := []string{"u1", "u2"}
		board := h.openQwixx(users)
		owner := c.by
		if c.by == "self" {
			owner = h.b.self
		}
		decide := func(step int) (int, string) {
			g, _, _ := h.qstate()
			seat := g.ToDecide()[0]
			m, err := computer.Player{Level: computer.Normal}.Decide(rules.StateOf(g), seat, rand.New(rand.NewPCG(uint64(step), 1)))
			require.NoError(t, err)
			return seat, h.qmust(board, verbMove, string(m))
		}
		for step := 0; c.alone; step++ {
			require.Less(t, step, 40, "a decision of one seat")
			if g, _, _ := h.qstate(); len(g.ToDecide()) == 1 {
				break
			}
			seat, id := decide(step)
			board = h.ClickOn(users[seat], board, id).Shown(board)
		}
		h.owe(effect{Kind: effEdit, By: owner})
		seat, id := decide(100)
		before := h.Rec.Count()
		resp := h.ClickOn(users[seat], board, id).Response()
		require.NotNil(t, resp)
		require.Equal(t, discordgo.InteractionResponseUpdateMessage, resp.Type, "%+v: the board in place", c)
		_, td, _ := h.qstate()
		if c.by == "self" || c.alone {
			assert.Empty(t, td.Outbox, "%+v: shown by the answer", c)
			continue
		}
		require.Len(t, td.Outbox, 1, "the edit owed again: %+v", td.Outbox)
		assert.Equal(t, effect{ID: td.NextEffect, Kind: effEdit, Again: true, By: owner}, td.Outbox[0])
		rec, err := h.Db.Get(context.Background(), h.Channel)
		require.NoError(t, err)
		assert.True(t, rec.Due.After(time.Now()), "left to its process for the grace")
		edits := 0
		for _, c := range h.Rec.Since(before) {
			if c.Edit != nil && c.Edit.ID == board.ID || c.Op == "editOriginal" {
				edits++
			}
		}
		require.Zero(t, edits, "no edit yet: the answer showed the game")
		before = h.Rec.Count()
		require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, rec.Due))
		for _, c := range h.Rec.Since(before) {
			if c.Edit != nil && c.Edit.ID == board.ID || c.Op == "editOriginal" {
				edits++
			}
		}
		assert.Equal(t, 1, edits, "sent once due, by a process other than its own")
		_, td, _ = h.qstate()
		assert.Empty(t, td.Outbox, "done")
	}
}

// An edit owed again (the game shown again after an older render of a
// process landed, or after a change during an edit) is left out where the
// process that owed it runs it and its last render on the board showed
// the game as it stands, and sent where it did not. Run by another
// process it is sent all the same: that process's fence says nothing of
// when the older render landed.
func TestEditAgainLeftOutWhereShownAlready(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	board := h.openQwixx([]string{"u1", "u2"})
	oweAgain := func(by string) *dixbot.Record { return h.owe(effect{Kind: effEdit, Again: true, By: by}) }
	edits := func(before int) int {
		n := 0
		for _, c := range h.Rec.Since(before) {
			if c.Edit != nil && c.Edit.ID == board.ID || c.Op == "editOriginal" {
				n++
			}
		}
		return n
	}
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	st, err := rules.Rules{}.Decode(r.Data)
	require.NoError(t, err)
	_, td, _ := h.qstate()
	seq, ok := h.b.boardFences.Shown(board.ID)
	require.True(t, ok, "the board was shown by this process")
	require.Equal(t, boardSeq(td, st), seq, "at the game's state")

	rec := oweAgain(h.b.self)
	before := h.Rec.Count()
	require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, rec.Due))
	assert.Zero(t, edits(before), "owed by this process, shown already: no request")
	_, td, _ = h.qstate()
	assert.Empty(t, td.Outbox, "the edit is done")

	// Owed by another process, whose older render may have landed after
	// this process's: the edit is sent.
	rec = oweAgain("another")
	before = h.Rec.Count()
	require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, rec.Due))
	assert.Equal(t, 1, edits(before), "the board shown again")
	_, td, _ = h.qstate()
	assert.Empty(t, td.Outbox, "the edit is done")

	// This process's own, where its fence knows no render of the board
	// (as after a restart): the edit is sent.
	h.b.boardFences.mu.Lock()
	h.b.boardFences.M = nil
	h.b.boardFences.mu.Unlock()
	rec = oweAgain(h.b.self)
	before = h.Rec.Count()
	require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, rec.Due))
	assert.Equal(t, 1, edits(before), "the board shown again")
}

// One edit is owed again at most. Owed again in the name of another
// process than the one it is owed in, it is left out by none: either
// process's render may be the last to land.
func TestOweAgain(t *testing.T) {
	t.Parallel()
	td := &tableData{Outbox: []effect{{ID: 1, Kind: effEdit, By: "a"}}, NextEffect: 1}
	require.True(t, td.oweAgain("a"), "owed")
	require.Equal(t, []effect{{ID: 1, Kind: effEdit, By: "a"}, {ID: 2, Kind: effEdit, Again: true, By: "a"}}, td.Outbox)
	require.False(t, td.oweAgain("a"), "owed already in that name")
	require.True(t, td.oweAgain("b"), "in another's name")
	require.Equal(t, effect{ID: 2, Kind: effEdit, Again: true}, td.Outbox[1], "left out by none")
	require.False(t, td.oweAgain("c"), "left out by none already")
	require.Len(t, td.Outbox, 2)
	assert.False(t, td.showAgain([]byte("x"), []byte("x"), "d"), "the board shows the game stored")
	assert.False(t, td.showAgain([]byte("x"), nil, "d"), "nothing shown")
}

// Table data known by its bytes is handed out for those bytes only, and
// taken once.
func TestWrittenTableData(t *testing.T) {
	t.Parallel()
	td := &tableData{V: tableDataVersion, Board: "900"}
	w := written{meta: td.Encode(), td: td}
	same := &dixbot.Record{Meta: td.Encode()}
	other := &dixbot.Record{Meta: (&tableData{V: tableDataVersion, Board: "901"}).Encode()}
	require.Same(t, td, w.of(same))
	require.Nil(t, w.of(other))
	require.Nil(t, written{}.of(same))
	require.Nil(t, w.take(other), "other bytes")
	require.Nil(t, w.take(same), "taken by the call before")
	w = written{meta: td.Encode(), td: td}
	require.Same(t, td, w.take(same))
	require.Nil(t, w.take(same), "once")
	require.Nil(t, (*written)(nil).take(same))
}

// cedAgain reports whether effs hold a board edit owed because an older
// render may have landed last.
func cedAgain(effs []effect) bool {
	for _, e := range effs {
		if e.Kind == effEdit && e.Again {
			return true
		}
	}
	return false
}
