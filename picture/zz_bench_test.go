package picture

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"testing"
)

func BenchmarkZZOurs(b *testing.B) {
	f, _ := os.ReadFile("dix/testdata/board_3p.png")
	im, _ := png.Decode(bytes.NewReader(f))
	p := im.(*image.Paletted)
	for b.Loop() {
		EncodePaletted(p)
	}
}
