package picture

import (
	"container/heap"
	"math/bits"
	"slices"
)

// Codes of a picture's own. The bands and cells encoder writes deflate
// blocks whose kept parts are put together bit for bit, so every block of
// a picture uses codes known before any part is compressed: deflate's
// fixed codes (RFC 1951 §3.2.6), or codes built once from the symbols the
// pictures of a kind are made of (NewCodes), written at the start of each
// block as a dynamic block's header (§3.2.7). A Dixxit square's art is
// mostly literals, which the fixed codes write in 8 or 9 bits each
// whatever their colours; codes fitted to the art write them shorter.

// Deflate's alphabets: literals and lengths (0–255 literals, 256 the end
// of a block, 257–285 lengths), distances (0–29).
const (
	litSymbols  = 286
	distSymbols = 30
	// Symbols is the size of SymbolCounts: the literal/length symbols,
	// then the distance symbols.
	Symbols = litSymbols + distSymbols
)

// SymbolCounts counts the symbols of deflate streams: the literal/length
// symbols (0–285), then the distance symbols (286–315).
type SymbolCounts [Symbols]int64

// huff is a Huffman code, bit-reversed for the bit writer, and its length.
type huff struct {
	code uint16
	n    uint8
}

// Codes are the Huffman codes a block is written with. Made by NewCodes;
// a nil *Codes (Bands.Codes) is deflate's fixed codes.
type Codes struct {
	btype uint64 // the block's type: 1 fixed, 2 dynamic
	lit   [288]huff
	dist  [30]huff
	head  []huff        // a dynamic block's header after its type, in writes
	count *SymbolCounts // when set, the symbols written are counted here
}

// fixedCodes are deflate's fixed codes.
var fixedCodes = func() *Codes {
	c := &Codes{btype: 1}
	for v := range 288 {
		var code uint16
		var n uint8
		switch {
		case v < 144:
			code, n = 0x30+uint16(v), 8
		case v < 256:
			code, n = 0x190+uint16(v-144), 9
		case v < 280:
			code, n = uint16(v-256), 7
		default:
			code, n = 0xc0+uint16(v-280), 8
		}
		c.lit[v] = huff{reverse(code, n), n}
	}
	for d := range c.dist {
		c.dist[d] = huff{reverse(uint16(d), 5), 5}
	}
	return c
}()

func reverse(v uint16, n uint8) uint16 { return bits.Reverse16(v) >> (16 - n) }

// NewCodes returns codes fitted to counts: every symbol gets a code, those
// never counted as if counted once, none longer than deflate's 15 bits.
func NewCodes(counts *SymbolCounts) *Codes {
	c := &Codes{btype: 2}
	litLen := lengths(counts[:litSymbols], 15)
	distLen := lengths(counts[litSymbols:], 15)
	assign(c.lit[:litSymbols], litLen)
	assign(c.dist[:], distLen)

	// The header (§3.2.7): HLIT, HDIST, HCLEN, the code length codes'
	// lengths in their order, then every code's length in that code.
	all := append(slices.Clone(litLen), distLen...)
	var clCounts [19]int64
	for _, l := range all {
		clCounts[l]++
	}
	clLen := lengths(clCounts[:], 7)
	var cl [19]huff
	assign(cl[:], clLen)
	order := [19]int{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}
	hclen := 4
	for i, s := range order {
		if clLen[s] > 0 {
			hclen = max(hclen, i+1)
		}
	}
	c.head = append(c.head, huff{litSymbols - 257, 5}, huff{distSymbols - 1, 5}, huff{uint16(hclen - 4), 4})
	for _, s := range order[:hclen] {
		c.head = append(c.head, huff{uint16(clLen[s]), 3})
	}
	for _, l := range all {
		c.head = append(c.head, cl[l])
	}
	return c
}

// countingFixed returns the fixed codes counting the symbols written with
// them into counts.
func countingFixed(counts *SymbolCounts) *Codes {
	c := *fixedCodes
	c.count = counts
	return &c
}

// lengths are the lengths of a Huffman code for symbols of counts (a
// count of 0 taken as 1), none over limit: counts are halved until the
// code fits.
func lengths(counts []int64, limit int) []uint8 {
	w := make([]int64, len(counts))
	for i, n := range counts {
		w[i] = max(n, 1)
	}
	for {
		l := huffmanLengths(w)
		if int(slices.Max(l)) <= limit {
			return l
		}
		for i := range w {
			w[i] = (w[i] + 1) / 2
		}
	}
}

// huffmanLengths are the depths of the symbols of weights w in a Huffman
// tree (at least two symbols).
func huffmanLengths(w []int64) []uint8 {
	n := len(w)
	parent := make([]int, 2*n-1)
	h := &nodeHeap{}
	for i, x := range w {
		*h = append(*h, node{x, i})
	}
	heap.Init(h)
	next := n
	for h.Len() > 1 {
		a, b := heap.Pop(h).(node), heap.Pop(h).(node)
		parent[a.id], parent[b.id] = next, next
		heap.Push(h, node{a.w + b.w, next})
		next++
	}
	depth := make([]uint8, 2*n-1)
	for id := next - 2; id >= 0; id-- { // the root is next-1, depth 0
		depth[id] = depth[parent[id]] + 1
	}
	return depth[:n]
}

type node struct {
	w  int64
	id int
}

// nodeHeap orders nodes by weight, then by id, so that the code is the
// same in every run.
type nodeHeap []node

func (h nodeHeap) Len() int { return len(h) }
func (h nodeHeap) Less(i, j int) bool {
	return h[i].w < h[j].w || h[i].w == h[j].w && h[i].id < h[j].id
}
func (h nodeHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *nodeHeap) Push(x any)   { *h = append(*h, x.(node)) }
func (h *nodeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// assign gives the symbols of lens their canonical codes (RFC 1951
// §3.2.2), bit-reversed, into codes.
func assign(codes []huff, lens []uint8) {
	var count [16]uint16
	for _, l := range lens {
		count[l]++
	}
	count[0] = 0
	var next [16]uint16
	code := uint16(0)
	for b := 1; b < 16; b++ {
		code = (code + count[b-1]) << 1
		next[b] = code
	}
	for s, l := range lens {
		if l == 0 {
			continue
		}
		codes[s] = huff{reverse(next[l], l), l}
		next[l]++
	}
}

// begin writes a block's first bits: BFINAL when final, its type and, for
// a dynamic block, its header.
func (b *bitWriter) begin(final bool) {
	v := b.c.btype << 1
	if final {
		v |= 1
	}
	b.write(v, 3)
	for _, h := range b.c.head {
		b.write(uint64(h.code), uint(h.n))
	}
}

// CountBands adds to counts the symbols of p's bands compressed with the
// fixed codes, each as EncodeBands compresses it (a band of cells cell by
// cell), none taken from the parts kept nor kept: the counts NewCodes
// fits codes to for pictures like p.
func CountBands(p Bands, counts *SymbolCounts) error {
	if p.W <= 0 || len(p.Palette) == 0 || len(p.Palette) > 256 {
		return ErrBadInput
	}
	p.Codes = countingFixed(counts)
	y := 0
	for _, b := range p.List {
		if b.H <= 0 {
			return ErrBadInput
		}
		b.Key = Key{}
		b.Cells = slices.Clone(b.Cells)
		for j := range b.Cells {
			b.Cells[j].Key = Key{}
		}
		pack := packBand
		if len(b.Cells) > 0 {
			pack = packCells
		}
		if _, err := pack(p, b, y); err != nil {
			return err
		}
		y += b.H
	}
	return nil
}
