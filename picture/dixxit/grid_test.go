package dixxit

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/dixxit"
	"github.com/dixgame/dixbot/picture"
	"github.com/dixgame/dixbot/picture/dixxit/deck"
	"github.com/dixgame/dixbot/picture/picturetest"
)

// testRenderer draws with testFaces; the tests share its tiles.
var testRenderer = NewRenderer(testFaces)

// testFaces draws a picture per face: a background of the card's own hue,
// a disc for face a, a diamond for face b, and transparent corners (as
// clip art has).
func testFaces(card, face int) []byte {
	if card < 0 || card >= dixxit.Cards || face < 0 || face > 1 {
		return nil
	}
	testPNGs.Lock()
	defer testPNGs.Unlock()
	k := 2*card + face
	if testPNGs.m[k] == nil {
		testPNGs.m[k] = drawTestFace(card, face)
	}
	return testPNGs.m[k]
}

// testPNGs keeps the pictures of testFaces, drawn once.
var testPNGs = struct {
	sync.Mutex
	m map[int][]byte
}{m: map[int][]byte{}}

func drawTestFace(card, face int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 256, 256))
	bg := color.NRGBA{uint8(40 + card*3), uint8(200 - card*2), uint8(90 + face*120), 255}
	fg := color.NRGBA{uint8(250 - card*3), uint8(60 + card), 40, 255}
	for y := range 256 {
		for x := range 256 {
			dx, dy := x-128, y-128
			switch {
			case dx*dx+dy*dy > 120*120 && (x < 30 || x > 226) && (y < 30 || y > 226):
			case face == 0 && dx*dx+dy*dy < 70*70, face == 1 && abs(dx)+abs(dy) < 80:
				img.SetNRGBA(x, y, fg)
			default:
				img.SetNRGBA(x, y, bg)
			}
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}

func abs(x int) int { return max(x, -x) }

var names = []string{"Ann", "Bob", "Chloé", "Dmitri Verylongname-Surname", "Eve"}

// game returns a 5-player game after the clue and two fingers, with its
// target on square target (1–9).
func game(t *testing.T, target int) *dixxit.Game {
	t.Helper()
	s, err := dixxit.Rules{}.New(engine.Setup{Players: 5, Seed: 4, First: 0})
	require.NoError(t, err)
	g := withTarget(t, s.(*dixxit.Game), target)
	for _, m := range []struct {
		seat int
		m    engine.Move
	}{{0, "clue night"}, {3, "f 2 200"}, {1, "f 7 100"}} {
		_, err := g.Apply(m.seat, m.m)
		require.NoError(t, err)
	}
	return g
}

// withTarget returns g with the turn's target on square sq (1–9), by
// rewriting the target byte of its serialised form (engine/dixxit's
// codec.go: version, players, first, seed, seq, turn, active, phase,
// target).
func withTarget(t *testing.T, g *dixxit.Game, sq int) *dixxit.Game {
	t.Helper()
	b := g.Encode()
	i := 3
	for _, signed := range []bool{true, false, false} {
		var n int
		if signed {
			_, n = binary.Varint(b[i:])
		} else {
			_, n = binary.Uvarint(b[i:])
		}
		require.Positive(t, n)
		i += n
	}
	b[i+2] = byte(sq - 1)
	s, err := dixxit.Rules{}.Decode(b)
	require.NoError(t, err)
	return s.(*dixxit.Game)
}

// checkGolden compares png bytes pixel by pixel with testdata/name, or
// rewrites it with -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if picturetest.Updating() {
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run with -update to create it")
	gi, err := png.Decode(bytes.NewReader(got))
	require.NoError(t, err)
	wi, err := png.Decode(bytes.NewReader(want))
	require.NoError(t, err)
	require.Equal(t, wi.Bounds(), gi.Bounds(), "size")
	diff := 0
	b := gi.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if gi.At(x, y) != wi.At(x, y) {
				diff++
			}
		}
	}
	assert.Zero(t, diff, "%d pixels differ from %s (run with -update after checking the picture)", diff, name)
}

func TestGolden(t *testing.T) {
	r := testRenderer
	g := game(t, 5)
	for _, tc := range []struct {
		name string
		grid Grid
	}{
		{"grid_public.png", GridOf(g.ViewOf(engine.Public), names)},
		{"grid_active.png", GridOf(g.ViewOf(0), names)},
		{"grid_found.png", func() Grid {
			gr := GridOf(g.ViewOf(engine.Public), names)
			gr.Squares[4].Name, gr.Squares[4].Found = "Chloé", true
			return gr
		}()},
		{"grid_empty_squares.png", func() Grid {
			gr := GridOf(g.ViewOf(engine.Public), names)
			gr.Squares[0].Card, gr.Squares[8].Card = "", ""
			gr.Squares[3].Card = "c999z" // no such card: its id on a blank
			return gr
		}()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := r.Render(tc.grid)
			require.NoError(t, err)
			checkGolden(t, tc.name, b)
		})
	}
}

// TestPublicGridHidesTheTarget checks X11: the public grid, and the grid
// of every guesser, of the same position with two targets are the same
// bytes; only the active player's differs.
func TestPublicGridHidesTheTarget(t *testing.T) {
	r := testRenderer
	x, y := game(t, 5), game(t, 9)
	for seat := engine.Public; seat < 5; seat++ {
		bx, err := r.Render(GridOf(x.ViewOf(seat), names))
		require.NoError(t, err)
		by, err := r.Render(GridOf(y.ViewOf(seat), names))
		require.NoError(t, err)
		if seat == 0 {
			assert.NotEqual(t, bx, by, "the active player's grid frames the target")
		} else {
			assert.Equal(t, bx, by, "seat %d", seat)
		}
	}
}

func TestGridOf(t *testing.T) {
	g := game(t, 5)
	pub := GridOf(g.ViewOf(engine.Public), names)
	assert.Zero(t, pub.Target)
	assert.Equal(t, "Dmitri Verylongname-Surname", pub.Squares[1].Name)
	assert.Equal(t, "Bob", pub.Squares[6].Name)
	assert.Equal(t, 5, GridOf(g.ViewOf(0), names).Target)
	assert.Equal(t, "?", GridOf(g.ViewOf(engine.Public), nil).Squares[1].Name)
}

// TestRenderIsFastAndSmall renders a grid many times: every PNG is at most
// 200 KB. Timings are reported, never asserted (see BenchmarkGrid).
func TestRenderIsFastAndSmall(t *testing.T) {
	r := testRenderer
	g := GridOf(game(t, 5).ViewOf(engine.Public), names)
	var times []time.Duration
	for range 5 {
		t0 := time.Now()
		b, err := r.Render(g)
		times = append(times, time.Since(t0))
		require.NoError(t, err)
		assert.LessOrEqual(t, len(b), 200<<10)
	}
	slices.Sort(times)
	t.Logf("render p50 %v", times[len(times)/2])
}

// TestDeckGridsAreSmall renders grids of the deck's own pictures (a
// quarter of the faces, spread over the deck; scaling every face takes
// long under the race detector): each PNG is at most 200 KB.
func TestDeckGridsAreSmall(t *testing.T) {
	r := NewRenderer(deck.Face)
	g := GridOf(game(t, 5).ViewOf(engine.Public), names)
	largest := 0
	for first := 0; first < dixxit.NumCardFaces; first += 4 * dixxit.Squares {
		for sq := range g.Squares {
			n := (first + sq) % dixxit.NumCardFaces
			g.Squares[sq].Card = dixxit.CardOf(n/2, n%2).String()
		}
		b, err := r.Render(g)
		require.NoError(t, err)
		largest = max(largest, len(b))
	}
	t.Logf("largest grid of the deck: %d bytes", largest)
	assert.LessOrEqual(t, largest, 200<<10)
}

// BenchmarkGridDeck renders a grid of the deck's pictures with their
// tiles cached.
func BenchmarkGridDeck(b *testing.B) {
	benchGrid(b, NewRenderer(deck.Face))
}

// BenchmarkGrid renders the grid with its tiles cached, as a running bot
// does, every row drawn, and reports the PNG size.
func BenchmarkGrid(b *testing.B) { benchGrid(b, NewRenderer(testFaces)) }

// BenchmarkGridOneFinger renders the grid with a new finger on its last
// row each time: that row drawn, the two others kept.
func BenchmarkGridOneFinger(b *testing.B) {
	r := NewRenderer(deck.Face)
	g := GridOf(game(&testing.T{}, 5).ViewOf(engine.Public), names)
	if _, err := r.Render(g); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		g.Squares[7].Name = "Eve " + strconv.Itoa(i)
		if _, err := r.Render(g); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRenderKeepsRows: a grid whose rows were drawn for an earlier grid
// is the grid drawn whole (by a renderer of its own, which keeps
// nothing).
func TestRenderKeepsRows(t *testing.T) {
	t.Parallel()
	r := NewRenderer(testFaces)
	g := GridOf(game(t, 5).ViewOf(engine.Public), names)
	_, err := r.Render(g)
	require.NoError(t, err)
	g.Squares[7].Name, g.Squares[7].Found = "Eve", true
	kept, err := r.Render(g)
	require.NoError(t, err)
	whole, err := NewRenderer(testFaces).Render(g)
	require.NoError(t, err)
	ki, err := png.Decode(bytes.NewReader(kept))
	require.NoError(t, err)
	wi, err := png.Decode(bytes.NewReader(whole))
	require.NoError(t, err)
	require.Equal(t, wi.Bounds(), ki.Bounds())
	for y := range Height {
		for x := range Width {
			require.Equal(t, wi.At(x, y), ki.At(x, y), "(%d,%d)", x, y)
		}
	}
}

func benchGrid(b *testing.B, r *Renderer) {
	t := &testing.T{}
	g := GridOf(game(t, 5).ViewOf(engine.Public), names)
	var size int
	if _, err := r.Render(g); err != nil {
		b.Fatal(err)
	}
	var times []time.Duration
	b.ReportAllocs()
	for b.Loop() {
		picture.DropBands()
		t0 := time.Now()
		png, err := r.Render(g)
		times = append(times, time.Since(t0))
		if err != nil {
			b.Fatal(err)
		}
		size = len(png)
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(size), "bytes")
}
