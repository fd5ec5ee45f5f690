package dixtable

import (
	"context"
	"errors"
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

// TestLostGameRetiresItsButtons: after the store lost a game (Redis
// restarted empty), the first click on its board says so, in the clicking
// player's language, and retires the board's buttons in the answer itself;
// the board keeps its text and nothing is stored.
func TestLostGameRetiresItsButtons(t *testing.T) {
	t.Parallel()
	for _, lc := range []discordgo.Locale{discordgo.EnglishUS, discordgo.French} {
		t.Run(string(lc), func(t *testing.T) {
			h := newHarness(t)
			seedGame(h, []string{"u1", "u2"}, auctionDeck, dix.Options{Players: 2, FirstPlayer: 0})
			board := h.Board()
			embeds := board.Embeds
			require.NoError(t, h.St.Delete(context.Background(), h.Channel)) // the store's data is gone
			h.Locale = lc

			r := h.ClickOn("u2", board, h.MustFind(board, verbHand))
			resp := r.Response()
			require.Equal(t, discordgo.InteractionResponseUpdateMessage, resp.Type, "the answer edits the board")
			assert.Equal(t, locales.T(locales.For(string(lc)), "err_game_gone", nil), resp.Data.Content)
			assert.Empty(t, tabletest.ComponentIDs(h.Rec.Message(board.ID).Components), "retired on the first click")
			assert.Equal(t, embeds, h.Rec.Message(board.ID).Embeds, "the board keeps its text")
			assert.Equal(t, 1, h.Obs.Outcomes["button/stale"])
			_, err := h.St.Get(context.Background(), h.Channel)
			assert.ErrorIs(t, err, dixbot.ErrNotFound, "nothing is stored")
		})
	}
}

// TestRestoredGameGoesOn: after the store went back to an older copy of a
// game (Redis restarted from an older snapshot), a click on the board as
// it was later says so, retires those buttons and posts the game as the
// store has it; the game then goes on from there.
func TestRestoredGameGoesOn(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, auctionDeck, dix.Options{Players: 2, FirstPlayer: 0})
	board := h.Board()
	snapshot := snap(h)
	// Follow-ups refused: messages go with the bot token and a nonce; the
	// fresh board's must not be one of a message posted before the loss.
	h.Rec.Refuse = func(c tabletest.Call) error {
		if c.Op == "followup" {
			return errors.New("discord: 503")
		}
		return nil
	}
	h.ClickOn("u1", board, h.MustFind(board, verbDraw)) // the auction opens on the same board, and its ping is posted
	// The copy was taken just before the ping was owed: the next effect
	// it numbers is the ping's.
	_, now := h.Record()
	old := mustDixTable(snapshot.Rec.Meta)
	old.NextEffect = now.NextEffect - 1
	snapshot.Rec.Meta = old.Encode()
	h.St.Mu.Lock()
	h.St.Live[h.Channel] = snapshot // the store restarts from its older copy
	h.St.Mu.Unlock()
	h.Locale = discordgo.French

	r := h.ClickOn("u2", board, h.MustFind(board, verbPass))
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type)
	assert.Equal(t, locales.T("fr", "err_game_restored", nil), r.Response().Data.Content)
	assert.Empty(t, tabletest.ComponentIDs(h.Rec.Message(board.ID).Components))
	assert.Equal(t, snapshot.State, snap(h).State, "the game as the store has it")
	fresh := h.Board()
	assert.NotEqual(t, board.ID, fresh.ID)
	showsNow(h, fresh)

	r = h.ClickOn("u1", fresh, h.MustFind(fresh, verbDraw))
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type, "the game goes on")
	assert.NotEqual(t, snapshot.State, snap(h).State)
}

// TestRestoredCopyOwingItsBoard: the older copy was taken while its board
// was still owed (its effects not yet recorded as done). The click on the
// board as it was later gets one fresh board, not the copy's owed board
// and a fresh one after it.
func TestRestoredCopyOwingItsBoard(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, auctionDeck, dix.Options{Players: 2, FirstPlayer: 0})
	board := h.Board()
	snapshot := snap(h)
	old := mustDixTable(snapshot.Rec.Meta)
	var fake dixbot.Record
	old.owe(&fake, bot.Effect{Kind: bot.EffBoard}, bot.Effect{Kind: bot.EffEdit})
	snapshot.Rec.Meta = old.Encode()
	h.ClickOn("u1", board, h.MustFind(board, verbDraw))
	h.St.Mu.Lock()
	h.St.Live[h.Channel] = snapshot // the store restarts from its older copy
	h.St.Mu.Unlock()

	before := h.Rec.Count()
	r := h.ClickOn("u2", board, h.MustFind(board, verbPass))
	assert.Equal(t, locales.T("en", "err_game_restored", nil), r.Response().Data.Content)
	posts := 0
	for _, c := range h.Rec.Since(before) {
		if c.Posted() {
			posts++
		}
	}
	assert.Equal(t, 1, posts, "one fresh board")
	_, m := h.Record()
	assert.Empty(t, m.Outbox)
	assert.Equal(t, []string{m.Board}, liveBoards(h.Rec), "exactly one board with buttons")
}

// blockedStore is a store whose Create lands and then never answers, as
// when the process that made it is killed right after.
type blockedStore struct {
	*tabletest.MemStore
	block chan struct{}
}

func (s blockedStore) Create(ctx context.Context, r *dixbot.Record) error {
	if err := s.MemStore.Create(ctx, r); err != nil {
		return err
	}
	<-s.block
	return errors.New("killed")
}

// startKilled runs /dix start in a process killed right after the lobby's
// record is created: nothing is answered nor posted.
func startKilled(t *testing.T, h *harness) {
	t.Helper()
	st := blockedStore{MemStore: h.St, block: make(chan struct{})}
	dead, err := bot.New(bot.Options{Store: st, DefaultLanguage: "en"})
	require.NoError(t, err)
	i := h.Base("u1", discordgo.InteractionApplicationCommand)
	i.Data = discordgo.ApplicationCommandInteractionData{Name: "dix", Options: []*discordgo.ApplicationCommandInteractionDataOption{
		{Name: "start", Type: discordgo.ApplicationCommandOptionSubCommand}}}
	go dead.Serve(tabletest.NewRecorder(), &discordgo.InteractionCreate{Interaction: i}, nil)
	require.Eventually(t, func() bool {
		_, err := h.St.Get(context.Background(), h.Channel)
		return err == nil
	}, time.Minute, 10*time.Millisecond)
	t.Cleanup(func() { close(st.block) })
}

// TestLostLobby: when the answer to /dix start is lost (its process killed
// after the record is made), the lobby is still owed: any process posts it
// once the grace is over; /dix start and /dix board before that post it
// at once (a public message with the lobby's buttons), the way back into
// the game rather than "a game exists" with no link.
func TestLostLobby(t *testing.T) {
	t.Parallel()
	t.Run("the outbox", func(t *testing.T) {
		h := newHarness(t)
		startKilled(t, h)
		rec, m := h.Record()
		require.Empty(t, m.Board)
		require.False(t, rec.Due.IsZero(), "the lobby is owed")
		require.NoError(t, h.b.RunDueOn(context.Background(), h.Rec, h.Channel, rec.Due))
		_, m = h.Record()
		require.NotEmpty(t, m.Board)
		lobby := h.Rec.Message(m.Board)
		require.NotNil(t, lobby)
		h.ClickOn("u2", lobby, h.MustFind(lobby, verbJoin))
		_, m = h.Record()
		assert.Len(t, m.Seats, 2, "its buttons work")
		assert.Empty(t, m.Outbox)
	})
	for _, cmd := range []string{"start", "board"} {
		t.Run("/dix "+cmd, func(t *testing.T) {
			h := newHarness(t)
			startKilled(t, h)
			r := h.Command("u2", cmd)
			text := r.EphemeralText()
			if cmd == "start" {
				assert.Equal(t, enT("err_game_exists_lobby", nil), text)
			} else {
				assert.Equal(t, enT("lobby_reposted", nil), text)
			}
			sends := r.Sends()
			require.Len(t, sends, 1, "one lobby posted")
			_, m := h.Record()
			lobby := h.Rec.Message(m.Board)
			require.NotNil(t, lobby)
			assert.False(t, lobby.Ephemeral, "public")
			h.ClickOn("u2", lobby, h.MustFind(lobby, verbJoin))
			_, m = h.Record()
			assert.Len(t, m.Seats, 2, "its buttons work")
			assert.Empty(t, m.Outbox, "nothing more owed")

			// Asked again, /dix board posts it anew and retires the old one.
			r = h.Command("u3", "board")
			_, m2 := h.Record()
			require.NotEqual(t, m.Board, m2.Board)
			assert.Empty(t, tabletest.ComponentIDs(h.Rec.Message(m.Board).Components))
			assert.Len(t, tabletest.FindIDs(h.Rec.Message(m2.Board), verbJoin), 1)
		})
	}
}

// recordBlockedStore is a store whose updates outside an interaction (the
// lobby's message being recorded) never answer, as when the process is
// killed right after answering /dix start.
type recordBlockedStore struct {
	*tabletest.MemStore
	block chan struct{}
}

func (s recordBlockedStore) Update(ctx context.Context, channel, id string, fn func(*dixbot.Record) error) (*dixbot.Record, error) {
	if id == "" {
		<-s.block
		return nil, errors.New("killed")
	}
	return s.MemStore.Update(ctx, channel, id, fn)
}

// TestLobbyAnsweredThenKilled: the process answered /dix start with the
// lobby, then died before recording its message: the process that takes
// the owed lobby over finds that answer and makes it the lobby rather than
// post a second one.
func TestLobbyAnsweredThenKilled(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	st := recordBlockedStore{MemStore: h.St, block: make(chan struct{})}
	t.Cleanup(func() { close(st.block) })
	dead, err := bot.New(bot.Options{Store: st, DefaultLanguage: "en"})
	require.NoError(t, err)
	i := h.Base("u1", discordgo.InteractionApplicationCommand)
	i.Data = discordgo.ApplicationCommandInteractionData{Name: "dix", Options: []*discordgo.ApplicationCommandInteractionDataOption{
		{Name: "start", Type: discordgo.ApplicationCommandOptionSubCommand}}}
	go dead.Serve(h.Rec, &discordgo.InteractionCreate{Interaction: i}, nil)
	require.Eventually(t, func() bool { return h.Rec.Message("orig-"+i.ID) != nil }, time.Minute, 10*time.Millisecond, "answered")

	rec, m := h.Record()
	require.Empty(t, m.Board)
	n := h.Rec.Count()
	require.NoError(t, h.b.RunDueOn(context.Background(), h.Rec, h.Channel, rec.Due))
	rec, m = h.Record()
	assert.Equal(t, "orig-"+i.ID, m.Board, "the answer is the lobby")
	assert.Empty(t, result{H: h.Harness, Calls: h.Rec.Since(n)}.Sends(), "no second lobby")
	assert.Empty(t, m.Outbox)
	assert.True(t, rec.Due.IsZero())
}

// TestStartRecordsItsLobby: the usual /dix start answers with the lobby
// and records it: nothing is left owed, so no process posts it twice.
func TestStartRecordsItsLobby(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	r := h.Command("u1", "start")
	lobby := r.Shown(nil)
	require.NotNil(t, lobby)
	rec, m := h.Record()
	assert.Equal(t, lobby.ID, m.Board)
	assert.Empty(t, m.Outbox)
	assert.True(t, rec.Due.IsZero())
	assert.Empty(t, r.Sends(), "no second lobby")
}

// TestStartAnswerRefused: when Discord refuses the answer to /dix start,
// the lobby is posted with the bot token instead.
func TestStartAnswerRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.Rec.Refuse = func(c tabletest.Call) error {
		if c.Op == "respond" {
			return errors.New("discord: 503")
		}
		return nil
	}
	r := h.Command("u1", "start")
	sends := r.Sends()
	require.Len(t, sends, 1)
	_, m := h.Record()
	assert.NotEmpty(t, m.Board)
	assert.Len(t, tabletest.FindIDs(h.Rec.Message(m.Board), verbJoin), 1)
	assert.Empty(t, m.Outbox)
}
