package bot

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	botdixxit "github.com/dixgame/dixbot/bot/dixxit"
	"github.com/dixgame/dixbot/bot/present"
	botqwixx "github.com/dixgame/dixbot/bot/qwixx"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

// newQwixxHarnessOn is newQwixxHarness with the bot on db.
func newQwixxHarnessOn(t *testing.T, db dixbot.Store, pictures bool) *harness {
	t.Helper()
	h := newHarnessOn(t, db)
	b, err := New(Options{Store: h.Db, DefaultLanguage: "en", Seed: func() int64 { return 11 }, Observer: h.Obs,
		NoPictures: !pictures, Games: []present.Game{botqwixx.Game()}})
	require.NoError(t, err)
	b.workBudget, b.deferAfter = harnessBudget, harnessBudget // as newHarnessOn
	h.b = b
	return h
}

// finishHookStore runs hook (once) when a record is first archived, just
// before it is: the moment another call may come in between.
type finishHookStore struct {
	*tabletest.MemStore
	fired atomic.Bool
	hook  func()
}

func (s *finishHookStore) first() {
	if s.fired.CompareAndSwap(false, true) {
		s.hook()
	}
}

func (s *finishHookStore) Finish(ctx context.Context, channel string) error {
	s.first()
	return s.MemStore.Finish(ctx, channel)
}

func (s *finishHookStore) FinishIf(ctx context.Context, channel string, same func(*dixbot.Record) bool) error {
	s.first()
	return s.MemStore.FinishIf(ctx, channel, same)
}

// A game over whose last effects are still under way when the next table
// opens (the start archives the game over itself, FinishOver): the game's
// own archiving, done after, leaves the new lobby alone, so the lobby
// posted has its record and its Join works.
func TestLateFinishKeepsTheNextLobby(t *testing.T) {
	t.Parallel()
	st := &finishHookStore{MemStore: tabletest.NewMemStore()}
	h := newQwixxHarnessOn(t, st, false)
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.now = func() time.Time { return now }
	var lobby *tabletest.Message
	started := make(chan struct{})
	st.hook = func() {
		// The start runs beside the game's effects: its answer goes out
		// at once, its own effects wait for the channel.
		go func() {
			defer close(started)
			lobby = h.qcommand("u2", "start").Shown(nil)
		}()
		require.Eventually(t, func() bool {
			r, err := st.MemStore.Get(context.Background(), h.Channel)
			return err == nil && !r.Finished && r.Data == nil
		}, time.Minute, time.Millisecond, "the next table is created")
	}
	h.openQwixx([]string{"u1", "u2"})
	for i := 0; !st.fired.Load(); i++ {
		require.Less(t, i, 2000, "the game does not end")
		r, err := h.Db.Get(context.Background(), h.Channel)
		require.NoError(t, err)
		require.False(t, r.Due.IsZero())
		now = r.Due
		require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, now))
	}
	<-started
	require.NotNil(t, lobby, "the next table's lobby is posted")
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	require.False(t, r.Finished, "the channel has the new table")
	assert.Nil(t, r.Data, "a lobby")
	res := h.ClickOn("u1", lobby, h.qmust(lobby, verbJoin, ""))
	_, td, _ := h.qstate()
	assert.Len(t, td.Seats, 2, "the join counts: %s", res.Describe())
}

// onDeferral runs f once when the bot defers an interaction.
func onDeferral(h *harness, f func()) {
	var once sync.Once
	h.Rec.Mu.Lock()
	defer h.Rec.Mu.Unlock()
	h.Rec.Refuse = func(c tabletest.Call) error {
		if c.Op == "respond" && (c.Resp.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource ||
			c.Resp.Type == discordgo.InteractionResponseDeferredMessageUpdate) {
			once.Do(func() { go f() })
		}
		return nil
	}
}

// A command answered after its deferral (the store frozen past Discord's
// budget) edits its "thinking…" message into its answer: an answer with
// pictures says which files the message keeps, its new ones alone.
func TestDeferredAnswerWithPicturesListsItsFiles(t *testing.T) {
	t.Parallel()
	_, res := slowBoardCommand(t, true)
	edits := 0
	for _, c := range res.Calls {
		if c.Op != "editOriginal" || len(c.Edit.Files) == 0 {
			continue
		}
		edits++
		require.NotNil(t, c.Edit.Attachments, "the edit says which files stay")
		assert.Len(t, *c.Edit.Attachments, len(c.Edit.Files), "the new files alone")
	}
	assert.Equal(t, 1, edits, "the answer with its pictures: %s", res.Describe())
}

// /<game> board answered after its deferral posts the board for everyone,
// as it does at once: its "thinking…" message is public, since an edit
// cannot make a private message public, and the message adopted as the
// table's board is that public one.
func TestDeferredBoardCommandPostsAPublicBoard(t *testing.T) {
	t.Parallel()
	h, res := slowBoardCommand(t, false)
	shown := res.Shown(nil)
	require.NotNil(t, shown, res.Describe())
	assert.False(t, shown.Ephemeral, "the board is posted for everyone")
	_, td, _ := h.qstate()
	assert.Equal(t, shown.ID, td.Board, "the table's board is the one posted")
	assert.NotEmpty(t, tabletest.ComponentIDs(shown.Components), "with its buttons")
}

// A deferred /<game> board whose answer Discord refused leaves no empty
// "thinking…" message behind, and the table keeps its board, buttons and
// all: the empty message is not taken for the board.
func TestDeferredBoardCommandRefusedKeepsTheBoard(t *testing.T) {
	t.Parallel()
	ps := tabletest.NewPausedStore(tabletest.NewMemStore())
	h := newQwixxHarnessOn(t, ps, false)
	board := h.openQwixx([]string{"u1", "u2"})
	slowThenRefused(h, ps)
	res := h.qcommand("u2", "board")
	require.Equal(t, discordgo.InteractionResponseDeferredChannelMessageWithSource, res.Response().Type, "deferred")
	assert.Nil(t, h.Rec.Message("orig-"+res.Calls[0].Interaction), "the empty answer is gone: %s", res.Describe())
	_, td, _ := h.qstate()
	assert.Equal(t, board.ID, td.Board, "the board stays the table's")
	assert.NotEmpty(t, tabletest.ComponentIDs(h.Rec.Message(board.ID).Components), "with its buttons")
}

// slowThenRefused makes the next interaction slow and its answer refused:
// the store ps is frozen past Discord's budget and resumes once the
// answer is deferred, and Discord refuses every edit of the deferred
// answer with a 502.
func slowThenRefused(h *harness, ps *tabletest.PausedStore) {
	h.b.deferAfter = 10 * time.Millisecond
	h.Rec.Mu.Lock()
	h.Rec.Refuse = func(c tabletest.Call) error {
		switch {
		case c.Op == "respond" && (c.Resp.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource ||
			c.Resp.Type == discordgo.InteractionResponseDeferredMessageUpdate):
			go ps.Resume()
		case c.Op == "editOriginal":
			return &discordgo.RESTError{Response: &http.Response{StatusCode: http.StatusBadGateway}}
		}
		return nil
	}
	h.Rec.Mu.Unlock()
	ps.Pause()
}

// slowBoardCommand is /qwixx board given by u2 in a game of two, with or
// without pictures, answered after its deferral: the store is frozen past
// Discord's budget, and resumes once the deferral is sent.
func slowBoardCommand(t *testing.T, pictures bool) (*harness, result) {
	t.Helper()
	ps := tabletest.NewPausedStore(tabletest.NewMemStore())
	h := newQwixxHarnessOn(t, ps, pictures)
	h.openQwixx([]string{"u1", "u2"})
	h.b.deferAfter = 10 * time.Millisecond
	onDeferral(h, ps.Resume)
	ps.Pause()
	res := h.qcommand("u2", "board")
	require.Equal(t, discordgo.InteractionResponseDeferredChannelMessageWithSource, res.Response().Type, "deferred")
	return h, res
}

// lobbies are the public messages of the recorder that show a lobby of
// game with a Join button.
func lobbies(h *harness, game string) []*tabletest.Message {
	var out []*tabletest.Message
	for _, m := range h.Rec.Messages() {
		if m.Ephemeral {
			continue
		}
		if slices.Contains(tabletest.ComponentIDs(m.Components), buttonID(game, verbJoin, 0, "")) {
			out = append(out, m)
		}
	}
	return out
}

// A start whose record was written by a try that looked failed (the
// store's reply lost) is answered with its lobby, not told the channel
// already has a game: the lobby is there and works.
func TestStartWrittenThoughTheStoreSaidNo(t *testing.T) {
	t.Parallel()
	st := &tabletest.LyingStore{MemStore: tabletest.NewMemStore(), Err: dixbot.ErrUnavailable, Lies: 1}
	h := newQwixxHarnessOn(t, st, false)
	res := h.qcommand("u1", "start")
	resp := res.Response()
	require.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, resp.Type)
	assert.Zero(t, resp.Data.Flags&discordgo.MessageFlagsEphemeral, "a public lobby, not a refusal: %q", resp.Data.Content)
	lobby := res.Shown(nil)
	require.Len(t, lobbies(h, "qwixx"), 1)
	h.ClickOn("u2", lobby, h.qmust(lobby, verbJoin, ""))
	_, td, _ := h.qstate()
	assert.Len(t, td.Seats, 2, "the lobby works")
	assert.Empty(t, td.Outbox, "nothing left owed")
}

// A start whose record was written but whose answer never went out (the
// process died in between): the due-work poller posts the lobby, once,
// and it works; a start meanwhile is answered with the lobby rather than
// refused.
func TestLobbyLostIsPosted(t *testing.T) {
	t.Parallel()
	for _, via := range []string{"poller", "command"} {
		t.Run(via, func(t *testing.T) {
			t.Parallel()
			h := newQwixxHarnessOn(t, nil, false)
			h.dieBeforeAnswering(func() { h.qcommand("u1", "start") })
			require.Empty(t, lobbies(h, "qwixx"), "no lobby shown")
			r, err := h.Db.Get(context.Background(), h.Channel)
			require.NoError(t, err)
			require.False(t, r.Due.IsZero(), "the lobby is owed work")

			if via == "command" {
				res := h.qcommand("u2", "start")
				resp := res.Response()
				assert.Zero(t, resp.Data.Flags&discordgo.MessageFlagsEphemeral, "the lobby, not a refusal: %q", resp.Data.Content)
			}
			require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, r.Due))
			require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, r.Due.Add(time.Hour)))
			ls := lobbies(h, "qwixx")
			require.Len(t, ls, 1, "one lobby")
			lobby := ls[0]
			lobby = h.ClickOn("u2", lobby, h.qmust(lobby, verbJoin, "")).Shown(lobby)
			board := h.ClickOn("u1", lobby, h.qmust(lobby, verbGo, "")).Shown(lobby)
			g, _, _ := h.qstate()
			require.NotNil(t, g, "started")
			assert.NotEmpty(t, tabletest.ComponentIDs(board.Components))
			r, err = h.Db.Get(context.Background(), h.Channel)
			require.NoError(t, err)
			td, err := decodeTableData(r.Meta)
			require.NoError(t, err)
			assert.False(t, slices.ContainsFunc(td.Outbox, isLobbyOwed), "the lobby is no longer owed")
		})
	}
}

// failingUpdates is a MemStore whose next Fails updates without an
// interaction (the bot's own work) fail unapplied, as a store unreachable
// for a moment.
type failingUpdates struct {
	*tabletest.MemStore
	fails atomic.Int32
}

func (s *failingUpdates) Update(ctx context.Context, channel, id string, fn func(*dixbot.Record) error) (*dixbot.Record, error) {
	if id == "" && s.fails.Add(-1) >= 0 {
		return nil, dixbot.ErrUnavailable
	}
	return s.MemStore.Update(ctx, channel, id, fn)
}

// A board posted again (/qwixx board) while the store fails for a moment
// is still made the board once it answers: the old board loses its
// buttons, rather than staying live beside the new one.
func TestBoardAdoptedThoughTheStoreFails(t *testing.T) {
	t.Parallel()
	st := &failingUpdates{MemStore: tabletest.NewMemStore()}
	h := newQwixxHarnessOn(t, st, false)
	old := h.openQwixx([]string{"u1", "u2"})
	h.Rec.Mu.Lock()
	h.Rec.Refuse = func(c tabletest.Call) error {
		if c.Op == "respond" {
			st.fails.Store(3) // from the answer on
		}
		return nil
	}
	h.Rec.Mu.Unlock()
	nb := h.qcommand("u2", "board").Shown(nil)
	require.NotNil(t, nb)
	_, td, _ := h.qstate()
	assert.Equal(t, nb.ID, td.Board, "the new message is the board")
	assert.Empty(t, tabletest.ComponentIDs(h.Rec.Message(old.ID).Components), "the old board keeps no button")
}

// A board posted again whose adoption was lost (Discord did not tell its
// id) is made the board by the first click on it, which counts; a click
// on the old board, which should have been retired, is answered as
// outdated with the current board and retires it.
func TestBoardNotAdoptedIsAdoptedByAClick(t *testing.T) {
	t.Parallel()
	h := newQwixxHarnessOn(t, nil, false)
	old := h.openQwixx([]string{"u1", "u2"})
	h.Rec.Mu.Lock()
	h.Rec.Refuse = func(c tabletest.Call) error {
		if c.Op == "original" {
			return errors.New("connection reset")
		}
		return nil
	}
	h.Rec.Mu.Unlock()
	nb := h.qcommand("u2", "board").Shown(nil)
	require.NotNil(t, nb)
	h.Rec.Mu.Lock()
	h.Rec.Refuse = nil
	h.Rec.Mu.Unlock()
	_, td, _ := h.qstate()
	require.Equal(t, old.ID, td.Board, "not adopted")
	oldMove := h.qwixxMove(old)

	g, _, v := h.qstate()
	seat := g.ToDecide()[0]
	users := []string{"u1", "u2"}
	res := h.ClickOn(users[seat], nb, h.qwixxMove(nb))
	_, td, v2 := h.qstate()
	assert.Greater(t, v2, v, "the click counts: %s", res.Describe())
	assert.Equal(t, nb.ID, td.Board, "the message clicked is the board")
	assert.Empty(t, tabletest.ComponentIDs(h.Rec.Message(old.ID).Components), "the old board keeps no button")

	// The old board, had its retirement not landed, is retired by a click.
	h.Rec.Message(old.ID).Components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: "x", CustomID: oldMove}}}}
	res = h.ClickOn(users[1-seat], h.Rec.Message(old.ID), oldMove)
	assert.Contains(t, res.Texts(), messageURL(h.Guild, h.Channel, nb.ID), "led to the current board")
	assert.Empty(t, tabletest.ComponentIDs(h.Rec.Message(old.ID).Components), "retired")
	_, _, v3 := h.qstate()
	assert.Equal(t, v2, v3, "nothing changed")
}

// Clicks deferred while the store is frozen each end in exactly one of:
// applied (and the board shows the game as it stands), or a localised
// follow-up; none is left silent. Every deciding seat clicks at once, one
// of them twice.
func TestDeferredClicksEndShownOrTold(t *testing.T) {
	t.Parallel()
	ps := tabletest.NewPausedStore(tabletest.NewMemStore())
	h := newQwixxHarnessOn(t, ps, false)
	users := []string{"u1", "u2", "u3"}
	board := h.openQwixx(users)
	g, _, _ := h.qstate()
	h.b.deferAfter = 10 * time.Millisecond
	var ixs []*discordgo.Interaction
	for _, s := range g.ToDecide() {
		ixs = append(ixs, h.ClickIx(users[s], board, h.qwixxMove(board)))
	}
	ixs = append(ixs, h.ClickIx(users[g.ToDecide()[0]], board, h.qwixxMove(board)))
	var deferred sync.WaitGroup
	deferred.Add(len(ixs))
	h.Rec.Mu.Lock()
	h.Rec.Refuse = func(c tabletest.Call) error {
		if c.Op == "respond" && c.Resp.Type == discordgo.InteractionResponseDeferredMessageUpdate {
			deferred.Done()
		}
		return nil
	}
	h.Rec.Mu.Unlock()
	ps.Pause()
	var done sync.WaitGroup
	for _, ix := range ixs {
		done.Add(1)
		go func() {
			defer done.Done()
			h.Serve(&discordgo.InteractionCreate{Interaction: ix}, h.Raw())
		}()
	}
	deferred.Wait()
	ps.Resume()
	done.Wait()
	h.Rec.Mu.Lock()
	h.Rec.Refuse = nil
	h.Rec.Mu.Unlock()

	applied := 0
	for _, ix := range ixs {
		ps.Mu.Lock()
		counted := ps.Seen[h.Channel+"/"+ix.ID]
		ps.Mu.Unlock()
		told := ""
		for _, c := range h.Rec.Calls {
			if c.Interaction == ix.ID && c.Op == "followup" && c.Params.Flags&discordgo.MessageFlagsEphemeral != 0 {
				told = c.Params.Content
			}
		}
		switch {
		case counted && told != "":
			t.Errorf("click %s applied and told %q", ix.ID, told)
		case counted:
			applied++
		case told == "":
			t.Errorf("click %s deferred, neither applied nor told", ix.ID)
		}
	}
	assert.Positive(t, applied)
	assert.True(t, boardShows(t, h, board.ID), "the board shows the game as it stands")
}

// A form cannot follow a deferral: a click that opens one while the store
// is too slow for Discord's budget is told privately to click again.
func TestDeferredModal(t *testing.T) {
	t.Parallel()
	ps := tabletest.NewPausedStore(tabletest.NewMemStore())
	h := newHarnessOn(t, ps)
	b, err := New(Options{Store: ps, DefaultLanguage: "en", Seed: func() int64 { return 11 }, Observer: h.Obs, NoPictures: true,
		Games: []present.Game{botdixxit.Game()}})
	require.NoError(t, err)
	b.workBudget, b.deferAfter = harnessBudget, harnessBudget
	h.b = b
	board := h.openDixxit("en", []string{"u1", "u2", "u3"}, 0)
	g, _, _ := h.dstate()
	user := []string{"u1", "u2", "u3"}[g.Active()]
	prompt := h.dclick(user, board, h.dmust(board, verbPrompt, "")).Shown(nil)
	require.NotNil(t, prompt)
	h.b.deferAfter = 10 * time.Millisecond
	onDeferral(h, ps.Resume)
	ps.Pause()
	res := h.dclick(user, prompt, h.dmust(prompt, verbModal, "clue"))
	assert.Equal(t, discordgo.InteractionResponseDeferredMessageUpdate, res.Response().Type, res.Describe())
	told := false
	for _, c := range res.Calls {
		told = told || c.Op == "followup" && c.Params.Content == locales.T("en", "slow_modal", nil)
	}
	assert.True(t, told, "told to click again: %s", res.Describe())
}

// A deferral Discord took but whose reply was lost (a timeout on the way
// back) leaves the interaction deferred: a command's answer then edits its
// "thinking…" message rather than sending a second callback, which Discord
// would refuse; a click's answer that tries the callback and is told the
// interaction was acknowledged goes as a deferred one. Either way the
// answer reaches its user once.
func TestDeferralWhoseReplyWasLost(t *testing.T) {
	t.Parallel()
	for _, click := range []bool{false, true} {
		ps := tabletest.NewPausedStore(tabletest.NewMemStore())
		h := newQwixxHarnessOn(t, ps, false)
		board := h.openQwixx([]string{"u1", "u2"})
		h.b.deferAfter = 10 * time.Millisecond
		onDeferral(h, ps.Resume)
		h.Rec.Mu.Lock()
		h.Rec.Lose = func(c tabletest.Call) error {
			if c.Resp.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource ||
				c.Resp.Type == discordgo.InteractionResponseDeferredMessageUpdate {
				return errors.New("read: connection reset by peer")
			}
			return nil
		}
		h.Rec.Mu.Unlock()
		g, _, _ := h.qstate()
		ps.Pause()
		var res result
		if click {
			res = h.ClickOn("u1", board, buttonID("qwixx", verbMove, g.Seq, "w -"))
		} else {
			res = h.qcommand("u1", "board")
		}
		taken, refused, edits := 0, 0, 0
		for _, c := range res.Calls {
			switch {
			case c.Op == "respond" && c.Refused:
				refused++
			case c.Op == "respond":
				taken++
			case c.Op == "editOriginal":
				edits++
			}
		}
		assert.Equal(t, 1, taken, "one callback taken: %s", res.Describe())
		assert.Equal(t, 1, edits, "the answer edits @original: %s", res.Describe())
		if !click {
			assert.Zero(t, refused, "no second callback for a command: %s", res.Describe())
		}
	}
}

// A deferred click whose answer, an edit of the prompt it was made on,
// gets no reply from Discord (a slow upload on a busy machine, a
// connection cut) sends the edit again: the step shows, and the click is
// not left unanswered.
func TestDeferredEditTriedAgain(t *testing.T) {
	t.Parallel()
	ps := tabletest.NewPausedStore(tabletest.NewMemStore())
	h := newQwixxHarnessOn(t, ps, false)
	users := []string{"u1", "u2"}
	board := h.openQwixx(users)
	g, _, _ := h.qstate()
	active := users[g.Active]
	prompt := h.ClickOn(active, board, h.qmust(board, verbPrompt, "")).Shown(nil)
	require.NotNil(t, prompt)
	sel := h.qmust(prompt, verbSelect, "")
	step := firstOption(t, prompt, sel, "st:") // the prompt has a step

	h.b.deferAfter = 10 * time.Millisecond
	var once, lost sync.Once
	h.Rec.Mu.Lock()
	h.Rec.Refuse = func(c tabletest.Call) error {
		switch {
		case c.Op == "respond" && c.Resp.Type == discordgo.InteractionResponseDeferredMessageUpdate:
			once.Do(func() { go ps.Resume() })
		case c.Op == "editOriginal":
			var err error
			lost.Do(func() { err = errors.New("read tcp 127.0.0.1:41234->127.0.0.1:443: i/o timeout") })
			return err
		}
		return nil
	}
	h.Rec.Mu.Unlock()
	ps.Pause()
	res := h.ClickOn(active, prompt, sel, step)
	edits, refused := 0, 0
	for _, c := range res.Calls {
		if c.Op == "editOriginal" {
			edits++
			if c.Refused {
				refused++
			}
		}
	}
	assert.Equal(t, 2, edits, "the edit is sent again: %s", res.Describe())
	assert.Equal(t, 1, refused, "its first try got no reply: %s", res.Describe())
	shown := res.Shown(prompt)
	require.NotNil(t, shown, res.Describe())
	for _, v := range tabletest.SelectOptions(shown, h.qmust(shown, verbSelect, "")) {
		assert.True(t, strings.HasPrefix(v, "mv:"), "the step's choices are plans: %q", v)
	}
}

// A lost lobby is shown once, by whichever writes first: the due work's
// run, which claims it before it looks for the start's answer or posts,
// or a start asked again, which then answers with the lobby. A start
// asked once the run has claimed it is told the channel has a game, and
// the run's lobby is the one; a run that read the lobby owed before a
// start took it over posts nothing.
func TestLostLobbyShownOnce(t *testing.T) {
	t.Parallel()
	lose := func(h *harness) *dixbot.Record {
		h.dieBeforeAnswering(func() { h.qcommand("u1", "start") })
		require.Empty(t, lobbies(h, "qwixx"), "no lobby shown")
		r, err := h.Db.Get(context.Background(), h.Channel)
		require.NoError(t, err)
		require.False(t, r.Due.IsZero(), "the lobby is owed work")
		return r
	}

	t.Run("the run first", func(t *testing.T) {
		t.Parallel()
		h := newQwixxHarnessOn(t, nil, false)
		r := lose(h)
		// The run claims the lobby, then Discord refuses its post for a
		// moment: the lobby stays owed, claimed.
		h.resetCalls("send")
		assert.Error(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, r.Due))
		h.resetCalls("")
		require.Empty(t, lobbies(h, "qwixx"))

		resp := h.qcommand("u2", "start").Response()
		require.NotNil(t, resp)
		assert.NotZero(t, resp.Data.Flags&discordgo.MessageFlagsEphemeral, "not a second lobby: %q", resp.Data.Content)
		assert.Contains(t, resp.Data.Content, "This channel already has a game")
		r, err := h.Db.Get(context.Background(), h.Channel)
		require.NoError(t, err)
		require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, r.Due.Add(time.Hour)))
		require.Len(t, lobbies(h, "qwixx"), 1, "one lobby")
	})

	t.Run("the start first", func(t *testing.T) {
		t.Parallel()
		h := newQwixxHarnessOn(t, nil, false)
		r := lose(h)
		before, err := decodeTableData(r.Meta)
		require.NoError(t, err)
		i := slices.IndexFunc(before.Outbox, isLobbyOwed)
		require.GreaterOrEqual(t, i, 0)

		resp := h.qcommand("u2", "start").Response()
		require.NotNil(t, resp)
		assert.Zero(t, resp.Data.Flags&discordgo.MessageFlagsEphemeral, "the lobby: %q", resp.Data.Content)
		require.Len(t, lobbies(h, "qwixx"), 1)

		// A run that read the record before that start: it finds the
		// lobby no longer owed by the effect it read.
		x := &cexec{b: h.b, rec: r, td: before, g: h.b.games["qwixx"], now: time.Now()}
		owed, err := x.claimLobby(context.Background(), before.Outbox[i])
		require.NoError(t, err)
		assert.False(t, owed, "taken over by the start")
		assert.NoError(t, x.showLobby(context.Background(), before.Outbox[i]))
		assert.Len(t, lobbies(h, "qwixx"), 1, "no second lobby")
		assert.Nil(t, x.lobby)
	})
}

// dieBeforeAnswering runs do, an interaction whose answer Discord never
// takes and whose process dies before its effects: what it wrote is all
// that is left of it.
func (h *harness) dieBeforeAnswering(do func()) {
	h.resetCalls("respond")
	h.b.hooks.beforeEffects = func() { panic("the process dies") }
	do()
	h.resetCalls("")
	h.b.hooks.beforeEffects = nil
}

// resetCalls makes Discord refuse every call of kind op ("": none) as a
// connection reset.
func (h *harness) resetCalls(op string) {
	h.Rec.Mu.Lock()
	defer h.Rec.Mu.Unlock()
	if op == "" {
		h.Rec.Refuse = nil
		return
	}
	h.Rec.Refuse = func(c tabletest.Call) error {
		if c.Op == op {
			return errors.New("connection reset")
		}
		return nil
	}
}

// A click on the board answered privately after its deferral (a vote on
// a seat out of time, the store too slow for Discord's budget) is answered
// by a follow-up: the board, though still the interaction's "@original",
// does not show the change, and its edit is made all the same.
func TestDeferredPrivateAnswerLeavesTheBoardsEdit(t *testing.T) {
	t.Parallel()
	ps := tabletest.NewPausedStore(tabletest.NewMemStore())
	h := newQwixxHarnessOn(t, ps, false)
	board := h.openQwixx([]string{"u1", "u2", "u3"})
	h.setSeat(2, func(s *tableSeat) { s.Late = 1 }) // Chloé (u3) ran out of time once
	board = h.qcommand("u1", "board").Shown(nil)
	kick := buttonID("qwixx", verbKick, 0, "2")
	label := func() string {
		for _, row := range h.Rec.Message(board.ID).Components {
			for _, c := range tabletest.RowComponents(row) {
				if b, ok := c.(discordgo.Button); ok && b.CustomID == kick {
					return b.Label
				}
			}
		}
		return ""
	}
	_, td, _ := h.qstate()
	require.Equal(t, td.kickLabel(2), label(), "the board offers the vote")

	h.b.deferAfter = 10 * time.Millisecond
	onDeferral(h, ps.Resume)
	ps.Pause()
	res := h.ClickOn("u2", board, kick)
	require.Equal(t, discordgo.InteractionResponseDeferredMessageUpdate, res.Response().Type, "deferred: %s", res.Describe())
	var private []string
	for _, c := range res.Calls {
		if c.Op == "followup" && c.Params.Flags&discordgo.MessageFlagsEphemeral != 0 {
			private = append(private, c.Params.Content)
		}
	}
	assert.Equal(t, []string{locales.T("en", "kick_done", nil)}, private, "the voter is told privately")
	_, td, _ = h.qstate()
	require.Equal(t, []string{"u2"}, td.Seats[2].Votes)
	assert.Equal(t, td.kickLabel(2), label(), "the board shows the vote")
	assert.Empty(t, td.Outbox, "nothing left owed")
}

// A click delivered again while the store fails for a moment: the try
// after the failure finds the click recorded by its first delivery, and
// the delivery again is answered as one applied, with nothing changed,
// rather than failing on a change it never ran.
func TestClickDeliveredAgainWhileTheStoreFails(t *testing.T) {
	t.Parallel()
	st := &flakyStore{}
	h := newHarnessOver(t, st)
	i := h.qwixxMoveIx("u1", h.openGame("qwixx", []string{"u1", "u2"}, nil))
	takenOnce(t, h.Run(i))
	before, _ := h.St.Snapshot(h.Channel)

	st.set(2, 0) // the read of the record, then the update
	again := *i
	res := h.Run(&again)
	assert.Zero(t, h.Obs.Outcomes["button/panic"]+h.Obs.Outcomes["button/error"], "%v: %s", h.Obs.Outcomes, res.Describe())
	assert.Equal(t, 1, takenOf(h, i.ID), "Discord took the first delivery's answer alone")
	after, _ := h.St.Snapshot(h.Channel)
	assert.Equal(t, before, after, "the delivery again changed nothing")
}

// lostReplyStore is a MemStore whose update of one interaction lands,
// lets between write, then fails as one whose reply was lost.
type lostReplyStore struct {
	*tabletest.MemStore
	id      string
	between func()
}

func (s *lostReplyStore) Update(ctx context.Context, channel, id string, fn func(*dixbot.Record) error) (*dixbot.Record, error) {
	r, err := s.MemStore.Update(ctx, channel, id, fn)
	if err == nil && id != "" && id == s.id {
		s.id = ""
		s.between()
		return nil, dixbot.ErrUnavailable
	}
	return r, err
}

// A click whose write landed but whose reply was lost, another write
// landing before the store is asked again: the click is recorded, and its
// answer shows the game as it stands after both.
func TestClickWhoseReplyWasLostShowsTheGameAsItStands(t *testing.T) {
	t.Parallel()
	st := &lostReplyStore{}
	h := newHarnessOver(t, st)
	board := h.openGame("qwixx", []string{"u1", "u2", "u3"}, nil)
	i := h.qwixxMoveIx("u1", board)
	st.id = i.ID
	st.between = func() { h.setSeat(2, func(s *tableSeat) { s.Late = 1 }) } // Chloé ran out of time once
	// Discord cannot tell whether the interaction was answered: the click
	// is known to be this delivery's own, and answered.
	h.Rec.Mu.Lock()
	h.Rec.Refuse = func(c tabletest.Call) error {
		if c.Op == "original" {
			return &discordgo.RESTError{Response: &http.Response{StatusCode: http.StatusBadGateway}}
		}
		return nil
	}
	h.Rec.Mu.Unlock()
	res := h.Run(i)
	takenOnce(t, res)
	assert.Zero(t, h.Obs.Outcomes["button/error"]+h.Obs.Outcomes["button/panic"], "%v", h.Obs.Outcomes)
	shown := res.Shown(board)
	require.NotNil(t, shown)
	assert.Contains(t, tabletest.ComponentIDs(shown.Components), buttonID("qwixx", verbKick, 0, "2"), "the answer shows the vote the other write opened")
}

// qwixxMoveIx is the interaction of user's click on a decision of the
// Qwixx board.
func (h *harness) qwixxMoveIx(user string, board *tabletest.Message) *discordgo.Interaction {
	h.T.Helper()
	i := h.ClickIx(user, board, h.qwixxMove(board))
	i.ID = h.snowflake()
	return i
}

// memOver is a store over a MemStore, which it is given once the harness
// made it.
type memOver interface {
	dixbot.Store
	over(*tabletest.MemStore)
}

func (s *flakyStore) over(m *tabletest.MemStore)     { s.MemStore = m }
func (s *lostReplyStore) over(m *tabletest.MemStore) { s.MemStore = m }

// newHarnessOver is a harness of the three games on st, over the
// harness's MemStore; a store call that failed is tried again at once.
func newHarnessOver(t testing.TB, st memOver) *harness {
	t.Helper()
	h := newEveryGameHarnessOn(t, st)
	st.over(h.St)
	h.b.retryPause = time.Microsecond
	return h
}

// unfinishedStore is a flakyStore whose archiving fails while noFinish is
// set: a game over stays the channel's, its archiving owed.
type unfinishedStore struct {
	flakyStore
	noFinish atomic.Bool
}

func (s *unfinishedStore) Finish(ctx context.Context, channel string) error {
	if s.noFinish.Load() {
		return dixbot.ErrUnavailable
	}
	return s.flakyStore.Finish(ctx, channel)
}

func (s *unfinishedStore) FinishIf(ctx context.Context, channel string, same func(*dixbot.Record) bool) error {
	if s.noFinish.Load() {
		return dixbot.ErrUnavailable
	}
	return s.flakyStore.FinishIf(ctx, channel, same)
}

// qwixxOverUnarchived is a harness whose Qwixx game of u1 and u2 was
// played to its end by the due work alone, every clock running out, its
// archiving failing: the game over stays the channel's, its archiving
// owed. move is a move of the game's first board.
func qwixxOverUnarchived(t *testing.T) (h *harness, st *unfinishedStore, move string) {
	t.Helper()
	st = &unfinishedStore{}
	h = newHarnessOver(t, st)
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.now = func() time.Time { return now }
	h.b.timeout = harnessBudget // the game played out on a busy machine
	move = h.qwixxMove(h.openGame("qwixx", []string{"u1", "u2"}, nil))
	st.noFinish.Store(true)
	ctx := context.Background()
	for k := 0; ; k++ {
		require.Less(t, k, 2000, "the game does not end")
		r, err := h.St.Get(ctx, h.Channel)
		require.NoError(t, err)
		g, err := h.b.games["qwixx"].Rules.Decode(r.Data)
		require.NoError(t, err)
		if g.Over() {
			return h, st, move
		}
		now = r.Due
		_ = h.b.runDueOn(ctx, h.Rec, h.Channel, now) // the archiving fails at the end
	}
}

// A start in a channel whose game is over but not archived archives it and
// opens its lobby; when the reply of the lobby's write is lost, the write
// tried again finds the lobby there, and the start is answered with it,
// not refused as if another game held the channel.
func TestStartAfterAGameOverWhoseLobbyWriteLostItsReply(t *testing.T) {
	t.Parallel()
	h, st, _ := qwixxOverUnarchived(t)
	ctx := context.Background()
	st.noFinish.Store(false)
	st.set(0, 1) // the lobby's write lands, its reply lost

	i := h.startIx("qwixx", "u2", nil)
	res := h.Run(i)
	takenOnce(t, res)
	assert.Zero(t, refusals(h), "the start is not refused: %s", res.Describe())
	r, err := h.St.Get(ctx, h.Channel)
	require.NoError(t, err)
	require.Nil(t, r.Data, "a lobby")
	td, err := decodeTableData(r.Meta)
	require.NoError(t, err)
	assert.Equal(t, "u2", td.Creator, "the start's own lobby")
	shown := res.Shown(nil)
	require.NotNil(t, shown, res.Describe())
	assert.False(t, shown.Ephemeral, "the lobby is shown to all")
	assert.Contains(t, tabletest.ComponentIDs(shown.Components), buttonID("qwixx", verbJoin, 0, ""), "with its Join button")
}

// A Rematch click answered after its deferral (the store frozen past
// Discord's budget) is deferred as a public "thinking…" message, which its
// answer, the new game's board or lobby, becomes: that message is the new
// table's, and the final scoreboard clicked stays the scoreboard.
func TestDeferredRematch(t *testing.T) {
	t.Parallel()
	for _, lobby := range []bool{false, true} {
		t.Run(map[bool]string{false: "at once", true: "lobby"}[lobby], func(t *testing.T) {
			t.Parallel()
			ps := tabletest.NewPausedStore(tabletest.NewMemStore())
			h := newQwixxHarnessOn(t, ps, false)
			now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
			h.b.now = func() time.Time { return now }
			h.b.timeout = harnessBudget // the game played out on a busy machine
			people := []string{"u1"}
			if lobby {
				people = append(people, "u2")
			}
			score := h.playOut(h.openQwixx(people, "easy"), &now)
			before := score.Content
			h.b.deferAfter = 10 * time.Millisecond
			onDeferral(h, ps.Resume)
			ps.Pause()
			res := h.ClickOn("u1", score, rematchID)
			resp := res.Response()
			require.Equal(t, discordgo.InteractionResponseDeferredChannelMessageWithSource, resp.Type, "deferred: %s", res.Describe())
			assert.Zero(t, resp.Data.Flags&discordgo.MessageFlagsEphemeral, "public, as its answer")
			answer := h.Rec.Message("orig-" + res.Calls[0].Interaction)
			require.NotNil(t, answer, res.Describe())
			assert.NotEmpty(t, tabletest.ComponentIDs(answer.Components), "the answer is shown on it")
			score = h.Rec.Message(score.ID)
			assert.Equal(t, before, score.Content, "the scoreboard stays")
			assert.Equal(t, []string{rematchID}, tabletest.ComponentIDs(score.Components), "with its Rematch")
			r, err := h.Db.Get(context.Background(), h.Channel)
			require.NoError(t, err)
			td, err := decodeTableData(r.Meta)
			require.NoError(t, err)
			assert.Empty(t, td.Outbox, "nothing owed")
			if !lobby {
				require.NotNil(t, r.Data, "the rematch started")
				assert.Equal(t, answer.ID, td.Board, "the new game's board is the answer")
				return
			}
			require.Nil(t, r.Data, "a lobby")
			assert.Equal(t, []*tabletest.Message{answer}, lobbies(h, "qwixx"), "the answer is the one lobby")
		})
	}
}

// A Rematch that starts at once, whose answer (the new board) Discord
// refused, has its board posted by the bot token once the answer is known
// lost: the new game is played on it, not left without a board.
func TestRematchWhoseAnswerWasRefusedPostsItsBoard(t *testing.T) {
	t.Parallel()
	h, score := soloScoreboard(t)
	refuse502(h, "respond", 1)
	res := h.ClickOn("u1", score, rematchID)
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	require.NotNil(t, r.Data, "the rematch started: %s", res.Describe())
	td, err := decodeTableData(r.Meta)
	require.NoError(t, err)
	require.NotEqual(t, score.ID, td.Board)
	nb := h.Rec.Message(td.Board)
	require.NotNil(t, nb, "the new board is on Discord: %s", res.Describe())
	g := h.b.games["qwixx"]
	st, err := g.Rules.Decode(r.Data)
	require.NoError(t, err)
	assert.Equal(t, customIDs(tableComponents(g, st, td, h.b.boardAt(g, h.Channel, td, st, ""))), tabletest.ComponentIDs(nb.Components), "its buttons play the game")
	assert.Empty(t, td.Outbox, "nothing owed")
}

// A Rematch that starts at once whose answer landed, though the first read
// of its message failed (Discord failing for a moment), still makes that
// message the new game's board: the read is tried again.
func TestRematchBoardReadAgain(t *testing.T) {
	t.Parallel()
	h, score := soloScoreboard(t)
	refuse502(h, "original", 1)
	res := h.ClickOn("u1", score, rematchID)
	nb := res.Shown(nil)
	require.NotNil(t, nb, res.Describe())
	_, td, _ := h.qstate()
	assert.Equal(t, nb.ID, td.Board, "the answer is the new game's board: %s", res.Describe())
}

// A Rematch that starts at once whose board Discord would not name (every
// read of the answer's message refused) has no board recorded; the first
// click on that board makes it the board, and counts.
func TestRematchBoardUnknownIsAdoptedByAClick(t *testing.T) {
	t.Parallel()
	h, score := soloScoreboard(t)
	refuse502(h, "original", -1)
	nb := h.ClickOn("u1", score, rematchID).Shown(nil)
	require.NotNil(t, nb)
	refuse502(h, "", 0)
	g, td, v := h.qstate()
	require.Equal(t, "", td.Board, "not named")
	require.Contains(t, g.ToDecide(), 0, "Alice decides")

	res := h.ClickOn("u1", nb, h.qwixxMove(nb))
	_, td, v2 := h.qstate()
	assert.Greater(t, v2, v, "the click counts: %s", res.Describe())
	assert.Equal(t, nb.ID, td.Board, "the message clicked is the board")
	assert.Empty(t, td.Outbox, "nothing owed: no board before it to retire")
}

// soloScoreboard is a harness whose Qwixx game of one person and an easy
// computer seat is played out, and its final scoreboard.
func soloScoreboard(t *testing.T) (*harness, *tabletest.Message) {
	t.Helper()
	h := newQwixxHarness(t, false)
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.now = func() time.Time { return now }
	h.b.timeout = harnessBudget // the game played out on a busy machine
	return h, h.playOut(h.openQwixx([]string{"u1"}, "easy"), &now)
}

// refuse502 has Discord refuse the next n calls of op with a 502 (n < 0:
// all of them; n == 0: none any more).
func refuse502(h *harness, op string, n int) {
	var mu sync.Mutex
	h.Rec.Mu.Lock()
	defer h.Rec.Mu.Unlock()
	h.Rec.Refuse = func(c tabletest.Call) error {
		mu.Lock()
		defer mu.Unlock()
		if c.Op != op || n == 0 {
			return nil
		}
		n--
		return &discordgo.RESTError{Response: &http.Response{StatusCode: http.StatusBadGateway}}
	}
}
