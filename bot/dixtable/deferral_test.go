package dixtable

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

// pausedStore is a store that can be paused the way Redis is by DEBUG SLEEP
// or CLIENT PAUSE: the calls made meanwhile wait, and run in order once it
// resumes, also those whose caller stopped waiting (its deadline passed):
// that caller got its context's error, as a client that timed out does,
// though its call ran.
type pausedStore struct {
	*tabletest.MemStore
	ops  chan func()
	mu   sync.Mutex
	gate chan struct{} // while paused: closed on resume
}

func newPausedStore(m *tabletest.MemStore) *pausedStore {
	s := &pausedStore{MemStore: m, ops: make(chan func(), 1000)}
	go func() {
		for op := range s.ops {
			s.mu.Lock()
			g := s.gate
			s.mu.Unlock()
			if g != nil {
				<-g
			}
			op()
		}
	}()
	return s
}

func (s *pausedStore) pause() {
	s.mu.Lock()
	s.gate = make(chan struct{})
	s.mu.Unlock()
}

func (s *pausedStore) resume() {
	s.mu.Lock()
	close(s.gate)
	s.gate = nil
	s.mu.Unlock()
}

// call queues op and waits for it, or for ctx.
func (s *pausedStore) call(ctx context.Context, op func()) error {
	done := make(chan struct{})
	s.ops <- func() { op(); close(done) }
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// The results are locals, not named results: when ctx ends first the queued
// op still writes them later, and a return must not write them meanwhile.

func (s *pausedStore) Get(ctx context.Context, channel string) (*dixbot.Record, error) {
	var r *dixbot.Record
	var err error
	if cerr := s.call(ctx, func() { r, err = s.MemStore.Get(context.Background(), channel) }); cerr != nil {
		return nil, cerr
	}
	return r, err
}

func (s *pausedStore) Create(ctx context.Context, r *dixbot.Record) error {
	var err error
	if cerr := s.call(ctx, func() { err = s.MemStore.Create(context.Background(), r) }); cerr != nil {
		return cerr
	}
	return err
}

func (s *pausedStore) Update(ctx context.Context, channel, id string, fn func(*dixbot.Record) error) (*dixbot.Record, error) {
	var r *dixbot.Record
	var err error
	if cerr := s.call(ctx, func() { r, err = s.MemStore.Update(context.Background(), channel, id, fn) }); cerr != nil {
		return nil, cerr
	}
	return r, err
}

// lyingStore applies every write but answers the first lies of them with
// err, as a store whose reply was lost after the write landed.
type lyingStore struct {
	*tabletest.MemStore
	err  error
	mu   sync.Mutex
	lies int
}

func (s *lyingStore) lie() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lies == 0 {
		return false
	}
	s.lies--
	return true
}

func (s *lyingStore) Update(ctx context.Context, channel, id string, fn func(*dixbot.Record) error) (*dixbot.Record, error) {
	r, err := s.MemStore.Update(ctx, channel, id, fn)
	if err == nil && id != "" && s.lie() {
		return nil, s.err
	}
	return r, err
}

func (s *lyingStore) Create(ctx context.Context, r *dixbot.Record) error {
	err := s.MemStore.Create(ctx, r)
	if err == nil && s.lie() {
		return s.err
	}
	return err
}

// Delete answers dixbot.ErrNotFound when there is nothing to delete, as
// store.Redis.Delete does.
func (s *lyingStore) Delete(ctx context.Context, channel string) error {
	if _, ok := s.Snapshot(channel); !ok {
		return dixbot.ErrNotFound
	}
	err := s.MemStore.Delete(ctx, channel)
	if err == nil && s.lie() {
		return s.err
	}
	return err
}

// TestCancelAppliedThoughTheStoreSaidNo: a lobby whose deletion landed but
// was answered with an error is told cancelled, not "no game".
func TestCancelAppliedThoughTheStoreSaidNo(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	lobby := h.Command("u1", "start").Shown(nil)
	require.NotNil(t, lobby)
	withStore(h, &lyingStore{MemStore: h.St, err: dixbot.ErrUnavailable, lies: 1})
	r := h.ClickOn("u1", lobby, h.MustFind(lobby, verbCancel))
	resp := r.Response()
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, resp.Type)
	require.Len(t, resp.Data.Embeds, 1)
	assert.Equal(t, enT("lobby_title_cancelled", nil), resp.Data.Embeds[0].Title)
	_, err := h.St.Get(context.Background(), h.Channel)
	assert.ErrorIs(t, err, dixbot.ErrNotFound)
}

// withStore makes h's bot use st (built on h.st), with the default budgets.
func withStore(h *harness, st dixbot.Store) {
	h.T.Helper()
	b, err := bot.New(bot.Options{Store: st, DefaultLanguage: "en", Seed: func() int64 { return 7 }, Observer: h.Obs})
	require.NoError(h.T, err)
	h.b = b
}

// onRespond calls f with every first answer (or deferral) sent.
func onRespond(h *harness, f func(*discordgo.InteractionResponse)) {
	h.Rec.Mu.Lock()
	defer h.Rec.Mu.Unlock()
	h.Rec.Refuse = func(c tabletest.Call) error {
		if c.Op == "respond" {
			f(c.Resp)
		}
		return nil
	}
}

func ops(r result) []string {
	var out []string
	for _, c := range r.Calls {
		out = append(out, c.Op)
	}
	return out
}

// drawnTwin is the game state after Alice's first draw of the auction deck
// in a harness where nothing went wrong.
func drawnTwin(t *testing.T) []byte {
	t.Helper()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, auctionDeck, dix.Options{Players: 2, FirstPlayer: 0})
	board := h.Board()
	h.ClickOn("u1", board, h.MustFind(board, verbDraw))
	return snap(h).State
}

// TestSlowStoreDefersTheAnswer: a store that answers nothing for 2.5 s
// (and longer, until the deferral is seen) does not fail the click: it is
// deferred with DEFERRED_UPDATE_MESSAGE, applied once, and the board shows
// the draw through the interaction's token, with no error anywhere.
func TestSlowStoreDefersTheAnswer(t *testing.T) {
	t.Parallel()
	want := drawnTwin(t)
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, auctionDeck, dix.Options{Players: 2, FirstPlayer: 0})
	board := h.Board()
	ps := newPausedStore(h.St)
	withStore(h, ps)
	deferred := make(chan struct{})
	var once sync.Once
	onRespond(h, func(r *discordgo.InteractionResponse) {
		if r.Type == discordgo.InteractionResponseDeferredMessageUpdate {
			once.Do(func() { close(deferred) })
		}
	})
	ps.pause()
	go func() {
		time.Sleep(2500 * time.Millisecond)
		select {
		case <-deferred:
		case <-time.After(time.Minute):
		}
		ps.resume()
	}()

	r := h.ClickOn("u1", board, h.MustFind(board, verbDraw))
	resp := r.Response()
	assert.Equal(t, discordgo.InteractionResponseDeferredMessageUpdate, resp.Type, "deferred: %v", ops(r))
	assert.Equal(t, 1, countOps(r, "respond"), "one first answer: %v", ops(r))
	assert.Equal(t, 1, countOps(r, "editOriginal"), "the board is updated through the token: %v", ops(r))
	assert.NotContains(t, r.Texts(), enT("err_store_unavailable", nil))
	assert.Equal(t, 1, h.Obs.Outcomes["button/ok"], "%v", h.Obs.Outcomes)

	assert.Equal(t, want, snap(h).State, "the draw is applied once")
	showsNow(h, board)
}

// showsNow asserts that msg carries game buttons of the game as it stands.
func showsNow(h *harness, msg *tabletest.Message) {
	h.T.Helper()
	shown := h.Rec.Message(msg.ID)
	v, ok := shownVersion(&discordgo.Message{Components: shown.Components})
	require.True(h.T, ok, "game buttons: %v", tabletest.ComponentIDs(shown.Components))
	assert.Equal(h.T, snapSeq(h), v, "the message shows the game as it stands")
}

func countOps(r result, op string) int {
	n := 0
	for _, c := range r.Calls {
		if c.Op == op {
			n++
		}
	}
	return n
}

// TestAppliedClickIsNeverRefused: a write that lands but is answered with
// an error (the reply lost, a timeout) is found applied when tried again:
// the player sees the result, never "store unreachable", and the click is
// applied once. The same for the record /dix start creates.
func TestAppliedClickIsNeverRefused(t *testing.T) {
	t.Parallel()
	want := drawnTwin(t)
	for _, lie := range []error{dixbot.ErrUnavailable, context.DeadlineExceeded} {
		t.Run(lie.Error(), func(t *testing.T) {
			h := newHarness(t)
			seedGame(h, []string{"u1", "u2"}, auctionDeck, dix.Options{Players: 2, FirstPlayer: 0})
			board := h.Board()
			ls := &lyingStore{MemStore: h.St, err: lie, lies: 1}
			withStore(h, ls)
			r := h.ClickOn("u1", board, h.MustFind(board, verbDraw))
			assert.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type, "%v", ops(r))
			assert.NotContains(t, r.Texts(), enT("err_store_unavailable", nil))
			assert.Equal(t, want, snap(h).State, "the draw is applied once")
			showsNow(h, board)

			h.Channel = "c2"
			ls.lies = 1
			r = h.Command("u3", "start")
			resp := r.Response()
			require.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, resp.Type)
			assert.Zero(t, resp.Data.Flags&discordgo.MessageFlagsEphemeral, "the lobby, not a refusal: %q", resp.Data.Content)
			assert.NotEmpty(t, tabletest.FindIDs(r.Shown(nil), verbJoin), "the lobby's buttons")
		})
	}
}

// TestStoreStaysDown: a store down for longer than the call's budget gets
// the localised error, through the interaction's token once deferred: a
// follow-up for a click, the "thinking…" message for a command, and a
// private follow-up for /dix start, whose public "thinking…" goes.
func TestStoreStaysDown(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, auctionDeck, dix.Options{Players: 2, FirstPlayer: 0})
	board := h.Board()
	before := snap(h)
	h.b.DeferAfter, h.b.WorkBudget = 50*time.Millisecond, 1500*time.Millisecond
	h.St.SetFail(dixbot.ErrUnavailable)
	h.Locale = discordgo.French
	down := locales.T("fr", "err_store_unavailable", nil)

	r := h.ClickOn("u1", board, h.MustFind(board, verbDraw))
	require.Equal(t, discordgo.InteractionResponseDeferredMessageUpdate, r.Response().Type)
	require.Equal(t, 1, countOps(r, "followup"), "%v", ops(r))
	for _, c := range r.Calls {
		if c.Op == "followup" {
			assert.Equal(t, down, c.Params.Content)
			assert.NotZero(t, c.Params.Flags&discordgo.MessageFlagsEphemeral)
		}
	}

	r = h.Command("u1", "hand")
	resp := r.Response()
	require.Equal(t, discordgo.InteractionResponseDeferredChannelMessageWithSource, resp.Type)
	assert.NotZero(t, resp.Data.Flags&discordgo.MessageFlagsEphemeral, "thinking privately")
	assert.Equal(t, down, h.Rec.Message("orig-"+r.Calls[0].Interaction).Content)

	r = h.Command("u3", "start")
	resp = r.Response()
	require.Equal(t, discordgo.InteractionResponseDeferredChannelMessageWithSource, resp.Type)
	assert.Zero(t, resp.Data.Flags&discordgo.MessageFlagsEphemeral, "the lobby would be public")
	assert.Equal(t, []string{"respond", "deleteOriginal", "followup"}, ops(r))
	last := r.Calls[len(r.Calls)-1]
	assert.Equal(t, down, last.Params.Content)
	assert.NotZero(t, last.Params.Flags&discordgo.MessageFlagsEphemeral, "the refusal is private")

	h.St.SetFail(nil)
	unchanged(h, before)
}

// TestDeferredModal: a modal cannot follow a deferral; the player is told
// privately to click again.
func TestDeferredModal(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, prompt := toAuction(t, h)
	ps := newPausedStore(h.St)
	withStore(h, ps)
	h.b.DeferAfter = 50 * time.Millisecond
	deferred := make(chan struct{})
	var once sync.Once
	onRespond(h, func(r *discordgo.InteractionResponse) {
		if r.Type == discordgo.InteractionResponseDeferredMessageUpdate {
			once.Do(func() { close(deferred) })
		}
	})
	ps.pause()
	go func() {
		select {
		case <-deferred:
		case <-time.After(time.Minute):
		}
		ps.resume()
	}()
	r := h.ClickOn("u2", prompt, h.MustFind(prompt, verbBidCustom))
	assert.Equal(t, discordgo.InteractionResponseDeferredMessageUpdate, r.Response().Type)
	require.Equal(t, []string{"respond", "followup"}, ops(r))
	assert.Equal(t, enT("slow_modal", nil), r.Calls[1].Params.Content)
}
