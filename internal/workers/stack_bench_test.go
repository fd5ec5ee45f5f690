package workers

import (
	"os"
	"testing"

	"github.com/dixgame/dixbot/internal/discordapi"
)

// BenchmarkHandlerGoroutine starts a goroutine per interaction, as the
// gateway and the interactions endpoint do, which decodes a board click,
// goes as deep as a handler's calls (deep: 100 frames of 256 bytes) and
// decodes it again: with the stack grown first (GrowStack) and without.
func BenchmarkHandlerGoroutine(b *testing.B) {
	raw, err := os.ReadFile("../discordapi/testdata/interactions/button-dix-11.json")
	if err != nil {
		b.Fatal(err)
	}
	for _, grown := range []bool{false, true} {
		name := "plain"
		if grown {
			name = "grown"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			done := make(chan error)
			for range b.N {
				go func() {
					if grown {
						GrowStack()
					}
					_, err := discordapi.DecodeInteraction(raw)
					deep(100)
					if err == nil {
						_, err = discordapi.DecodeInteraction(raw)
					}
					done <- err
				}()
				if err := <-done; err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
