package dixtable

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	dixview "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/engine/dix"
)

// Many clicks on the same button at once (a frantic double click, or every
// player at once): exactly one is applied, the others are told the prompt
// is outdated or that it is not their decision.
func TestConcurrentClicks(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2", "u3"}, auctionDeck, dix.Options{Players: 3, FirstPlayer: 0})
	board := h.Board()
	draw := h.MustFind(board, verbDraw)
	rec, _ := h.Record()
	seq := dix.GameOf(rec.State).Seq

	const n = 24
	is := make([]*discordgo.Interaction, n)
	users := []string{"u1", "u2", "u3", "u9"}
	for k := range is {
		i := h.Base(users[k%len(users)], discordgo.InteractionMessageComponent)
		i.Data = discordgo.MessageComponentInteractionData{CustomID: draw, ComponentType: discordgo.ButtonComponent}
		i.Message = &discordgo.Message{ID: board.ID, ChannelID: h.Channel}
		is[k] = i
	}
	start := h.Rec.Count()
	var wg sync.WaitGroup
	for _, i := range is {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h.b.Serve(h.Rec, &discordgo.InteractionCreate{Interaction: i}, nil)
		}()
	}
	wg.Wait()

	rec, _ = h.Record()
	assert.Equal(t, seq+1, dix.GameOf(rec.State).Seq, "exactly one draw applied")
	answered := map[string]int{}
	for _, c := range h.Rec.Since(start) {
		if c.Op == "respond" {
			answered[c.Interaction]++
		}
	}
	require.Len(t, answered, n, "every click answered")
	for id, k := range answered {
		assert.Equal(t, 1, k, "interaction %s answered %d times", id, k)
	}
	assert.Equal(t, 1, h.Obs.Outcomes["button/ok"])
}

// BenchmarkClick measures one decision made by clicks (board button, or
// prompt then choice) in a 3-player game, through the router, the store
// double and the recorder.
func BenchmarkClick(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	h := newHarness(b)
	startGame(h, "u1", "u2", "u3")
	b.ReportAllocs()
	for b.Loop() {
		if !step(h, rng) {
			h.Channel += "x"
			startGame(h, "u1", "u2", "u3")
		}
		h.Rec.Mu.Lock()
		h.Rec.Calls = h.Rec.Calls[:0]
		h.Rec.Mu.Unlock()
	}
}

func BenchmarkBoardEmbed(b *testing.B) {
	m, g := lateGame(b, "fr")
	b.ReportAllocs()
	for b.Loop() {
		_ = dixview.BoardEmbed(m.view("fr"), g)
		_ = dixview.BoardButtons(m.view("fr"), g)
	}
}
