package picturetest

import (
	"fmt"
	"image/color"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Swatch is a named colour of a game's palette: a face and the ink of the
// numbers drawn on it.
type Swatch struct {
	Name      string
	Face, Ink color.RGBA
}

// Apart checks, under normal vision and each simulation of CVDs (a
// subtest each), that every two faces of swatches differ by at least
// minDeltaE00 in CIEDE2000, and logs each difference.
func Apart(t *testing.T, swatches []Swatch, minDeltaE00 float64) {
	t.Helper()
	for _, sim := range CVDs {
		t.Run(sim.Name, func(t *testing.T) {
			labs := make([]Vec, len(swatches))
			for i, s := range swatches {
				labs[i] = Lab(sim.M, s.Face)
			}
			for i := range swatches {
				for j := i + 1; j < len(swatches); j++ {
					d := DeltaE2000(labs[i], labs[j])
					assert.GreaterOrEqual(t, d, minDeltaE00, "%s vs %s", swatches[i].Name, swatches[j].Name)
					t.Logf("%s vs %s: ΔE00 %.1f", swatches[i].Name, swatches[j].Name, d)
				}
			}
		})
	}
}

// Readable checks that the ink of every swatch has a WCAG 2 contrast of at
// least minContrast on its face, and logs each contrast.
func Readable(t *testing.T, swatches []Swatch, minContrast float64) {
	t.Helper()
	for _, s := range swatches {
		c := Contrast(Linear(s.Ink), Linear(s.Face))
		assert.GreaterOrEqual(t, c, minContrast, "ink on %s", s.Name)
		t.Logf("ink on %s: %.2f:1", s.Name, c)
	}
}

// Named builds swatches from a game's colours: the name (fmt's %v), face
// and ink of each.
func Named[C any](colours []C, face, ink func(C) color.RGBA) []Swatch {
	s := make([]Swatch, len(colours))
	for i, c := range colours {
		s[i] = Swatch{Name: fmt.Sprint(c), Face: face(c), Ink: ink(c)}
	}
	return s
}
