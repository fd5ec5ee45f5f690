package app

import (
	"context"
	"log/slog"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func ic(id string) *discordgo.InteractionCreate {
	return &discordgo.InteractionCreate{Interaction: &discordgo.Interaction{ID: id}}
}

func TestGateHandlesEachInteractionOnce(t *testing.T) {
	var mu sync.Mutex
	calls := map[string]int{}
	g := newGate(func(_ *discordgo.Session, i *discordgo.InteractionCreate, _ []byte) {
		mu.Lock()
		calls[i.ID]++
		mu.Unlock()
	}, slog.New(slog.DiscardHandler))

	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() { g.Handle(nil, ic("42")) })
	}
	wg.Wait()
	g.Handle(nil, ic("43"))
	g.Handle(nil, nil)
	assert.Equal(t, map[string]int{"42": 1, "43": 1}, calls)
	assert.Equal(t, 7, g.Dropped())

	// The memory is bounded: the oldest ids are forgotten first.
	for n := range seenSize {
		g.Handle(nil, ic("x"+strconv.Itoa(n)))
	}
	g.Handle(nil, ic("42"))
	g.Handle(nil, ic("x"+strconv.Itoa(seenSize-1)))
	assert.Equal(t, 2, calls["42"], "forgotten after seenSize newer ids")
	assert.Equal(t, 1, calls["x"+strconv.Itoa(seenSize-1)], "a recent id is still known")
	assert.Len(t, g.seen, seenSize)
}

func TestGateWaitsForRunningHandlers(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{})
	g := newGate(func(*discordgo.Session, *discordgo.InteractionCreate, []byte) {
		entered <- struct{}{}
		<-release
	}, slog.New(slog.DiscardHandler))
	require.NoError(t, g.Wait(context.Background()), "nothing runs yet")

	go g.Handle(nil, ic("1"))
	<-entered
	short, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	assert.ErrorIs(t, g.Wait(short), context.DeadlineExceeded, "a handler is running")

	done := make(chan error, 1)
	go func() { done <- g.Wait(context.Background()) }()
	close(release)
	require.NoError(t, <-done)
	// Idle again, then busy again: Wait follows.
	release = make(chan struct{})
	go g.Handle(nil, ic("2"))
	<-entered
	go func() { done <- g.Wait(context.Background()) }()
	close(release)
	require.NoError(t, <-done)
}
