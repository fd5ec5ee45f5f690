package picture

import (
	"bytes"
	"image"
	"image/png"
	"sync"
)

// encoder writes the pictures: the fastest deflate level (a paletted
// picture of flat areas compresses well at any level) and buffers reused
// across calls.
var encoder = png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &bufferPool{}}

type bufferPool struct{ p sync.Pool }

func (b *bufferPool) Get() *png.EncoderBuffer {
	v, _ := b.p.Get().(*png.EncoderBuffer)
	return v
}

func (b *bufferPool) Put(x *png.EncoderBuffer) { b.p.Put(x) }

// Encode returns img as PNG bytes and gives its buffer back for the next
// NewCanvas: img must not be used afterwards.
func Encode(img *image.Paletted) ([]byte, error) {
	defer pixPool.Put(&img.Pix)
	var buf bytes.Buffer
	buf.Grow(48 << 10)
	if err := encoder.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
