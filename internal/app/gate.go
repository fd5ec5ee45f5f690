package app

import (
	"context"
	"log/slog"
	"sync"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot/internal/discordapi"
	"github.com/dixgame/dixbot/internal/workers"
)

// seenSize is how many recent interaction ids the gate remembers. Discord
// replays, on RESUME, the dispatches a session missed; those are recent, and
// a few thousand ids cover far more than one replay.
const seenSize = 4096

// gate sits between discordgo and the bot. It drops an interaction
// delivered again with an id already seen by this process (Discord may
// replay dispatches when a gateway session resumes): the first delivery
// answers it, and a second initial answer would only be refused by Discord
// (40060). Replays only reach the session that missed them, so the memory
// of one process is enough; the store's exactly-once record of each
// interaction stays the guard of the game itself.
//
// It also counts the handler goroutines discordgo starts, so that shutdown
// can wait for every answer, including the "restarting" ones the bot gives
// while it drains (the bot does not count those).
//
// It is safe for concurrent use.
type gate struct {
	handle func(*discordgo.Session, *discordgo.InteractionCreate, []byte)
	log    *slog.Logger
	onDup  func() // counts a dropped redelivery (metrics)

	mu      sync.Mutex
	seen    map[string]struct{}
	ring    [seenSize]string
	next    int
	running int
	idle    chan struct{} // closed when running drops to zero
	dropped int

	workers workers.Pool // Take's
}

func newGate(handle func(*discordgo.Session, *discordgo.InteractionCreate, []byte), log *slog.Logger) *gate {
	return &gate{handle: handle, log: log, seen: make(map[string]struct{}, seenSize)}
}

// Handle handles an interaction without its JSON.
func (g *gate) Handle(s *discordgo.Session, i *discordgo.InteractionCreate) {
	g.handleJSON(s, i, nil)
}

// HandleEvent is the discordgo handler of every gateway event: it takes
// INTERACTION_CREATE with its JSON, which tells what discordgo's
// Interaction does not decode (the type of the interaction's channel).
// An interaction discordgo left undecoded (takeInteractionDecoding) is
// decoded here; one that does not decode is handled as far as it decoded,
// as discordgo does.
//
// An interaction whose JSON the connection took (frameReader) reaches
// discordgo, and so this handler, with a null "d", and is dropped here:
// HandleInteraction has it.
func (g *gate) HandleEvent(s *discordgo.Session, e *discordgo.Event) {
	if e == nil || e.Type != interactionCreate {
		return
	}
	if e.Struct == nil {
		if string(e.RawData) == "null" {
			return
		}
		g.HandleInteraction(s, e.RawData)
		return
	}
	workers.GrowStack()
	i, _ := e.Struct.(*discordgo.InteractionCreate)
	g.handleJSON(s, i, e.RawData)
}

// Take handles the JSON of an INTERACTION_CREATE's data as
// HandleInteraction does, ic its value when it was read already (nil: it
// is decoded here), on a goroutine of its pool (workers.Pool), and
// returns at once.
func (g *gate) Take(s *discordgo.Session, raw []byte, ic *discordgo.InteractionCreate) {
	g.workers.Run(func() {
		if ic == nil {
			g.handleRaw(s, raw)
			return
		}
		g.handleJSON(s, ic, raw)
	})
}

// HandleInteraction handles the JSON of an INTERACTION_CREATE's data: one
// that does not decode is handled as far as it decoded, as discordgo does.
func (g *gate) HandleInteraction(s *discordgo.Session, raw []byte) {
	workers.GrowStack()
	g.handleRaw(s, raw)
}

// handleRaw is HandleInteraction on a grown stack.
func (g *gate) handleRaw(s *discordgo.Session, raw []byte) {
	i, err := discordapi.DecodeInteraction(raw)
	if err != nil {
		g.log.Warn("an interaction that does not decode", "err", err)
	}
	g.handleJSON(s, i, raw)
}

func (g *gate) handleJSON(s *discordgo.Session, i *discordgo.InteractionCreate, raw []byte) {
	if i == nil || i.Interaction == nil {
		return
	}
	if !g.admit(i.ID) {
		return
	}
	defer g.leave()
	g.handle(s, i, raw)
}

// admit counts a running handler of interaction id, to be ended with
// leave; false, logged and counted, for an id already seen.
func (g *gate) admit(id string) bool {
	if g.enter(id) {
		return true
	}
	g.log.Info("interaction delivered again: already handled, ignored", "interaction", id)
	if g.onDup != nil {
		g.onDup()
	}
	return false
}

// enter records id and counts a running handler; false for an id already seen.
func (g *gate) enter(id string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if id != "" {
		if _, dup := g.seen[id]; dup {
			g.dropped++
			return false
		}
		if old := g.ring[g.next]; old != "" {
			delete(g.seen, old)
		}
		g.ring[g.next] = id
		g.next = (g.next + 1) % seenSize
		g.seen[id] = struct{}{}
	}
	if g.running == 0 {
		g.idle = make(chan struct{})
	}
	g.running++
	return true
}

func (g *gate) leave() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.running--
	if g.running == 0 {
		close(g.idle)
	}
}

// Stop ends the goroutines Take keeps waiting, once no handler runs.
func (g *gate) Stop() { g.workers.Stop() }

// Wait waits until no handler runs, or for ctx.
func (g *gate) Wait(ctx context.Context) error {
	for {
		g.mu.Lock()
		if g.running == 0 {
			g.mu.Unlock()
			return nil
		}
		idle := g.idle
		g.mu.Unlock()
		select {
		case <-idle:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Dropped returns how many redelivered interactions were dropped.
func (g *gate) Dropped() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.dropped
}
