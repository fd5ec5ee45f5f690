package picture

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/png"
	"math/bits"
	"sync"
)

// Encode returns img as PNG bytes and gives its buffer back for the next
// NewCanvas: img must not be used afterwards.
//
// A picture here is flat areas, runs of one colour and rows repeated from
// the row above, drawn over a fixed palette: encodePaletted writes it as an
// 8-bit paletted PNG without row filters whose deflate stream is made of
// those two repetitions alone (a copy of the row above, a run of the last
// byte) and literals, coded with deflate's fixed Huffman codes. It does a
// few comparisons per byte where a general deflate hashes every position,
// and the file decodes to the same pixels as image/png's.
func Encode(img *image.Paletted) ([]byte, error) {
	defer pixPool.Put(&img.Pix)
	return EncodePaletted(img)
}

// EncodePaletted is Encode without giving the buffer back: img stays
// usable.
func EncodePaletted(img *image.Paletted) ([]byte, error) {
	if len(img.Palette) <= 16 || len(img.Palette) > 256 || img.Rect.Empty() {
		// Fewer bits per pixel (or nothing to draw): image/png.
		return encodeStd(img)
	}
	return encodePaletted(img), nil
}

// stdEncoder writes the pictures encodePaletted does not: the fastest
// deflate level, buffers reused across calls.
var stdEncoder = png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &bufferPool{}}

type bufferPool struct{ p sync.Pool }

func (b *bufferPool) Get() *png.EncoderBuffer {
	v, _ := b.p.Get().(*png.EncoderBuffer)
	return v
}

func (b *bufferPool) Put(x *png.EncoderBuffer) { b.p.Put(x) }

func encodeStd(img *image.Paletted) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(48 << 10)
	if err := stdEncoder.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// rawPool keeps the filtered scanlines (a 0 filter byte before each row)
// between encodes.
var rawPool sync.Pool

// The PNG format: https://www.w3.org/TR/png-3/ (chunks, IHDR, PLTE, tRNS,
// IDAT as a zlib stream of the filtered scanlines); deflate and its fixed
// Huffman codes: RFC 1951 §3.2.5–3.2.6; zlib's header and Adler-32: RFC 1950.

func encodePaletted(img *image.Paletted) []byte {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	stride := w + 1
	n := stride * h
	var raw []byte
	if p, ok := rawPool.Get().(*[]byte); ok && cap(*p) >= n {
		raw = (*p)[:n]
	} else {
		raw = make([]byte, n)
	}
	defer rawPool.Put(&raw)
	for y := range h {
		row := raw[y*stride : (y+1)*stride]
		row[0] = 0 // filter type None
		off := img.PixOffset(img.Rect.Min.X, img.Rect.Min.Y+y)
		copy(row[1:], img.Pix[off:off+w])
	}

	out := make([]byte, 0, 8<<10+n/16)
	out = pngHeader(out, w, h, img.Palette)

	// IDAT: its length is written once the stream is done.
	start := len(out)
	out = append(out, 0, 0, 0, 0, 'I', 'D', 'A', 'T')
	out = append(out, 0x78, 0x01) // zlib: deflate, 32 KiB window, fastest
	out = deflateRaw(out, raw, stride)
	out = binary.BigEndian.AppendUint32(out, adlerRows(raw, stride))
	binary.BigEndian.PutUint32(out[start:], uint32(len(out)-start-8))
	out = binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[start+4:]))
	out = chunk(out, "IEND", nil)
	// The file is kept (an upload's retries): without the room
	// the buffer was given for the worst case.
	return bytes.Clone(out)
}

// chunk appends a PNG chunk: length, type, data, CRC of type and data.
func chunk(out []byte, typ string, data []byte) []byte {
	out = binary.BigEndian.AppendUint32(out, uint32(len(data)))
	at := len(out)
	out = append(out, typ...)
	out = append(out, data...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[at:]))
}

// bitWriter writes deflate's bit stream: least significant bit first,
// its symbols in the codes c.
type bitWriter struct {
	out  []byte
	bits uint64
	n    uint
	c    *Codes
}

func (b *bitWriter) write(v uint64, n uint) {
	b.bits |= v << b.n
	b.n += n
	if b.n >= 32 {
		b.out = binary.LittleEndian.AppendUint32(b.out, uint32(b.bits))
		b.bits >>= 32
		b.n -= 32
	}
}

func (b *bitWriter) flush() []byte {
	for b.n > 0 {
		b.out = append(b.out, byte(b.bits))
		b.bits >>= 8
		b.n -= min(b.n, 8)
	}
	return b.out
}

// Lengths 3..258 and distances 1..32768 by code (RFC 1951 §3.2.5): the
// base of each code and its extra bits.
var (
	lengthBase  = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	lengthExtra = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	distBase    = [30]uint16{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
	distExtra   = [30]uint8{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
	// lengthCode is the code (0..28, for symbol 257+code) of each length
	// 3..258, indexed by length-3.
	lengthCode [256]uint8
)

func init() {
	for c := range lengthBase {
		lo := int(lengthBase[c])
		hi := lo + 1<<lengthExtra[c]
		for l := lo; l < hi && l <= 258; l++ {
			lengthCode[l-3] = uint8(c)
		}
	}
}

// distCode is the distance code of d (1..32768).
func distCode(d int) int {
	if d <= 4 {
		return d - 1
	}
	// Two codes per power of two above 4: the top bit's position and the
	// bit below it.
	l := bits.Len(uint(d-1)) - 1
	return 2*l + int((d-1)>>(l-1)&1)
}

func (b *bitWriter) literal(v byte) {
	if b.c.count != nil {
		b.c.count[v]++
	}
	c := b.c.lit[v]
	b.write(uint64(c.code), uint(c.n))
}

// match writes a copy of length 3..258 from dist bytes back.
func (b *bitWriter) match(length, dist int) {
	lc := lengthCode[length-3]
	dc := distCode(dist)
	if b.c.count != nil {
		b.c.count[257+int(lc)]++
		b.c.count[litSymbols+dc]++
	}
	c := b.c.lit[257+int(lc)]
	v, n := uint64(c.code), uint(c.n)
	if e := lengthExtra[lc]; e > 0 {
		v |= uint64(length-int(lengthBase[lc])) << n
		n += uint(e)
	}
	d := b.c.dist[dc]
	w, m := uint64(d.code), uint(d.n)
	if e := distExtra[dc]; e > 0 {
		w |= uint64(dist-int(distBase[dc])) << m
		m += uint(e)
	}
	if n+m <= 32 { // always with the fixed codes: 7+5+5+13 bits
		b.write(v|w<<n, n+m)
		return
	}
	b.write(v, n) // at most 15+5 bits
	b.write(w, m) // at most 15+13 bits
}

// copies writes a copy of n ≥ 3 bytes from dist back as matches of at
// most 258 bytes, none shorter than 3.
func (b *bitWriter) copies(n, dist int) {
	for n > 0 {
		l := min(n, 258)
		if r := n - l; r > 0 && r < 3 {
			l = n - 3
		}
		b.match(l, dist)
		n -= l
	}
}

// maxDist is deflate's window: the farthest a copy reaches back.
const maxDist = 32768

// deflateRaw appends the deflate stream of data, one block with the fixed
// codes, whose rows are stride bytes long: each position is a copy of the
// row above, a run of the byte before, or a literal.
func deflateRaw(out, data []byte, stride int) []byte {
	b := bitWriter{out: out, c: fixedCodes}
	b.begin(true)
	b.fixedBlock(data, stride)
	b.literal255() // end of block
	return b.flush()
}

// fixedBlock writes the symbols of data, rows of stride bytes, in the
// writer's codes, in a block whose header is written: each position is a copy
// of the row above, a run of the byte before, a copy of the last place
// the same 4 bytes were seen, or a literal. It refers to nothing before
// data.
func (b *bitWriter) fixedBlock(data []byte, stride int) {
	b.fixedRows(data, stride, stride, nil)
}

// fixedRows is fixedBlock for data made of rows of rowLen bytes that stand
// stride bytes apart in the stream (a column of a picture, the rest of each
// row another's: rowLen ≤ stride); with rowEnds set, no copy reaches past
// the end of its row or reads past the end of its source's row, and
// rowEnds[r] gets the bits written before row r (and after the last, at
// len(data)/rowLen): each row's symbols stand alone, for a stream that
// puts other bytes between the rows.
func (b *bitWriter) fixedRows(data []byte, rowLen, stride int, rowEnds []int) {
	up := stride <= maxDist
	// table holds the position+1 of the last 4 bytes seen with each hash:
	// 64 KiB, taken from a pool rather than the goroutine's stack.
	tp, _ := tablePool.Get().(*[1 << hashBits]int32)
	if tp == nil {
		tp = new([1 << hashBits]int32)
	} else {
		clear(tp[:])
	}
	defer tablePool.Put(tp)
	table := tp
	apart := stride - rowLen   // the stream's bytes between two rows
	start, end := 0, len(data) // where runs start and copies stop
	r := 0                     // the row of i, with rowEnds
	if rowEnds != nil {
		end = min(rowLen, len(data))
		rowEnds[0] = b.bitLen()
	}
	for i := 0; i < len(data); {
		if i == end {
			r++
			start, end = end, min(end+rowLen, len(data))
			rowEnds[r] = b.bitLen()
		}
		// A byte unlike the one above (before) starts no copy of it: the
		// common case of a literal is decided without a call.
		var u, n int
		if up && i >= rowLen && data[i] == data[i-rowLen] {
			u = same(data[i:end], data[i-rowLen:])
		}
		if i > start && u < 258 && data[i] == data[i-1] {
			n = run(data[i:end], data[i-1])
		}
		switch {
		case u >= 3 && u >= n:
			b.copies(u, stride)
			i += u
			continue
		case n >= 3:
			b.copies(n, 1)
			i += n
			continue
		}
		// Neither: the bytes seen last with the same hash, often the
		// same glyph or card drawn elsewhere.
		if i+4 <= end {
			h := hash4(data[i:])
			c := int(table[h]) - 1
			table[h] = int32(i + 1)
			if c >= 0 {
				cEnd := end // the end of c's row, where its copy stops
				if rowEnds != nil {
					cEnd = (c/rowLen + 1) * rowLen
				}
				dist := i - c + (i/rowLen-c/rowLen)*apart
				if dist <= maxDist && cEnd-c >= 4 && binary.LittleEndian.Uint32(data[c:]) == binary.LittleEndian.Uint32(data[i:]) {
					if m := same(data[i:end], data[c:min(i, cEnd)]); m >= 4 {
						b.copies(m, dist)
						i += m
						continue
					}
				}
			}
		}
		b.literal(data[i])
		i++
	}
	if rowEnds != nil {
		rowEnds[r+1] = b.bitLen()
	}
}

// bitLen is the number of bits written.
func (b *bitWriter) bitLen() int { return 8*len(b.out) + int(b.n) }

// copyBits writes the bits of src from bit from to bit to (src holds 8
// bytes past its last bit's byte): 56 bits at a time once the bits
// pending are fewer than a byte, then the rest 32 at a time.
func (b *bitWriter) copyBits(src []byte, from, to int) {
	if to-from >= 64 {
		for b.n >= 8 {
			b.out = append(b.out, byte(b.bits))
			b.bits >>= 8
			b.n -= 8
		}
		for to-from >= 56 {
			v := binary.LittleEndian.Uint64(src[from>>3:]) >> (from & 7) & (1<<56 - 1)
			w := b.bits | v<<b.n // b.n < 8: 56 + b.n bits
			b.out = binary.LittleEndian.AppendUint64(b.out, w)
			b.out = b.out[:len(b.out)-1] // 7 bytes written, b.n bits pending
			b.bits = w >> 56
			from += 56
		}
	}
	for from < to {
		n := min(to-from, 32)
		v := binary.LittleEndian.Uint64(src[from>>3:]) >> (from & 7)
		b.write(v&(1<<n-1), uint(n))
		from += n
	}
}

const hashBits = 14

// tablePool keeps deflateRaw's hash tables between encodes.
var tablePool sync.Pool

// hash4 hashes the 4 bytes at the start of p.
func hash4(p []byte) uint32 {
	return binary.LittleEndian.Uint32(p) * 0x1e35a7bd >> (32 - hashBits)
}

// literal255 writes the end-of-block code (256).
func (b *bitWriter) literal255() {
	if b.c.count != nil {
		b.c.count[256]++
	}
	c := b.c.lit[256]
	b.write(uint64(c.code), uint(c.n))
}

// same is the length of the common prefix of a and b (b at least as long
// as a where it matters).
func same(a, b []byte) int {
	n := 0
	for len(a) >= 8 && len(b) >= 8 {
		x := binary.LittleEndian.Uint64(a) ^ binary.LittleEndian.Uint64(b)
		if x != 0 {
			return n + bits.TrailingZeros64(x)/8
		}
		a, b, n = a[8:], b[8:], n+8
	}
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return n + i
		}
	}
	return n + min(len(a), len(b))
}

// run is the number of bytes at the start of a equal to c.
func run(a []byte, c byte) int {
	w := uint64(c) * 0x0101010101010101
	n := 0
	for len(a) >= 8 {
		x := binary.LittleEndian.Uint64(a) ^ w
		if x != 0 {
			return n + bits.TrailingZeros64(x)/8
		}
		a, n = a[8:], n+8
	}
	for _, v := range a {
		if v != c {
			break
		}
		n++
	}
	return n
}

// adlerRows is the Adler-32 of data (RFC 1950 §8.2), rows of stride bytes:
// a row equal to the one above adds what that row added, which needs no
// pass over its bytes. For a block of L bytes x₀…x_{L-1}, with
// s1 = Σxᵢ and s2 = Σ(L-i)·xᵢ, the sums A and B become A+s1 and B+L·A+s2.
func adlerRows(data []byte, stride int) uint32 {
	const mod = 65521
	a, b := uint64(1), uint64(0)
	var s1, s2 uint64
	for at := 0; at < len(data); at += stride {
		row := data[at:min(at+stride, len(data))]
		if at == 0 || len(row) != stride || !bytes.Equal(row, data[at-stride:at]) {
			s1, s2 = rowSums(row)
		}
		b = (b + uint64(len(row))%mod*a + s2) % mod
		a = (a + s1) % mod
	}
	return uint32(b<<16 | a)
}

// rowSums are s1 and s2 of row (see adlerRows), modulo 65521, summed by
// chunks short enough that s2 cannot overflow: appending a chunk Y of n
// bytes to what came before gives s1+s1(Y) and s2+n·s1+s2(Y).
func rowSums(row []byte) (s1, s2 uint64) {
	const mod = 65521
	for len(row) > 0 {
		n := min(len(row), 1<<16)
		a, b := sums(row[:n])
		s2 = (s2 + uint64(n)%mod*s1 + b) % mod
		s1 = (s1 + a) % mod
		row = row[n:]
	}
	return s1, s2
}

// sums are s1 and s2 of p, modulo 65521 (p at most 65536 bytes, so that
// they do not overflow before).
//
// Eight bytes x₀…x₇ at a time, in 16-bit lanes of a word: they add
// Σxⱼ to s1 and 8·s1+Σ(8-j)·xⱼ to s2. The even bytes and the odd ones go
// to two words of four lanes; a product by a word of four weights sums
// the lanes, each weighted, into its top lane (at most 255·20, no lane
// carries into the next).
func sums(p []byte) (a, b uint64) {
	const (
		lanes = 0x00ff00ff00ff00ff
		ones  = 0x0001000100010001
		evenW = 2 | 4<<16 | 6<<32 | 8<<48 // x₆, x₄, x₂, x₀
		oddW  = 1 | 3<<16 | 5<<32 | 7<<48 // x₇, x₅, x₃, x₁
	)
	for len(p) >= 8 {
		v := binary.LittleEndian.Uint64(p)
		e, o := v&lanes, v>>8&lanes
		b += 8*a + (e*evenW)>>48 + (o*oddW)>>48
		a += ((e + o) * ones) >> 48
		p = p[8:]
	}
	for _, x := range p {
		a += uint64(x)
		b += a
	}
	return a % 65521, b % 65521
}
