package app

import (
	"sync"
	_ "unsafe" // go:linkname

	"github.com/bwmarrin/discordgo"
)

// discordgoEvents is discordgo's table of the gateway events it decodes
// itself, by type: an event not in it reaches the handlers of every event
// (*discordgo.Event) with its JSON and no value.
//
//go:linkname discordgoEvents github.com/bwmarrin/discordgo.registeredInterfaceProviders
var discordgoEvents map[string]discordgo.EventInterfaceProvider

// interactionCreate is the gateway event of an interaction.
const interactionCreate = "INTERACTION_CREATE"

var (
	takeOnce sync.Once
	taken    bool
)

// takeInteractionDecoding has discordgo hand INTERACTION_CREATE to
// gate.HandleEvent undecoded, for discordapi.DecodeInteraction to decode:
// the same value in a sixth of the time (docs/PERFORMANCE.md). It reports
// whether it did; it does nothing if discordgo's table is not what this
// code knows (another version of discordgo), and discordgo then decodes
// interactions as before. It changes discordgo for the whole process, so
// it runs before the process's first gateway session connects, and only
// in a process that runs the bot on the gateway (no session of this
// process takes interactions any other way).
func takeInteractionDecoding() bool {
	takeOnce.Do(func() {
		p, ok := discordgoEvents[interactionCreate]
		if !ok {
			return
		}
		if _, ok := p.New().(*discordgo.InteractionCreate); !ok {
			return
		}
		delete(discordgoEvents, interactionCreate)
		taken = true
	})
	return taken
}
