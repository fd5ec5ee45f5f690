package bot

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/discordapi"
	"github.com/dixgame/dixbot/locales"
)

func TestFenceKeepsEachBoardMovingForward(t *testing.T) {
	t.Parallel()
	var f fences
	now := time.Unix(1_700_000_000, 0)
	var landed []string
	show := func(msg string, s shows, what string) bool {
		sent, err := f.Send(msg, s, now, func() error {
			landed = append(landed, what)
			return nil
		})
		require.NoError(t, err)
		return sent
	}
	assert.True(t, show("m1", shows{Seq: 54}, "54"), "the first render of a board")
	assert.False(t, show("m1", shows{Seq: 53}, "53"), "an older render after a newer one")
	assert.True(t, show("m1", shows{Seq: 54}, "54 again"), "the same state again (a pause, a clock)")
	assert.True(t, show("m2", shows{Seq: 10}, "other board"), "another board has its own fence")
	assert.True(t, show("m1", shows{Retire: true}, "summary"), "a retire")
	assert.False(t, show("m1", shows{Seq: 55}, "55"), "a newer render on a retired board")
	assert.True(t, show("m1", shows{Retire: true}, "retire again"), "a retire sent again")
	assert.Equal(t, []string{"54", "54 again", "other board", "summary", "retire again"}, landed)
}

// A render sent only when newer (an edit that shows the game again) is
// left out where a render of the same state landed on the board through
// this fence, and sent where none did or an older one did.
func TestFenceNewerOnlyWhereNotShown(t *testing.T) {
	t.Parallel()
	var f fences
	now := time.Unix(1_700_000_000, 0)
	show := func(msg string, s shows) bool {
		sent, err := f.Send(msg, s, now, func() error { return nil })
		require.NoError(t, err)
		return sent
	}
	assert.True(t, show("m1", shows{Seq: 7, Newer: true}), "nothing shown through this fence yet")
	assert.False(t, show("m1", shows{Seq: 7, Newer: true}), "the same state shown already")
	assert.True(t, show("m1", shows{Seq: 8, Newer: true}), "a newer state")
	assert.False(t, show("m1", shows{Seq: 7, Newer: true}), "an older state")
	refused := &discordgo.RESTError{Response: &http.Response{StatusCode: http.StatusBadRequest}}
	_, err := f.Send("m2", shows{Seq: 3}, now, func() error { return refused })
	require.Error(t, err)
	assert.True(t, show("m2", shows{Seq: 3, Newer: true}), "the render of that state was refused: not shown")
}

func TestFenceMovesUnlessTheRequestWasRefused(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_700_000_000, 0)
	tooMany := &discordgo.RESTError{Response: &http.Response{StatusCode: http.StatusTooManyRequests}}
	for _, tc := range []struct {
		name  string
		err   error
		moved bool
	}{
		{"sent", nil, true},
		{"failed, may have landed", assert.AnError, true},
		{"a 5xx", &discordgo.RESTError{Response: &http.Response{StatusCode: http.StatusBadGateway}}, true},
		{"a 429", tooMany, false},
		{"a 403", &discordgo.RESTError{Response: &http.Response{StatusCode: http.StatusForbidden}}, false},
		{"held by the rate limiter", &discordapi.RateLimited{After: time.Second}, false},
		{"an answer that did not show the board", ErrNotShown, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var f fences
			_, err := f.Send("m", shows{Seq: 7}, now, func() error { return tc.err })
			require.ErrorIs(t, err, tc.err)
			sent, _ := f.Send("m", shows{Seq: 6}, now, func() error { return nil })
			assert.Equal(t, !tc.moved, sent, "an older render after it")
			_, _ = f.Send("r", shows{Retire: true}, now, func() error { return tc.err })
			sent, _ = f.Send("r", shows{Seq: 8}, now, func() error { return nil })
			assert.Equal(t, !tc.moved, sent, "a render after its retire")
		})
	}
}

func TestFenceSendsOneRequestPerBoardAtATime(t *testing.T) {
	t.Parallel()
	var f fences
	now := time.Unix(1_700_000_000, 0)
	var mu sync.Mutex
	inFlight, most := 0, 0
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = f.Send("m", shows{Seq: uint64(i)}, now, func() error {
				mu.Lock()
				inFlight++
				most = max(most, inFlight)
				mu.Unlock()
				time.Sleep(time.Millisecond)
				mu.Lock()
				inFlight--
				mu.Unlock()
				return nil
			})
		}()
	}
	wg.Wait()
	assert.Equal(t, 1, most, "requests on one board in flight at once")
	sent, _ := f.Send("m", shows{Seq: 48}, now, func() error { return nil })
	assert.False(t, sent, "the board shows the newest render sent")
}

func TestFencePrunesIdleBoards(t *testing.T) {
	t.Parallel()
	var f fences
	start := time.Unix(1_700_000_000, 0)
	for i := range fencePrune {
		_, _ = f.Send(string(rune('a'+i%26))+time.Duration(i).String(), shows{Seq: 1}, start, func() error { return nil })
	}
	require.Len(t, f.M, fencePrune)
	_, _ = f.Send("late", shows{Seq: 1}, start.Add(fenceKeep+time.Second), func() error { return nil })
	assert.Len(t, f.M, 1, "only the board just used is kept")
}

// TestFencePrunesAtMostOncePerInterval: a process holding more fences
// than fencePrune, all of them in use, looks for idle ones once per
// fencePruneEvery, not on every request.
func TestFencePrunesAtMostOncePerInterval(t *testing.T) {
	t.Parallel()
	var f fences
	start := time.Unix(1_700_000_000, 0)
	for i := range fencePrune + 10 {
		_, _ = f.Send("m"+time.Duration(i).String(), shows{Seq: 1}, start, func() error { return nil })
	}
	require.Len(t, f.M, fencePrune+10, "none idle: all kept")
	looked := f.pruned
	_, _ = f.Send("next", shows{Seq: 1}, start.Add(time.Second), func() error { return nil })
	assert.Equal(t, looked, f.pruned, "no second look within the interval")
	_, _ = f.Send("later", shows{Seq: 1}, start.Add(fencePruneEvery+time.Second), func() error { return nil })
	assert.Equal(t, start.Add(fencePruneEvery+time.Second), f.pruned, "a look once the interval is over")
	assert.Len(t, f.M, fencePrune+12, "still none idle")
}

// A change of the table data alone that the board shows (a person back)
// makes the board's renders newer, as a change of the game does: a render
// drawn before it is never sent after one drawn after it.
func TestBoardSeqCountsTableDataChanges(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	board := h.openQwixx([]string{"u1", "u2", "u3"})
	h.setSeat(1, func(s *tableSeat) { s.Late, s.Away = 2, true }) // Bob is absent
	shown := func() (seq, version uint64) {
		r, err := h.Db.Get(context.Background(), h.Channel)
		require.NoError(t, err)
		td, err := decodeTableData(r.Meta)
		require.NoError(t, err)
		st, err := h.b.games["qwixx"].Rules.Decode(r.Data)
		require.NoError(t, err)
		return boardSeq(td, st), st.Seq()
	}
	before, v := shown()

	res := h.ClickOn("u2", board, h.qwixxMove(board))
	assert.Equal(t, locales.T("en", "table_back_you", nil), res.EphemeralText(), "Bob is back")
	after, v2 := shown()
	require.Equal(t, v, v2, "the game did not change")
	assert.Greater(t, after, before)
	h.b.boardFences.Send(board.ID, shows{Seq: after}, h.b.now(), func() error { return nil })
	sent, err := h.b.boardFences.Send(board.ID, shows{Seq: before}, h.b.now(), func() error { return nil })
	require.NoError(t, err)
	assert.False(t, sent, "the render of Bob absent is not sent after the one of Bob back")
}
