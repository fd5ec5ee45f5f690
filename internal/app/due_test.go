package app

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// askedSource records the time of each Due call and what it was asked for.
type askedSource struct {
	asked chan [2]time.Time // {asOf, when asked}
}

func (s *askedSource) Due(_ context.Context, now time.Time, _ int) ([]string, error) {
	select {
	case s.asked <- [2]time.Time{now, time.Now()}:
	default:
	}
	return nil, nil
}

// TestStartupTakesOnlyOverdueWork: the first poll of a process starting up
// asks only for work due by then. Work due a little later belongs to the
// live process that made the change (its grace to post the board): taking
// it too would post that board twice.
func TestStartupTakesOnlyOverdueWork(t *testing.T) {
	src := &askedSource{asked: make(chan [2]time.Time, 1)}
	r := dueRunner(Config{DuePoll: time.Hour}, src, slog.New(slog.DiscardHandler))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); r.Run(ctx) }()
	defer func() { cancel(); <-done }()
	select {
	case got := <-src.asked:
		asOf, at := got[0], got[1]
		assert.False(t, asOf.After(at), "the start-up poll asked for work due %v after its own time", asOf.Sub(at))
	case <-time.After(30 * time.Second):
		require.Fail(t, "no start-up poll")
	}
}
