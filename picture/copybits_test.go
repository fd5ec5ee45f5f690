package picture

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// copyBitsSlowly is copyBits one bit at a time.
func copyBitsSlowly(b *bitWriter, src []byte, from, to int) {
	for ; from < to; from++ {
		b.write(uint64(src[from>>3]>>(from&7)&1), 1)
	}
}

// copyBits writes the very bits written one at a time: every length up to
// a few hundred bits, from every offset, after any number of bits pending.
func TestCopyBitsAsOneByOne(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(8, 9))
	src := make([]byte, 128+8)
	for i := range src {
		src[i] = byte(rng.IntN(256))
	}
	for range 20000 {
		pending, nPending := rng.Uint64(), uint(rng.IntN(33))
		from := rng.IntN(8 * 128)
		to := from + rng.IntN(8*128-from+1)
		var fast, slow bitWriter
		for _, w := range []*bitWriter{&fast, &slow} {
			w.out = append(w.out, 0xa5)
			w.write(pending&(1<<nPending-1), nPending)
		}
		fast.copyBits(src, from, to)
		copyBitsSlowly(&slow, src, from, to)
		fast.write(0x5, 3)
		slow.write(0x5, 3)
		if f, s := fast.flush(), slow.flush(); !bytes.Equal(f, s) {
			t.Fatalf("bits %d to %d after %d pending: %x, want %x", from, to, nPending, f, s)
		}
	}
}

// BenchmarkCopyBits copies rows of a kept cell's bits, as a band is put
// together from its cells.
func BenchmarkCopyBits(b *testing.B) {
	src := make([]byte, 4096+8)
	for i := range src {
		src[i] = byte(i * 7)
	}
	var w bitWriter
	b.SetBytes(4096)
	for b.Loop() {
		w.out = w.out[:0]
		w.write(1, 3)
		for r := range 16 {
			w.copyBits(src, r*2048+3, (r+1)*2048+3-5)
		}
	}
}
