package picturetest

import (
	"bytes"
	"flag"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden PNGs under testdata/ and the tables of codes (FitCodes)")

// Updating reports whether the test runs with -update: golden files and
// tables are written, not checked.
func Updating() bool { return *update }

// Golden compares the PNG got pixel by pixel with testdata/name of the
// package under test, or rewrites that file first with -update.
func Golden(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run with -update to create it")
	diff, err := PixelsApart(got, want)
	require.NoError(t, err)
	assert.Zero(t, diff, "%s: %d pixels differ (run with -update after looking at the new picture)", name, diff)
}

// PixelsApart is the number of pixels at which the PNGs got and want
// differ. Pictures of different sizes, or bytes that are not a PNG, are an
// error.
func PixelsApart(got, want []byte) (int, error) {
	gi, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		return 0, err
	}
	wi, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		return 0, err
	}
	if gi.Bounds() != wi.Bounds() {
		return 0, fmt.Errorf("size: got %v, want %v", gi.Bounds(), wi.Bounds())
	}
	diff := 0
	b := gi.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if gi.At(x, y) != wi.At(x, y) {
				diff++
			}
		}
	}
	return diff, nil
}
