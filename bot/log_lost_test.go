package bot

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	computer "github.com/dixgame/dixbot/computer/qwixx"
	rules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

// logLossStore loses every third write of a game log, and the next one
// once armed, as a store that stopped answering does, or a process killed
// after its answer leaves the log unwritten.
type logLossStore struct {
	*tabletest.MemStore
	armed  atomic.Bool
	writes atomic.Int32
	lost   atomic.Int32
}

func (s *logLossStore) lose(channel string) bool {
	if !strings.HasSuffix(channel, "/log") {
		return false
	}
	if s.armed.CompareAndSwap(true, false) || s.writes.Add(1)%3 == 0 {
		s.lost.Add(1)
		return true
	}
	return false
}

func (s *logLossStore) Update(ctx context.Context, channel, interactionID string, fn func(*dixbot.Record) error) (*dixbot.Record, error) {
	if s.lose(channel) {
		return nil, dixbot.ErrUnavailable
	}
	return s.MemStore.Update(ctx, channel, interactionID, fn)
}

func (s *logLossStore) Create(ctx context.Context, r *dixbot.Record) error {
	if s.lose(r.Channel) {
		return dixbot.ErrUnavailable
	}
	return s.MemStore.Create(ctx, r)
}

// A game whose log writes are lost now and then, the last change's
// among them: the next write brings the lines lost, the game's end its
// last ones, and the log holds every line of the game once, in order.
func TestLogLinesLostComeBack(t *testing.T) {
	t.Parallel()
	st := &logLossStore{MemStore: tabletest.NewMemStore()}
	h := newQwixxHarnessOn(t, st, false)
	users := []string{"u1", "u2"}
	board := h.openQwixx(users)
	var told []string // every line the table told, from its data
	lastLines := 0
	keep := func(td *tableData) {
		n := td.Lines - lastLines
		require.LessOrEqual(t, n, len(td.Unlogged), "a change told more lines than the table keeps")
		told = append(told, td.Unlogged[len(td.Unlogged)-n:]...)
		lastLines = td.Lines
	}
	_, td, _ := h.qstate()
	keep(td)
	for step := 0; ; step++ {
		require.Less(t, step, 500, "the game does not end")
		g, _, _ := h.qstate()
		if g.Over() {
			break
		}
		seat := g.ToDecide()[0]
		m, err := computer.Player{Level: computer.Normal}.Decide(rules.StateOf(g), seat, rand.New(rand.NewPCG(uint64(step), 1)))
		require.NoError(t, err)
		after := rules.StateOf(g.Clone())
		_, err = after.Apply(seat, m)
		require.NoError(t, err)
		// The last change's write lost.
		st.armed.Store(after.Over())
		board = h.ClickOn(users[seat], board, h.qmust(board, verbMove, string(m))).Shown(board)
		r, err := h.Db.Get(context.Background(), h.Channel)
		require.NoError(t, err)
		td, err := decodeTableData(r.Meta)
		require.NoError(t, err)
		keep(td)
		if r.Finished {
			break
		}
	}
	assert.GreaterOrEqual(t, st.lost.Load(), int32(4), "writes of the log lost")
	var l gameLogRecord
	require.Eventually(t, func() bool {
		r, err := h.Db.Get(context.Background(), logChannel(h.Channel))
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(r.Meta, &l))
		return len(l.Lines) > 0 && l.Lines[len(l.Lines)-1] == told[len(told)-1]
	}, 10*time.Second, 10*time.Millisecond, "the game's last lines logged")
	assert.Contains(t, []string{locales.T("en", "qwixx_ev_over_locks", nil), locales.T("en", "qwixx_ev_over_penalties", nil)},
		told[len(told)-1], "the last line told is the game's end")
	assert.Equal(t, told, l.Lines, "every line once, in order")
	assert.Equal(t, len(told), l.N)
}
