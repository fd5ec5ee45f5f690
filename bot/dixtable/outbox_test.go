package dixtable

import (
	"context"
	"errors"
	"net/http"
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
)

// quickTurnDeck lets Alice end her first turn in three clicks (draw, stop,
// money), so the next click owes a fresh board.
const quickTurnDeck = "g3 b2 o4 b7 g5 p1 b4 $1 g6 o5 p6 b9 g2 o9 p9 b8"

// liveBoards are the messages the bot sent that still carry game buttons.
func liveBoards(r *tabletest.Recorder) []string {
	r.Mu.Lock()
	defer r.Mu.Unlock()
	var out []string
	for id, m := range r.Msgs {
		if !m.Ephemeral && len(tabletest.FindIDs(m, verbDraw)) > 0 {
			out = append(out, id)
		}
	}
	return out
}

// endTurnWhileDiscordFails ends Alice's turn while Discord refuses the
// bot's own calls (the answer to the click still goes through), and
// returns the turn's board.
func endTurnWhileDiscordFails(t *testing.T, h *harness) *tabletest.Message {
	t.Helper()
	seedGame(h, []string{"u1", "u2"}, quickTurnDeck, dix.Options{Players: 2, FirstPlayer: 0})
	board := h.Board()
	h.ClickOn("u1", board, h.MustFind(board, verbDraw))
	h.ClickOn("u1", board, h.MustFind(board, verbStop))
	h.Rec.Mu.Lock()
	h.Rec.Fail = errors.New("discord unreachable")
	h.Rec.Mu.Unlock()
	h.ClickOn("u1", board, h.MustFind(board, verbMoney))
	h.Rec.Mu.Lock()
	h.Rec.Fail = nil
	h.Rec.Mu.Unlock()
	return board
}

// The work a click owes survives its failure: it stays in the record,
// which becomes due, and whoever finds it due does it, once.
func TestOwedEffectsSurviveAFailure(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	old := endTurnWhileDiscordFails(t, h)
	rec, m := h.Record()
	require.Len(t, m.Outbox, 1, "the new board is still owed")
	assert.Equal(t, bot.EffBoard, m.Outbox[0].Kind)
	require.False(t, rec.Due.IsZero())
	assert.Equal(t, old.ID, m.Board, "the old board is still the recorded one")
	assert.Empty(t, old.Components, "answered in place: the old board is the turn's summary")
	assert.Empty(t, liveBoards(h.Rec), "right now no board has buttons")

	// Not due yet: the process that made the change has its grace.
	require.NoError(t, h.b.RunDueOn(context.Background(), h.Rec, h.Channel, time.Now()))
	_, m = h.Record()
	assert.Len(t, m.Outbox, 1)

	// Due: done, and recorded.
	require.NoError(t, h.b.RunDueOn(context.Background(), h.Rec, h.Channel, rec.Due))
	rec, m = h.Record()
	assert.Empty(t, m.Outbox)
	assert.True(t, rec.Due.IsZero(), "nothing left to do")
	assert.Equal(t, []string{m.Board}, liveBoards(h.Rec), "exactly one board with buttons")
	board := h.Board()
	assert.Contains(t, board.Content, "<@u2>", "Bob is pinged with his board")
	// Found due again (a stale index), it does nothing.
	n := h.Rec.Count()
	require.NoError(t, h.b.RunDueOn(context.Background(), h.Rec, h.Channel, time.Now().Add(time.Hour)))
	assert.Equal(t, n, h.Rec.Count())
	tabletest.CheckAllCalls(t, h.Rec.Calls)
}

// Doing the same effects twice (a process died after posting, before
// recording it) still leaves one board: the post carries a nonce.
func TestOwedEffectsAreIdempotent(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	endTurnWhileDiscordFails(t, h)
	stale, _ := h.Record()
	require.NoError(t, runDixOutbox(h.b, context.Background(), h.Rec, stale, nil))
	require.NoError(t, runDixOutbox(h.b, context.Background(), h.Rec, stale, nil))
	_, m := h.Record()
	assert.Equal(t, []string{m.Board}, liveBoards(h.Rec))
	h.Rec.Mu.Lock()
	created := len(h.Rec.Msgs)
	h.Rec.Mu.Unlock()
	assert.Equal(t, 2, created, "the first board and one new board: the second post reused the first one's nonce")
}

// Several processes finding the game due at once: one claims it.
func TestOwedEffectsClaimedOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	endTurnWhileDiscordFails(t, h)
	rec, _ := h.Record()
	before := h.Rec.Count()
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			assert.NoError(t, h.b.RunDueOn(context.Background(), h.Rec, h.Channel, rec.Due))
		}()
	}
	wg.Wait()
	posts := 0
	for _, c := range h.Rec.Since(before) {
		if c.Posted() {
			posts++
		}
	}
	assert.Equal(t, 1, posts, "one process did the work")
	_, m := h.Record()
	assert.Equal(t, []string{m.Board}, liveBoards(h.Rec))
}

// A refusal for good (the old board was deleted by a moderator) does not
// block what comes after it.
func TestPermanentRefusalIsSkipped(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, quickTurnDeck, dix.Options{Players: 2, FirstPlayer: 0})
	rec, m := h.Record()
	m.owe(rec, bot.Effect{Kind: bot.EffRetire, Msg: "gone"}, bot.Effect{Kind: bot.EffBoard})
	rec.Meta = m.Encode()
	require.NoError(t, runDixOutbox(h.b, context.Background(), h.Rec, rec, nil))
	_, m = h.Record()
	assert.Empty(t, m.Outbox)
	assert.Equal(t, []string{m.Board}, liveBoards(h.Rec))
}

// TestBoardClickAnswerLostIsRepaired: a click on the board within a turn
// (a draw) changes the board in place through its answer; when that answer
// is lost, the same change is owed in the outbox, so the board still shows
// the game as it stands with its current buttons. When the answer goes
// through, the outbox sends nothing more for it.
func TestBoardClickAnswerLostIsRepaired(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, quickTurnDeck, dix.Options{Players: 2, FirstPlayer: 0})
	board := h.Board()
	boardVersion := func() uint32 {
		t.Helper()
		v, ok := shownVersion(&discordgo.Message{Components: h.Rec.Message(board.ID).Components})
		require.True(t, ok, "the board has game buttons")
		return v
	}

	n := h.Rec.Count()
	h.ClickOn("u1", board, h.MustFind(board, verbDraw))
	rec, m := h.Record()
	assert.Equal(t, m.version(dix.GameOf(rec.State)), boardVersion(), "answered in place")
	assert.Len(t, h.Rec.Since(n), 1, "the answer alone: nothing owed is sent again")
	assert.Empty(t, m.Outbox)

	h.Rec.Mu.Lock()
	h.Rec.Refuse = func(c tabletest.Call) error {
		if c.Op != "respond" {
			return nil
		}
		return &discordgo.RESTError{Response: &http.Response{StatusCode: http.StatusServiceUnavailable}}
	}
	h.Rec.Mu.Unlock()
	h.ClickOn("u1", board, h.MustFind(board, verbDraw))
	rec, m = h.Record()
	assert.Greater(t, dix.GameOf(rec.State).Seq, uint32(0))
	assert.Equal(t, m.version(dix.GameOf(rec.State)), boardVersion(), "the board shows the game as it stands")
	assert.Empty(t, m.Outbox, "done")
}

// TestTakeoverFindsTheBoardPostedBefore: a process posted the owed board
// as a follow-up (which carries no nonce) and died before recording it.
// The process that takes the game over finds that board among the
// channel's latest messages and keeps it: the channel has one board.
func TestTakeoverFindsTheBoardPostedBefore(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	endTurnWhileDiscordFails(t, h)
	rec, m := h.Record()
	require.Len(t, m.Outbox, 1)
	require.Equal(t, bot.EffBoard, m.Outbox[0].Kind)
	ix := &bot.Via{App: "app", Token: "tok-dead", At: time.Now().UnixMilli()}
	x := &executor{b: h.b, d: h.Rec, rec: rec, m: m, ix: ix, now: time.Now(), board: m.Board, ping: m.Ping, users: m.PingUsers}
	require.NoError(t, x.do(context.Background(), m.Outbox[0]))
	posted := x.board
	require.Equal(t, []string{posted}, liveBoards(h.Rec))

	require.NoError(t, h.b.RunDueOn(context.Background(), h.Rec, h.Channel, rec.Due))
	_, m = h.Record()
	assert.Empty(t, m.Outbox)
	assert.Equal(t, posted, m.Board, "the board posted before is the game's board")
	assert.Equal(t, []string{posted}, liveBoards(h.Rec), "one board with buttons")
}

// TestBoardEditOvertakenIsShownAgain: while the outbox edits the board to
// show the game, the game moves on (a newer click, whose own answer may
// land before this edit). The batch then owes the board another edit, so
// the board ends up showing the game as it stands.
func TestBoardEditOvertakenIsShownAgain(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, quickTurnDeck, dix.Options{Players: 2, FirstPlayer: 0})
	board := h.Board()
	overtaken := false
	h.Rec.Mu.Lock()
	h.Rec.Refuse = func(c tabletest.Call) error {
		switch {
		case c.Op == "respond":
			return errors.New("connection reset") // the answer is lost: the outbox edits the board
		case (c.Op == "edit" || c.Op == "followupEdit") && !overtaken:
			overtaken = true
			_, err := h.St.Update(context.Background(), h.Channel, "", func(r *dixbot.Record) error {
				dix.GameOf(r.State).Seq++ // a newer change lands while the edit is under way
				return nil
			})
			require.NoError(t, err)
		}
		return nil
	}
	h.Rec.Mu.Unlock()
	h.ClickOn("u1", board, h.MustFind(board, verbDraw))
	require.True(t, overtaken)
	rec, m := h.Record()
	require.Len(t, m.Outbox, 1, "the board is owed another edit")
	assert.Equal(t, bot.EffEdit, m.Outbox[0].Kind)

	h.Rec.Mu.Lock()
	h.Rec.Refuse = nil
	h.Rec.Mu.Unlock()
	require.NoError(t, h.b.RunDueOn(context.Background(), h.Rec, h.Channel, rec.Due))
	rec, m = h.Record()
	assert.Empty(t, m.Outbox)
	v, ok := shownVersion(&discordgo.Message{Components: h.Rec.Message(board.ID).Components})
	require.True(t, ok)
	assert.Equal(t, m.version(dix.GameOf(rec.State)), v, "the board shows the game as it stands")
}

// TestClickOnUnrecordedBoardPostsNoOther: a process posted the owed board
// and died before recording it; the next player clicks on that board. It
// becomes the table's board: no other board is posted for the turn.
func TestClickOnUnrecordedBoardPostsNoOther(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	endTurnWhileDiscordFails(t, h)
	rec, m := h.Record()
	require.Len(t, m.Outbox, 1)
	ix := &bot.Via{App: "app", Token: "tok-dead", At: time.Now().UnixMilli()}
	x := &executor{b: h.b, d: h.Rec, rec: rec, m: m, ix: ix, now: time.Now(), board: m.Board, ping: m.Ping, users: m.PingUsers}
	require.NoError(t, x.do(context.Background(), m.Outbox[0]))
	posted := h.Rec.Message(x.board)
	require.NotNil(t, posted)

	r := h.ClickOn("u2", posted, h.MustFind(posted, verbDraw))
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type)
	for _, c := range r.Calls {
		assert.False(t, c.Posted(), "no message posted for the click: %+v", c.Send)
	}
	_, m = h.Record()
	assert.Empty(t, m.Outbox)
	assert.Equal(t, posted.ID, m.Board, "the board clicked on is the table's board")
	assert.Equal(t, []string{posted.ID}, liveBoards(h.Rec))
}

// hookAPI is the recorder with a hook around the interaction answers.
type hookAPI struct {
	*tabletest.Recorder
	before, after func()
}

func (a hookAPI) Respond(ctx context.Context, i *discordgo.Interaction, r *discordgo.InteractionResponse) error {
	if a.before != nil {
		a.before()
	}
	err := a.Recorder.Respond(ctx, i, r)
	if a.after != nil {
		a.after()
	}
	return err
}

// TestRedeliveredAnswerOvertakenIsRepaired: a redelivered click whose
// first answer was lost shows the game on the board; meanwhile a newer
// click, on the board the outbox brought up to date, reaches another
// process (a replica), changes the game and answers first. The
// redelivery's older render lands last, while the newer click's own board
// edit, which its answer made, is still owed: the board is shown again all
// the same, and ends up showing the game as it stands. (Within one process
// the board's fence sends the older render first.)
func TestRedeliveredAnswerOvertakenIsRepaired(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	replica, err := bot.New(bot.Options{Store: h.Db, DefaultLanguage: "en", Seed: func() int64 { return 7 }})
	require.NoError(t, err)
	seedGame(h, []string{"u1", "u2"}, quickTurnDeck, dix.Options{Players: 2, FirstPlayer: 0})
	board := h.Board()
	boardVersion := func() uint32 {
		t.Helper()
		v, ok := shownVersion(&discordgo.Message{Components: h.Rec.Message(board.ID).Components})
		require.True(t, ok, "the board has game buttons")
		return v
	}
	first := h.ClickIx("u1", board, h.MustFind(board, verbDraw))
	h.Rec.Mu.Lock()
	h.Rec.Refuse = func(c tabletest.Call) error {
		if c.Op == "respond" {
			return errors.New("connection reset") // the first answer is lost
		}
		return nil
	}
	h.Rec.Mu.Unlock()
	h.Run(first)
	h.Rec.Mu.Lock()
	h.Rec.Refuse = nil
	h.Rec.Mu.Unlock()
	rec, m := h.Record()
	require.Equal(t, m.version(dix.GameOf(rec.State)), boardVersion(), "the outbox showed the draw")

	shown := h.Rec.Message(board.ID)
	next := h.ClickIx("u1", shown, h.MustFind(shown, verbStop))
	answered, release, finished := make(chan struct{}), make(chan struct{}), make(chan struct{})
	newer := hookAPI{Recorder: h.Rec, after: func() {
		close(answered) // the newer click's answer landed; its effects wait
		<-release
	}}
	redelivered := hookAPI{Recorder: h.Rec, before: func() {
		go func() {
			defer close(finished)
			replica.Serve(newer, &discordgo.InteractionCreate{Interaction: next}, h.Raw())
		}()
		<-answered
	}}
	h.b.Serve(redelivered, &discordgo.InteractionCreate{Interaction: first}, h.Raw())
	close(release)
	<-finished

	rec, m = h.Record()
	if len(m.Outbox) > 0 {
		require.NoError(t, h.b.RunDueOn(context.Background(), h.Rec, h.Channel, rec.Due))
		rec, m = h.Record()
	}
	assert.Empty(t, m.Outbox)
	assert.Equal(t, m.version(dix.GameOf(rec.State)), boardVersion(), "the board shows the game as it stands")
}

// TestBoardEditLeftOutWhenTheBoardIsReplaced: an edit of the board owed
// before the turn ended would show the next turn on the old board, whose
// buttons a player could click for a moment before the summary replaces
// them: with a fresh board or the old board's retirement owed after it,
// the edit is left out. Without them it is made.
func TestBoardEditLeftOutWhenTheBoardIsReplaced(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, quickTurnDeck, dix.Options{Players: 2, FirstPlayer: 0})
	board := h.Board()
	rec, m := h.Record()
	edit := bot.Effect{ID: 1, Kind: bot.EffEdit, Again: true}
	for _, tc := range []struct {
		name  string
		after []bot.Effect
		edits int
	}{
		{"nothing after", nil, 1},
		{"a fresh board after", []bot.Effect{{ID: 2, Kind: bot.EffBoard}}, 0},
		{"the board retired after", []bot.Effect{{ID: 2, Kind: bot.EffRetire, Msg: board.ID}}, 0},
		{"another message retired after", []bot.Effect{{ID: 2, Kind: bot.EffRetire, Msg: "other"}}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mm := *m
			mm.Outbox = append([]bot.Effect{edit}, tc.after...)
			x := &executor{b: h.b, d: h.Rec, rec: rec, m: &mm, now: time.Now(), board: board.ID}
			start := h.Rec.Count()
			require.NoError(t, x.do(context.Background(), edit))
			edits := 0
			for _, c := range h.Rec.Since(start) {
				if c.Op == "edit" || c.Op == "followupEdit" {
					edits++
				}
			}
			assert.Equal(t, tc.edits, edits)
		})
	}
}

// Two processes that post one board at once (the holder of the effects,
// whose post landed late, and one that took them over and looked for it
// before it landed) leave one: the process whose copy came second deletes
// it and takes the first; the first keeps its own.
func TestBoardPostedTwiceAtOnceKeepsTheFirst(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, quickTurnDeck, dix.Options{Players: 2, FirstPlayer: 0})
	board := h.Board()
	rec, m := h.Record()
	ms := &discordgo.MessageSend{Content: "the board of the next turn",
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "Draw", CustomID: "dix:draw:99"}}}}}
	ctx := context.Background()
	first, err := h.Rec.Send(ctx, rec.Channel, ms, "")
	require.NoError(t, err)
	second, err := h.Rec.Send(ctx, rec.Channel, ms, "")
	require.NoError(t, err)
	other, err := h.Rec.Send(ctx, rec.Channel, &discordgo.MessageSend{Content: "another message"}, "")
	require.NoError(t, err)
	x := &executor{b: h.b, d: h.Rec, rec: rec, m: m, now: time.Now(), board: board.ID}

	kept := x.firstOf(ctx, ms, second)
	assert.Equal(t, first.ID, kept.ID, "the second copy gives way to the first")
	assert.Contains(t, h.Rec.Deleted, second.ID)
	assert.Equal(t, first.ID, x.firstOf(ctx, ms, first).ID, "the first copy stays")
	assert.NotContains(t, h.Rec.Deleted, first.ID)
	assert.Equal(t, other.ID, x.firstOf(ctx, &discordgo.MessageSend{Content: "another message"}, other).ID,
		"a message with no earlier copy stays")
	assert.Len(t, h.Rec.Deleted, 1)
}
