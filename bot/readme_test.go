package bot

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image/png"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine/dix"
)

var update = flag.Bool("update", false, "rewrite the README's sample board and docs/board.png")

// TestReadmeBoard checks that the README's sample board is what the table
// shows of a game of DIX by default: a board with its picture, as Discord
// lays the message out (its text, then the embed's title, text, fields,
// picture and footer) with its buttons, and docs/board.png, the picture of
// that very board. With -update it rewrites both.
func TestReadmeBoard(t *testing.T) {
	t.Parallel()
	h := newDixHarness(t, 12, true)
	now := time.Date(2026, 11, 23, 20, 0, 0, 0, time.UTC)
	h.b.now = func() time.Time { return now }
	h.openGame("dix", []string{"u1", "u2", "u3"}, nil, "strong")
	d := &dixDriver{h: h, users: []string{"u1", "u2", "u3"}, rng: rand.New(rand.NewPCG(12, 1)), seen: map[string]int{}, follow: true}
	for steps := 0; ; steps++ {
		require.Less(t, steps, 2000, "no late board with a tableau")
		g, _, _, _ := h.dixNow()
		if len(g.Deck) <= 30 && g.Phase == dix.PhaseDraw && g.Drawn >= 2 && len(g.Tableau) >= 2 && g.Auction == nil && g.ToAct() < 3 {
			break
		}
		require.True(t, d.decide())
	}
	r, err := h.b.get(context.Background(), h.Channel)
	require.NoError(t, err)
	td, err := decodeTableData(r.Meta)
	require.NoError(t, err)
	g := h.b.games["dix"]
	pb, st, err := h.b.drawBoard(g, r, td, "")
	require.NoError(t, err)
	require.Len(t, pb.Files, 1, "pictured by default")
	sample := readmeBoard(pb.Content, pb.Embeds, boardComponents("dix", boardSeq(td, st), pb), now)
	pic, err := io.ReadAll(pb.Files[0].Reader)
	require.NoError(t, err)

	readme := filepath.Join("..", "README.md")
	board := filepath.Join("..", "docs", "board.png")
	raw, err := os.ReadFile(readme)
	require.NoError(t, err)
	text := string(raw)
	const intro = "A board, as the channel shows it"
	i := strings.Index(text, intro)
	require.GreaterOrEqual(t, i, 0, "the README introduces its sample with %q", intro)
	start := strings.Index(text[i:], "```text\n")
	require.GreaterOrEqual(t, start, 0)
	start += i + len("```text\n")
	end := strings.Index(text[start:], "```")
	require.GreaterOrEqual(t, end, 0)
	end += start
	if *update {
		require.NoError(t, os.WriteFile(readme, []byte(text[:start]+sample+text[end:]), 0o644))
		require.NoError(t, os.WriteFile(board, pic, 0o644))
		return
	}
	assert.Equal(t, sample, text[start:end], "the README's sample board is stale: go test ./bot/ -run TestReadmeBoard -update")
	want, err := os.ReadFile(board)
	require.NoError(t, err)
	assert.True(t, samePixels(t, want, pic), "docs/board.png is stale: go test ./bot/ -run TestReadmeBoard -update")
}

// readmeBoard lays a board out in plain text as Discord shows it: Markdown
// rendered away, timestamps as the relative times clients show (as of now).
func readmeBoard(content string, embeds []*discordgo.MessageEmbed, comps []discordgo.MessageComponent, now time.Time) string {
	var sb strings.Builder
	line := func(s string) { sb.WriteString(plain(s, now) + "\n") }
	if content != "" {
		line(content)
		line("")
	}
	for _, e := range embeds {
		line(e.Title)
		line(e.Description)
		for _, f := range e.Fields {
			line("")
			line(f.Name)
			line(f.Value)
		}
		if e.Image != nil {
			line("")
			line("[picture: docs/board.png, shown below]")
		}
		if e.Footer != nil {
			line("")
			line(e.Footer.Text)
		}
	}
	line("")
	for _, r := range comps {
		var labels []string
		for _, c := range r.(discordgo.ActionsRow).Components {
			if b, ok := c.(discordgo.Button); ok {
				labels = append(labels, "[ "+b.Label+" ]")
			}
		}
		line(strings.Join(labels, " "))
	}
	return sb.String()
}

var timestamp = regexp.MustCompile(`<t:(\d+):R>`)

// plain is s without its Markdown, and with its relative timestamps
// written out.
func plain(s string, now time.Time) string {
	s = strings.ReplaceAll(s, "**", "")
	s = strings.ReplaceAll(s, `\`, "")
	return timestamp.ReplaceAllStringFunc(s, func(m string) string {
		n, _ := strconv.ParseInt(timestamp.FindStringSubmatch(m)[1], 10, 64)
		d := time.Unix(n, 0).Sub(now)
		if d >= time.Hour {
			return fmt.Sprintf("in %d hours", int(d.Hours()+0.5))
		}
		return fmt.Sprintf("in %d minutes", int(d.Minutes()+0.5))
	})
}

// samePixels reports whether two PNGs decode to the same picture (their
// bytes may differ by the encoding alone).
func samePixels(t *testing.T, a, b []byte) bool {
	t.Helper()
	ia, err := png.Decode(bytes.NewReader(a))
	require.NoError(t, err)
	ib, err := png.Decode(bytes.NewReader(b))
	require.NoError(t, err)
	if ia.Bounds() != ib.Bounds() {
		return false
	}
	r := ia.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if ia.At(x, y) != ib.At(x, y) {
				return false
			}
		}
	}
	return true
}
