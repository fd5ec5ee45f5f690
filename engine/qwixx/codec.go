package qwixx

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// SchemaVersion is the version of the serialised form written by
// AppendBinary; Decode reads every version up to it.
const SchemaVersion = 2

// The serialised form (SchemaVersion 2), integers one byte unless marked
// uvarint/varint (encoding/binary):
//
//	version (uvarint)
//	players, flags (1: solitaire), seed (varint), first as given + 1,
//	first as drawn
//	turn (uvarint), active, phase, end
//	the six dice, locked rows (bit c for row c)
//	the plan (0: none, 1: pass, 2 + 11·row + number − 2: a mark); not in
//	version 1
//	per seat: the four rows (two bytes each, little endian), penalties,
//	action 1 choice
//	seq (uvarint)
//
// The form is canonical: Decode refuses any other bytes for the same state.
// A new field means a new SchemaVersion; Decode keeps reading the old ones.

const flagSolitaire = 1

// AppendBinary appends the serialised form to b.
func (g *Game) AppendBinary(b []byte) []byte { return g.appendVersion(b, SchemaVersion) }

// appendVersion appends the serialised form of schema version v (1 or 2;
// version 1 has no plan).
func (g *Game) appendVersion(b []byte, v uint64) []byte {
	b = binary.AppendUvarint(b, v)
	var flags byte
	if g.Solitaire {
		flags |= flagSolitaire
	}
	b = append(b, byte(g.Players), flags)
	b = binary.AppendVarint(b, g.seed)
	b = append(b, byte(g.firstIn+1), byte(g.First))
	b = binary.AppendUvarint(b, uint64(g.Turn))
	b = append(b, byte(g.Active), byte(g.Phase), byte(g.Ended))
	b = append(b, g.Dice[:]...)
	var locked byte
	for c, l := range g.Locked {
		if l {
			locked |= 1 << c
		}
	}
	b = append(b, locked)
	if v >= 2 {
		b = append(b, planByte(g.plan))
	}
	for s := range g.Sheets {
		for _, r := range g.Sheets[s].Rows {
			b = binary.LittleEndian.AppendUint16(b, uint16(r))
		}
		b = append(b, byte(g.Sheets[s].Penalties), byte(g.Choices[s]))
	}
	return binary.AppendUvarint(b, g.Seq)
}

func planByte(p Plan) byte {
	switch {
	case !p.Set:
		return 0
	case p.Pass:
		return 1
	}
	return byte(2 + 11*int(p.Color) + p.Number - 2)
}

func planOf(b byte) (Plan, bool) {
	switch {
	case b == 0:
		return Plan{}, true
	case b == 1:
		return Plan{Set: true, Pass: true}, true
	case b < 2+44:
		return Plan{Set: true, Color: Color((b - 2) / 11), Number: int((b-2)%11) + 2}, true
	}
	return Plan{}, false
}

// MarshalBinary returns AppendBinary(nil). It never fails.
func (g *Game) MarshalBinary() ([]byte, error) { return g.AppendBinary(nil), nil }

// UnmarshalBinary reads what AppendBinary wrote. It returns an error
// wrapping ErrSchemaTooNew or ErrCorrupt (bytes that are not the canonical
// form of a state passing Check); it never panics, and leaves g unchanged
// on error.
func (g *Game) UnmarshalBinary(data []byte) error {
	d, err := decode(data)
	if err != nil {
		return err
	}
	*g = *d
	return nil
}

// Decode reads what AppendBinary wrote; see UnmarshalBinary.
func Decode(data []byte) (*Game, error) { return decode(data) }

type reader struct {
	b   []byte
	err error
}

func (r *reader) byte() byte {
	if len(r.b) == 0 {
		r.err = fmt.Errorf("%w: truncated", ErrCorrupt)
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = fmt.Errorf("%w: bad uvarint", ErrCorrupt)
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = fmt.Errorf("%w: bad varint", ErrCorrupt)
		return 0
	}
	r.b = r.b[n:]
	return v
}

func decode(data []byte) (*Game, error) {
	r := &reader{b: data}
	v := r.uvarint()
	if r.err != nil {
		return nil, r.err
	}
	if v > SchemaVersion {
		return nil, fmt.Errorf("%w: schema %d, this build reads up to %d", ErrSchemaTooNew, v, SchemaVersion)
	}
	if v == 0 {
		return nil, fmt.Errorf("%w: schema 0", ErrCorrupt)
	}
	g := &Game{}
	g.Players = int(r.byte())
	flags := r.byte()
	g.Solitaire = flags&flagSolitaire != 0
	g.seed = r.varint()
	g.firstIn = int(r.byte()) - 1
	g.First = int(r.byte())
	turn := r.uvarint()
	g.Active, g.Phase, g.Ended = int(r.byte()), Phase(r.byte()), End(r.byte())
	for i := range g.Dice {
		g.Dice[i] = r.byte()
	}
	locked := r.byte()
	for c := range g.Locked {
		g.Locked[c] = locked&(1<<c) != 0
	}
	var planOK = true
	if v >= 2 {
		g.plan, planOK = planOf(r.byte())
	}
	if r.err != nil {
		return nil, r.err
	}
	if !planOK || flags&^flagSolitaire != 0 || locked > 15 || g.Players < 1 || g.Players > MaxPlayers || turn > 1<<20 {
		return nil, fmt.Errorf("%w: bad header", ErrCorrupt)
	}
	g.Turn = int(turn)
	g.Sheets = make([]Sheet, g.Players)
	g.Choices = make([]Choice, g.Players)
	for s := range g.Sheets {
		for c := range g.Sheets[s].Rows {
			lo, hi := r.byte(), r.byte()
			g.Sheets[s].Rows[c] = Row(uint16(lo) | uint16(hi)<<8)
		}
		g.Sheets[s].Penalties = int(r.byte())
		g.Choices[s] = Choice(r.byte())
	}
	g.Seq = r.uvarint()
	if r.err != nil {
		return nil, r.err
	}
	if len(r.b) != 0 {
		return nil, fmt.Errorf("%w: %d trailing bytes", ErrCorrupt, len(r.b))
	}
	if err := g.Check(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	if !bytes.Equal(g.appendVersion(make([]byte, 0, len(data)), v), data) {
		return nil, fmt.Errorf("%w: not the canonical form", ErrCorrupt)
	}
	return g, nil
}
