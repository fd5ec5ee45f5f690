package bot

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	botqwixx "github.com/dixgame/dixbot/bot/qwixx"
	"github.com/dixgame/dixbot/internal/tabletest"
)

// newQwixxHarnessOn is newQwixxHarness with the bot on db.
func newQwixxHarnessOn(t *testing.T, db dixbot.Store, pictures bool) *harness {
	t.Helper()
	h := newHarnessOn(t, db)
	b, err := New(Options{Store: h.Db, DefaultLanguage: "en", Seed: func() int64 { return 11 }, Observer: h.Obs,
		NoPictures: !pictures, Games: []present.Game{botqwixx.Game()}})
	require.NoError(t, err)
	b.WorkBudget = harnessBudget
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
func TestContractLateFinishKeepsTheNextLobby(t *testing.T) {
	t.Parallel()
	st := &finishHookStore{MemStore: tabletest.NewMemStore()}
	h := newQwixxHarnessOn(t, st, false)
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.Now = func() time.Time { return now }
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
		require.NoError(t, h.b.RunDueOn(context.Background(), h.Rec, h.Channel, now))
	}
	<-started
	require.NotNil(t, lobby, "the next table's lobby is posted")
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	require.False(t, r.Finished, "the channel has the new table")
	assert.Nil(t, r.Data, "a lobby")
	res := h.ClickOn("u1", lobby, h.qmust(lobby, CverbJoin, ""))
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
	ps := tabletest.NewPausedStore(tabletest.NewMemStore())
	h := newQwixxHarnessOn(t, ps, true)
	h.openQwixx([]string{"u1", "u2"})
	h.b.DeferAfter = 10 * time.Millisecond
	onDeferral(h, ps.Resume)
	ps.Pause()
	res := h.qcommand("u1", "board")
	assert.Equal(t, discordgo.InteractionResponseDeferredChannelMessageWithSource, res.Response().Type, "deferred")
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
