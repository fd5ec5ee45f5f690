package app

import (
	"os"
	"testing"

	"github.com/dixgame/dixbot/internal/discordapi"
)

// BenchmarkHandlerGoroutine starts a goroutine per interaction, as the
// gateway and the interactions endpoint do, which decodes a board click
// at the depth of a handler's calls (frames of about 256 bytes, 100 deep)
// and again at the top: with the stack grown first (growStack) and
// without.
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
						growStack()
					}
					_, err := discordapi.DecodeInteraction(raw)
					if err == nil {
						err = descend(100, raw)
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

// descend calls itself depth times, each frame holding 256 bytes, then
// decodes raw.
//
//go:noinline
func descend(depth int, raw []byte) error {
	var frame [256]byte
	frame[depth%len(frame)] = byte(depth)
	if depth == 0 {
		_, err := discordapi.DecodeInteraction(raw)
		return err
	}
	if err := descend(depth-1, raw); err != nil || frame[0] == 255 {
		return err
	}
	return nil
}
