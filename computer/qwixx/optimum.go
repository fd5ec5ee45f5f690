package qwixx

import (
	"bufio"
	"bytes"
	"compress/flate"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"sync"
)

// Optimum holds the exact value of every solitaire sheet (one sheet whose
// player is active every roll, the game ending on the fourth penalty or the
// second lock: §6): the points still to be scored from it under perfect
// play, computed by dynamic programming over every sheet. Red and yellow
// play alike, so do green and blue, and the two pairs mirror each other
// (every die d read as 7−d turns a red sum n into 14−n, the same position
// of a green row), so a sheet is stored once for its 8 symmetric forms:
// 4 × 1,367,031 values (22 MB in memory).
//
// An Optimum is read-only once built and safe for concurrent use.
type Optimum struct {
	v []float32
}

const (
	pairKeys = rowCodes * (rowCodes + 1) / 2 // 1,653 unordered pairs of rows
	quadKeys = pairKeys * (pairKeys + 1) / 2 // 1,367,031 unordered pairs of pairs
)

func tri(a, b int) int {
	if a > b {
		a, b = b, a
	}
	return b*(b+1)/2 + a
}

// key returns the index of s (Penalties 0–3) under its symmetries.
func key(s Position) int {
	return s.Penalties*quadKeys + tri(tri(int(s.Rows[0]), int(s.Rows[1])), tri(int(s.Rows[2]), int(s.Rows[3])))
}

// sheetsBySum returns the rows of every sheet once for its symmetric
// forms, by the sum of their row codes. Every mark raises the code of its
// row, so a sheet's successors come in later lists.
func sheetsBySum() [][][4]uint8 {
	var pairs [][2]uint8
	for b := range rowCodes {
		for a := 0; a <= b; a++ {
			pairs = append(pairs, [2]uint8{uint8(a), uint8(b)})
		}
	}
	bySum := make([][][4]uint8, 4*rowCodes)
	for q := range pairKeys {
		for p := 0; p <= q; p++ {
			r := [4]uint8{pairs[p][0], pairs[p][1], pairs[q][0], pairs[q][1]}
			sum := int(r[0]) + int(r[1]) + int(r[2]) + int(r[3])
			bySum[sum] = append(bySum[sum], r)
		}
	}
	return bySum
}

// SolveOptimum computes the exact solitaire values. It takes about a
// minute of one core and 22 MB.
func SolveOptimum() *Optimum {
	o := &Optimum{v: make([]float32, 4*quadKeys)}
	bySum := sheetsBySum()
	future := func(s Position) float64 {
		if s.closed() >= 2 {
			return 0
		}
		return float64(o.v[key(s)])
	}
	// A sheet's successors have a larger sum of row codes or more
	// penalties: solve sheets by penalties, then code sum, from the top
	// down.
	for pen := 3; pen >= 0; pen-- {
		for sum := len(bySum) - 1; sum >= 0; sum-- {
			for _, r := range bySum[sum] {
				s := Position{Rows: r, Penalties: pen}
				if s.closed() >= 2 {
					continue
				}
				o.v[key(s)] = float32(turnValue(s, future))
			}
		}
	}
	return o
}

// Value returns the points still to be scored from s under perfect
// solitaire play: 0 once the game is over.
func (o *Optimum) Value(s Position) float64 {
	if s.Penalties >= 4 || s.closed() >= 2 {
		return 0
	}
	return float64(o.v[key(s)])
}

// The encoded form of an Optimum (Encode, DecodeOptimum): the magic
// "QXO1", then a DEFLATE stream of every sheet still playing (fewer than
// two rows closed) in the order penalties 0–3, then sheetsBySum's, each
// value rounded to 1/optimumScale point and written as the difference to
// its prediction from the sheets one mark before it (predict): one signed
// byte, or optimumEscape and a little-endian int16. The values of Qwixx
// are nearly a sum over rows, which the prediction takes exactly, so the
// differences are small and the stream packs 5.4 million values into
// under 2 MB.
const (
	optimumMagic  = "QXO1"
	optimumScale  = 32
	optimumEscape = 0x7f
)

// ErrOptimumData is returned by DecodeOptimum for data that is not an
// encoded Optimum.
var ErrOptimumData = errors.New("qwixx: not an encoded solitaire optimum")

// predict returns the prediction of the value of s (of key k, rows in
// pairs p and q: k = key(s) = penalties·quadKeys + tri(p, q)), in units of
// 1/optimumScale, from the values v already known of the sheets with one
// mark less in one or more of its open, marked rows: the sum, over each
// non-empty set of those rows taken one step back, of ± its value
// (inclusion–exclusion), exact when the value is a sum of functions of at
// most three rows each. Every value in v is a multiple of 1/optimumScale
// under 2¹², so the sums are exact.
func predict(v []float32, base, p, q int) int32 {
	pred := 0.0
	for mp, p1 := range pairBack[p] {
		if p1 < 0 {
			continue
		}
		for mq, q1 := range pairBack[q] {
			if q1 < 0 || mp|mq == 0 {
				continue
			}
			x := float64(v[base+tri(int(p1), int(q1))])
			if bits.OnesCount(uint(mp|mq<<2))%2 == 1 {
				pred += x
			} else {
				pred -= x
			}
		}
	}
	return int32(math.Round(pred * optimumScale))
}

// pairBack[tri(a, b)][m] is the pair of rows a, b (a ≤ b) with one mark less
// in a (m bit 0) and in b (m bit 1) when that row is open and marked, −1
// when it is not (m 0: the pair itself).
var pairBack = func() (t [pairKeys][4]int32) {
	back := func(c int) (int, bool) { return c - 1, c != rowEmpty && c != rowClosed }
	for b := range rowCodes {
		for a := 0; a <= b; a++ {
			for m := range 4 {
				x, y, ok := a, b, true
				if m&1 != 0 {
					var o bool
					x, o = back(a)
					ok = ok && o
				}
				if m&2 != 0 {
					var o bool
					y, o = back(b)
					ok = ok && o
				}
				t[tri(a, b)][m] = -1
				if ok {
					t[tri(a, b)][m] = int32(tri(x, y))
				}
			}
		}
	}
	return t
}()

// walkOptimum calls f with every sheet still playing, in the encoded
// form's order: the base of its key (penalties·quadKeys) and its two pairs
// of rows (predict).
func walkOptimum(f func(base, p, q int) error) error {
	bySum := sheetsBySum()
	for pen := range 4 {
		for _, layer := range bySum {
			for _, r := range layer {
				if (Position{Rows: r}).closed() >= 2 {
					continue
				}
				if err := f(pen*quadKeys, tri(int(r[0]), int(r[1])), tri(int(r[2]), int(r[3]))); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// Encode writes o in its encoded form, its values rounded to 1/32 point.
func (o *Optimum) Encode(w io.Writer) error {
	if _, err := io.WriteString(w, optimumMagic); err != nil {
		return err
	}
	fw, err := flate.NewWriter(w, flate.BestCompression)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(fw)
	v := make([]float32, len(o.v)) // o's values rounded, as DecodeOptimum reads them
	err = walkOptimum(func(base, p, q int) error {
		k := base + tri(p, q)
		u := int32(math.Round(float64(o.v[k]) * optimumScale))
		v[k] = float32(u) / optimumScale
		switch d := u - predict(v, base, p, q); {
		case d >= -127 && d < optimumEscape:
			return bw.WriteByte(byte(int8(d)))
		case d >= math.MinInt16 && d <= math.MaxInt16:
			var b [3]byte
			b[0] = optimumEscape
			binary.LittleEndian.PutUint16(b[1:], uint16(int16(d)))
			_, err := bw.Write(b[:])
			return err
		default:
			return fmt.Errorf("qwixx: value %d too far from its prediction", u)
		}
	})
	if err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return fw.Close()
}

// DecodeOptimum reads an Optimum in its encoded form. It returns an error
// wrapping ErrOptimumData when the data is not one.
func DecodeOptimum(r io.Reader) (*Optimum, error) {
	var magic [len(optimumMagic)]byte
	if _, err := io.ReadFull(r, magic[:]); err != nil || string(magic[:]) != optimumMagic {
		return nil, fmt.Errorf("%w: no magic", ErrOptimumData)
	}
	br := bufio.NewReader(flate.NewReader(r))
	o := &Optimum{v: make([]float32, 4*quadKeys)}
	err := walkOptimum(func(base, p, q int) error {
		b, err := br.ReadByte()
		if err != nil {
			return err
		}
		d := int32(int8(b))
		if b == optimumEscape {
			var x [2]byte
			if _, err := io.ReadFull(br, x[:]); err != nil {
				return err
			}
			d = int32(int16(binary.LittleEndian.Uint16(x[:])))
		}
		o.v[base+tri(p, q)] = float32(predict(o.v, base, p, q)+d) / optimumScale
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrOptimumData, err)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return nil, fmt.Errorf("%w: trailing data", ErrOptimumData)
	}
	return o, nil
}

//go:embed optimum.bin
var optimumData []byte

var exact = sync.OnceValue(func() *Optimum {
	o, err := DecodeOptimum(bytes.NewReader(optimumData))
	if err != nil {
		panic(err) // optimum.bin is written by Encode and checked by the tests
	}
	return o
})

// Exact returns the exact solitaire values shipped with the program
// (optimum.bin, written by `dixsim optimum -table`), to 1/32 point. The
// first call decodes them (about a second of one core, 22 MB); later calls
// return the same Optimum.
func Exact() *Optimum { return exact() }
