package picture

import (
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"sync"
)

// A picture drawn by bands: a board is a stack of parts (DIX's market and
// tableau, then its players two by two; a Qwixx sheet; a row of Dixxit's
// grid), and a click changes one or two of them. EncodeBands draws and
// compresses each band on its own and keeps the result under the band's
// key, what it shows: the next picture with that band copies its
// compressed bytes instead of drawing and encoding it again.
//
// The PNG's image data is one zlib stream (https://www.w3.org/TR/png-3/#10CompressionOtherIHDR).
// Each band is a deflate block, in the picture's codes (deflate's fixed
// codes, or codes of its own written in each block's header: codes.go),
// whose copies reach only into the band itself, closed by an empty stored
// block, which ends it on a byte boundary (RFC 1951 §3.2.4, the "sync
// flush" of zlib):
// blocks so made can follow one another in any order, and the stream ends
// with an empty final block. The Adler-32 of the whole is worked out from
// each band's sums (RFC 1950 §8.2; see adlerRows).

// Band is one horizontal strip of a picture, the full width.
type Band struct {
	H int // its height in pixels
	// Key names what the band shows, its size and place aside: two bands
	// of the same key and size are drawn alike wherever they stand. It
	// must cover everything Draw draws and may be worked out only from the
	// picture's input (a public view; never a secret it does not show).
	// The zero Key is never kept.
	Key Key
	// Draw draws the band on c, in the picture's coordinates: c covers
	// rows Y to Y+H of the picture (c.Img.Rect), already filled with the
	// picture's background; what falls outside them is left out. It is
	// called only when the band is not kept. An error is EncodeBands'.
	Draw func(c *Canvas) error
	// Cells, when set, are the band's columns, left to right, their
	// widths summing to the picture's: each is compressed and kept on its
	// own under its key, so that a band of which one column changed
	// (a Dixxit square, a DIX player) compresses that column alone. Draw
	// then draws the whole band when a cell is not kept.
	Cells []Cell
}

// Cell is a column of a band: W pixels wide, showing what Key names, as
// a Band's Key does for the columns of the band's rows alone.
type Cell struct {
	W   int
	Key Key
}

// Bands are a picture's bands, top to bottom, over one palette.
type Bands struct {
	W       int
	Palette color.Palette // at most 256 colours
	BG      uint8         // the background's palette index
	List    []Band
	// Codes are the Huffman codes of every band's block: nil for
	// deflate's fixed codes, or codes fitted to pictures of the kind
	// (NewCodes), kept for the process's life.
	Codes *Codes
}

// codes are p's codes.
func (p Bands) codes() *Codes {
	if p.Codes == nil {
		return fixedCodes
	}
	return p.Codes
}

// bandCache keeps the compressed bands of recent pictures: about
// BandCacheBytes of deflate data, the older half dropped past it.
var bandCache = newKeep[bandID](BandCacheBytes, func(p *packedBand) int { return len(p.z) })

// BandCacheBytes is the size of the compressed bands kept. A band is a few
// KiB (a DIX row of two players about 7 KiB, a Qwixx sheet about 6 KiB, a
// row of Dixxit's pictures about 22 KiB), and a game's bands are asked
// for again at its next click, a few seconds later: a thousand DIX games
// keep about 21 MiB of bands, three hundred Dixxit games about 20 MiB.
// The older half of the budget keeps those of the games between clicks.
const BandCacheBytes = 48 << 20

// keep is a bounded map of compressed parts (bands, cells) by what they
// show and their size, of about maxBytes (size) in two halves: the
// current one, and the older one dropped when the current one is full.
// Safe for concurrent use.
type keep[K comparable, V any] struct {
	mu       sync.Mutex
	maxBytes int
	size     func(V) int
	cur, old map[K]V
	curBytes int
	hits     int64
	misses   int64
}

func newKeep[K comparable, V any](maxBytes int, size func(V) int) *keep[K, V] {
	return &keep[K, V]{maxBytes: maxBytes, size: size, cur: map[K]V{}}
}

// get is the part kept under id (the zero V: none).
func (k *keep[K, V]) get(id K) V {
	k.mu.Lock()
	defer k.mu.Unlock()
	v, ok := k.cur[id]
	if !ok {
		if v, ok = k.old[id]; ok {
			k.keepLocked(id, v)
		}
	}
	if ok {
		k.hits++
	} else {
		k.misses++
	}
	return v
}

func (k *keep[K, V]) put(id K, v V) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.keepLocked(id, v)
}

// keepLocked adds v to the current half, which becomes the older one when
// it holds half the budget.
func (k *keep[K, V]) keepLocked(id K, v V) {
	if _, ok := k.cur[id]; ok {
		return
	}
	n := k.size(v)
	if k.curBytes+n > k.maxBytes/2 {
		k.old, k.cur, k.curBytes = k.cur, map[K]V{}, 0
	}
	k.cur[id] = v
	k.curBytes += n
}

// drop forgets every part kept.
func (k *keep[K, V]) drop() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.cur, k.old, k.curBytes = map[K]V{}, nil, 0
}

// bandID is a band's key with its size and palette's length: a key names
// what a band shows, not how wide or tall a caller made it.
type bandID struct {
	key     Key
	w, h    int
	palette int
	codes   *Codes
}

// packedBand is a band compressed: its deflate blocks (byte-aligned, not
// final), and the length and Adler sums (s1, s2 of adlerRows) of its
// filtered rows.
type packedBand struct {
	z      []byte
	n      int
	s1, s2 uint32
}

// BandCounts are the bands found kept and the ones drawn so far, in this
// process.
func BandCounts() (hits, misses int64) {
	bandCache.mu.Lock()
	defer bandCache.mu.Unlock()
	return bandCache.hits, bandCache.misses
}

// DropBands empties the kept bands and cells, as a process starts: for the
// benchmarks of a picture drawn whole.
func DropBands() {
	bandCache.drop()
	cellCache.drop()
}

// EncodeBands returns the PNG of the picture p: the bands kept are copied,
// the others drawn, compressed and kept. It returns ErrBadInput for a
// picture of no pixels, a band of no rows or a palette of more than 256
// colours, and the first error of a band's Draw. Safe for concurrent use;
// the bands' Draw functions run on the caller's goroutine.
func EncodeBands(p Bands) ([]byte, error) {
	h := 0
	for _, b := range p.List {
		if b.H <= 0 {
			return nil, ErrBadInput
		}
		h += b.H
	}
	if p.W <= 0 || h == 0 || len(p.Palette) == 0 || len(p.Palette) > 256 {
		return nil, ErrBadInput
	}
	packed := make([]*packedBand, len(p.List))
	size := 0
	y := 0
	for i, b := range p.List {
		id := bandID{b.Key, p.W, b.H, len(p.Palette), p.codes()}
		var pb *packedBand
		if b.Key != (Key{}) {
			pb = bandCache.get(id)
		}
		if pb == nil {
			var err error
			pack := packBand
			if len(b.Cells) > 0 {
				pack = packCells
			}
			if pb, err = pack(p, b, y); err != nil {
				return nil, err
			}
			if b.Key != (Key{}) {
				bandCache.put(id, pb)
			}
		}
		packed[i] = pb
		size += len(pb.z)
		y += b.H
	}

	out := make([]byte, 0, size+1024)
	out = pngHeader(out, p.W, h, p.Palette)
	start := len(out)
	out = append(out, 0, 0, 0, 0, 'I', 'D', 'A', 'T')
	out = append(out, 0x78, 0x01) // zlib: deflate, 32 KiB window, fastest
	const mod = 65521
	a, s := uint64(1), uint64(0)
	for _, pb := range packed {
		out = append(out, pb.z...)
		s = (s + uint64(pb.n)%mod*a + uint64(pb.s2)) % mod
		a = (a + uint64(pb.s1)) % mod
	}
	// The last block: final, fixed codes, its end-of-block code alone.
	out = append(out, 0x03, 0x00)
	out = binary.BigEndian.AppendUint32(out, uint32(s<<16|a))
	binary.BigEndian.PutUint32(out[start:], uint32(len(out)-start-8))
	out = binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[start+4:]))
	return chunk(out, "IEND", nil), nil
}

// drawRaw draws band b, whose top row is y, and returns its rows as the
// PNG's image data has them (each a filter byte, then its pixels), to give
// back with done once read. kept are the columns of cells not used
// (Canvas.Needs).
func drawRaw(p Bands, b Band, y int, kept [][2]int) (raw []byte, done func(), err error) {
	w := p.W
	n := w * b.H
	var pix []uint8
	if pp, ok := pixPool.Get().(*[]uint8); ok && cap(*pp) >= n {
		pix = (*pp)[:n]
	} else {
		pix = make([]uint8, n, max(n, 600*300))
	}
	defer pixPool.Put(&pix)
	img := &image.Paletted{Pix: pix, Stride: w, Rect: image.Rect(0, y, w, y+b.H), Palette: p.Palette}
	c := &Canvas{Img: img, kept: kept}
	c.FillIndex(img.Rect, p.BG)
	if b.Draw != nil {
		if err := b.Draw(c); err != nil {
			return nil, nil, err
		}
	}

	stride := w + 1
	rn := stride * b.H
	if rp, ok := rawPool.Get().(*[]byte); ok && cap(*rp) >= rn {
		raw = (*rp)[:rn]
	} else {
		raw = make([]byte, rn)
	}
	for r := range b.H {
		row := raw[r*stride : (r+1)*stride]
		row[0] = 0 // filter type None
		copy(row[1:], pix[r*w:(r+1)*w])
	}
	return raw, func() { rawPool.Put(&raw) }, nil
}

// packBand draws band b, whose top row is y, and compresses it.
func packBand(p Bands, b Band, y int) (*packedBand, error) {
	raw, done, err := drawRaw(p, b, y, nil)
	if err != nil {
		return nil, err
	}
	defer done()
	stride := p.W + 1
	rn := len(raw)

	var scratch []byte
	if sp, ok := zPool.Get().(*[]byte); ok {
		scratch = (*sp)[:0]
	}
	bw := bitWriter{out: scratch, c: p.codes()}
	bw.begin(false)
	bw.fixedBlock(raw, stride)
	bw.literal255()
	bw.write(0, 3) // not final, BTYPE 00: stored, empty
	z := bw.flush()
	z = append(z, 0, 0, 0xff, 0xff)
	s1, s2 := bandSums(raw, stride)
	kept := append(make([]byte, 0, len(z)), z...) // kept: without the scratch's room
	zPool.Put(&z)
	return &packedBand{z: kept, n: rn, s1: s1, s2: s2}, nil
}

// zPool keeps the buffers packBand compresses into.
var zPool sync.Pool

// bandSums are the Adler sums s1 and s2 (see adlerRows) of data, rows of
// stride bytes, modulo 65521.
func bandSums(data []byte, stride int) (uint32, uint32) {
	const mod = 65521
	var a, b, r1, r2 uint64
	for at := 0; at < len(data); at += stride {
		row := data[at:min(at+stride, len(data))]
		if at == 0 || len(row) != stride || !equalRows(row, data[at-stride:at]) {
			r1, r2 = rowSums(row)
		}
		// A block Y of L bytes after X: s1 = s1(X)+s1(Y), s2 = s2(X)+L·s1(X)+s2(Y).
		b = (b + uint64(len(row))%mod*a + r2) % mod
		a = (a + r1) % mod
	}
	return uint32(a), uint32(b)
}

func equalRows(a, b []byte) bool { return same(a, b) == len(a) }

// pngHeader appends the PNG signature and the IHDR, PLTE and tRNS chunks
// of an 8-bit paletted picture of w×h pixels over pal.
func pngHeader(out []byte, w, h int, pal color.Palette) []byte {
	out = append(out, 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n')
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 3 // bit depth 8, colour type 3 (indexed)
	out = chunk(out, "IHDR", ihdr[:])
	rgb, alpha := paletteChunks(pal)
	out = chunk(out, "PLTE", rgb)
	if len(alpha) > 0 {
		out = chunk(out, "tRNS", alpha)
	}
	return out
}

// paletteChunks are the data of the PLTE and tRNS chunks of pal (tRNS
// empty when every entry is opaque).
func paletteChunks(pal color.Palette) (rgb, alpha []byte) {
	rgb = make([]byte, 0, 3*len(pal))
	as := make([]byte, 0, len(pal))
	last := -1 // the last entry that is not opaque
	for i, c := range pal {
		// As image/png: the colour without its alpha premultiplied.
		var nc color.NRGBA
		if o, ok := c.(color.RGBA); ok && o.A == 0xff {
			nc = color.NRGBA(o)
		} else {
			nc = color.NRGBAModel.Convert(c).(color.NRGBA)
		}
		if nc.A != 0xff {
			last = i
		}
		rgb = append(rgb, nc.R, nc.G, nc.B)
		as = append(as, nc.A)
	}
	return rgb, as[:last+1]
}
