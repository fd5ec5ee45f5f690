package picture

// A band by its columns (Band.Cells). Each cell's rows are compressed on
// their own, as the cell's column of the band's image data: a row's
// symbols copy only from that row and the cell's rows above it, at the
// distances they have in the whole stream (a row above is the picture's
// stride away, whatever stands beside it), and none reaches past the row's
// end (fixedRows). With codes known before any part is compressed (the
// fixed codes, or the picture's own: Bands.Codes), the bits of a row so
// compressed are the same wherever the cell stands, so a band is its
// cells' bits put together row by row: the first cell's row (with the
// row's filter byte), then the second's, and so on. The Adler sums are
// the cells' rows' sums put together the same way.

// cellID is a cell's key with what its bits depend on: its width, its
// height, the stride of the picture's rows, whether it holds the rows'
// filter bytes (the first cell), the palette's length.
type cellID struct {
	key     Key
	w, h    int
	stride  int
	first   bool
	palette int
	codes   *Codes
}

// packedCell is a cell compressed: the bits of its rows one after the
// other (row r from bit rows[r] to rows[r+1]; 8 bytes of room after the
// last), each row's length and Adler sums (rowSums).
type packedCell struct {
	z      []byte
	rows   []int
	n      int
	s1, s2 []uint32
}

// cellCache keeps the compressed cells of recent pictures, as bandCache
// does bands.
var cellCache = newKeep[cellID](CellCacheBytes, func(pc *packedCell) int { return len(pc.z) + 16*len(pc.rows) })

// CellCacheBytes is the size of the compressed cells kept: a Dixxit
// square about 8 KiB.
const CellCacheBytes = 32 << 20

// packCells compresses band b, whose top row is y, by its cells: those
// kept are copied, the others drawn (the whole band, once) and kept.
func packCells(p Bands, b Band, y int) (*packedBand, error) {
	stride := p.W + 1
	w := 0
	for _, c := range b.Cells {
		if c.W <= 0 {
			return nil, ErrBadInput
		}
		w += c.W
	}
	if w != p.W {
		return nil, ErrBadInput
	}
	cells := make([]*packedCell, len(b.Cells))
	ids := make([]cellID, len(b.Cells))
	drawn := false
	for j, c := range b.Cells {
		ids[j] = cellID{c.Key, c.W, b.H, stride, j == 0, len(p.Palette), p.codes()}
		if c.Key != (Key{}) {
			cells[j] = cellCache.get(ids[j])
		}
		drawn = drawn || cells[j] == nil
	}
	if drawn {
		var kept [][2]int
		left := 0
		for j, c := range b.Cells {
			if cells[j] != nil {
				kept = append(kept, [2]int{left, left + c.W})
			}
			left += c.W
		}
		raw, done, err := drawRaw(p, b, y, kept)
		if err != nil {
			return nil, err
		}
		x := 0 // the cell's first byte in each row of raw
		for j, c := range b.Cells {
			n := c.W
			if j == 0 {
				n++ // the filter byte
			}
			if cells[j] == nil {
				cells[j] = packCell(raw, stride, x, n, b.H, p.codes())
				if c.Key != (Key{}) {
					cellCache.put(ids[j], cells[j])
				}
			}
			x += n
		}
		done()
	}

	const mod = 65521
	var s1, s2 uint64
	bw := bitWriter{out: make([]byte, 0, 1024), c: p.codes()}
	bw.begin(false)
	for r := range b.H {
		for _, c := range cells {
			bw.copyBits(c.z, c.rows[r], c.rows[r+1])
			s2 = (s2 + uint64(c.n)%mod*s1 + uint64(c.s2[r])) % mod
			s1 = (s1 + uint64(c.s1[r])) % mod
		}
	}
	bw.literal255()
	bw.write(0, 3) // not final, BTYPE 00: stored, empty
	z := append(bw.flush(), 0, 0, 0xff, 0xff)
	return &packedBand{z: z, n: stride * b.H, s1: uint32(s1), s2: uint32(s2)}, nil
}

// packCell compresses the column of raw (h rows of stride bytes) that
// starts at byte x of each row and is n bytes wide.
func packCell(raw []byte, stride, x, n, h int, codes *Codes) *packedCell {
	var col []byte
	if cp, ok := rawPool.Get().(*[]byte); ok && cap(*cp) >= n*h {
		col = (*cp)[:n*h]
	} else {
		col = make([]byte, n*h)
	}
	defer rawPool.Put(&col)
	pc := &packedCell{rows: make([]int, h+1), n: n, s1: make([]uint32, h), s2: make([]uint32, h)}
	for r := range h {
		row := col[r*n : (r+1)*n]
		copy(row, raw[r*stride+x:])
		if r > 0 && equalRows(row, col[(r-1)*n:r*n]) {
			pc.s1[r], pc.s2[r] = pc.s1[r-1], pc.s2[r-1]
			continue
		}
		a, b := rowSums(row)
		pc.s1[r], pc.s2[r] = uint32(a), uint32(b)
	}
	var scratch []byte
	if sp, ok := zPool.Get().(*[]byte); ok {
		scratch = (*sp)[:0]
	}
	bw := bitWriter{out: scratch, c: codes}
	bw.fixedRows(col, n, stride, pc.rows)
	z := bw.flush()
	pc.z = append(append(make([]byte, 0, len(z)+8), z...), make([]byte, 8)...)
	zPool.Put(&z)
	return pc
}
