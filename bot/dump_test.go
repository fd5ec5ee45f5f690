package bot

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/bwmarrin/discordgo"
)

func dumpEmbed(e *discordgo.MessageEmbed) string {
	s := "## " + e.Title + "\n" + e.Description + "\n"
	for _, f := range e.Fields {
		s += "[" + f.Name + "]\n" + f.Value + "\n"
	}
	if e.Footer != nil {
		s += "(" + e.Footer.Text + ")\n"
	}
	return s
}

func TestDump(t *testing.T) {
	if os.Getenv("DUMP") == "" {
		t.Skip()
	}
	h := newHarness(t)
	if os.Getenv("DUMP") == "fr" {
		h.locale, h.guildLc = discordgo.French, discordgo.French
	}
	h.startGame("u1", "u2", "u3")
	rng := rand.New(rand.NewPCG(5, 5))
	for k := 0; k < 60 && h.step(rng); k++ {
	}
	for _, c := range h.rec.calls[len(h.rec.calls)-40:] {
		fmt.Printf("==== %s %s\n", c.op, c.interaction)
		if c.resp != nil && c.resp.Data != nil {
			fmt.Printf("type %d content %q ids %v\n", c.resp.Type, c.resp.Data.Content, componentIDs(c.resp.Data.Components))
		}
		if c.send != nil {
			fmt.Printf("content %q ids %v\n", c.send.Content, componentIDs(c.send.Components))
		}
		if c.edit != nil && c.edit.Components != nil {
			fmt.Printf("edit ids %v\n", componentIDs(*c.edit.Components))
		}
		for _, e := range embedsOf(c) {
			fmt.Print(dumpEmbed(e))
		}
	}
}
