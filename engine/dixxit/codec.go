package dixxit

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/dixgame/dixbot/engine"
)

// SchemaVersion is the version of the serialised form Encode writes.
const SchemaVersion = 2

// The serialised form (SchemaVersion 1); integers are single bytes unless
// marked (uvarint, varint as encoding/binary writes them), card lists a
// uvarint length then one byte per Card:
//
//	schema version (uvarint)
//	players, first, seed (varint), seq (uvarint), turn (uvarint)
//	active, phase, target, flags (1: aloud), out seats (one bit each)
//	clue: length (uvarint), UTF-8 bytes
//	grid: 9 cards (0 for an empty square)
//	pile (top first), set aside, discard, then the cards of each seat
//	fingers: count (uvarint), then per finger: seat, square, time (uvarint)
//	(from SchemaVersion 2) the latest turn scored: 0 for none, or 1 then
//	turn (uvarint), active, the 9 cards of its grid, by square the seat
//	whose finger counted there plus one (0: none), the square found plus
//	one (0: not found), the target square
//
// A new field means a new SchemaVersion; decode keeps reading the old ones.

const flagAloud = 1

// Encode returns the state's bytes; the same state always gives the same
// bytes. They hold the target and the order of the pile: they are for the
// store, never for a player.
func (g *Game) Encode() []byte {
	return g.appendEncoding(make([]byte, 0, 200))
}

// appendEncoding appends Encode's bytes to b.
func (g *Game) appendEncoding(b []byte) []byte {
	b = binary.AppendUvarint(b, SchemaVersion)
	b = append(b, byte(g.players), byte(g.first))
	b = binary.AppendVarint(b, g.seed)
	b = binary.AppendUvarint(b, g.seq)
	b = binary.AppendUvarint(b, g.turn)
	var flags byte
	if g.aloud {
		flags |= flagAloud
	}
	b = append(b, byte(g.active), byte(g.phase), byte(g.target), flags, g.out)
	b = binary.AppendUvarint(b, uint64(len(g.clue)))
	b = append(b, g.clue...)
	for _, c := range g.grid {
		b = append(b, byte(c))
	}
	b = appendCards(b, g.pile)
	b = appendCards(b, g.aside)
	b = appendCards(b, g.discard)
	for _, w := range g.won {
		b = appendCards(b, w)
	}
	b = binary.AppendUvarint(b, uint64(len(g.fingers)))
	for _, f := range g.fingers {
		b = append(b, byte(f.seat), byte(f.square))
		b = binary.AppendUvarint(b, f.at)
	}
	if l := g.last; l == nil {
		b = append(b, 0)
	} else {
		b = append(b, 1)
		b = binary.AppendUvarint(b, l.turn)
		b = append(b, byte(l.active))
		for _, c := range l.grid {
			b = append(b, byte(c))
		}
		for _, s := range l.finger {
			b = append(b, byte(s+1))
		}
		b = append(b, byte(l.found+1), byte(l.target))
	}
	return b
}

func appendCards(b []byte, cs []Card) []byte {
	b = binary.AppendUvarint(b, uint64(len(cs)))
	for _, c := range cs {
		b = append(b, byte(c))
	}
	return b
}

// reader reads the serialised form; the first error sticks.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail(what string) {
	if r.err == nil {
		r.err = errors.New(what)
	}
}

func (r *reader) byte() byte {
	if r.err != nil || len(r.b) == 0 {
		r.fail("truncated")
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail("bad uvarint")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) varint() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail("bad varint")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) bytes(n uint64) []byte {
	if r.err != nil || n > uint64(len(r.b)) {
		r.fail("truncated")
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) cards() []Card {
	n := r.uvarint()
	if n > Cards {
		r.fail("card list too long")
		return nil
	}
	raw := r.bytes(n)
	cs := make([]Card, len(raw))
	for i, c := range raw {
		cs[i] = Card(c)
	}
	return cs
}

// scored reads a turn scored (SchemaVersion 2) of a game of players.
func (r *reader) scored(players int) *scored {
	l := &scored{turn: r.uvarint(), active: int(r.byte())}
	if l.active >= players {
		r.fail("bad active seat of the turn scored")
	}
	for i := range l.grid {
		if l.grid[i] = Card(r.byte()); !l.grid[i].Valid() {
			r.fail("bad card of the turn scored")
		}
	}
	for i := range l.finger {
		s := int(r.byte()) - 1
		if s >= players || s == l.active {
			r.fail("bad finger of the turn scored")
		}
		l.finger[i] = int8(s)
	}
	l.found, l.target = int(r.byte())-1, int(r.byte())
	if l.found >= Squares || l.target >= Squares || (l.found >= 0 && l.found != l.target) {
		r.fail("bad squares of the turn scored")
	}
	return l
}

// decode reads Encode's bytes and checks the invariants of what it read;
// it refuses any other bytes for the same state.
func decode(data []byte) (*Game, error) {
	v, err := engine.SchemaOf(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", err, ErrCorrupt)
	}
	if v > SchemaVersion {
		return nil, fmt.Errorf("%w: %w: version %d, this build reads up to %d", engine.ErrSchemaTooNew, ErrSchemaTooNew, v, SchemaVersion)
	}
	if v != SchemaVersion && v != 1 {
		return nil, fmt.Errorf("%w: %w: unknown version %d", engine.ErrCorrupt, ErrCorrupt, v)
	}
	r := &reader{b: data[len(binary.AppendUvarint(nil, v)):]}
	g := &Game{players: int(r.byte()), first: int(r.byte())}
	g.seed = r.varint()
	g.seq = r.uvarint()
	g.turn = r.uvarint()
	g.active, g.phase, g.target = int(r.byte()), Phase(r.byte()), int(r.byte())
	flags := r.byte()
	g.aloud = flags&flagAloud != 0
	g.out = r.byte()
	n := r.uvarint()
	if n > maxMoveBytes {
		r.fail("clue too long")
	}
	g.clue = string(r.bytes(n))
	for i := range g.grid {
		g.grid[i] = Card(r.byte())
	}
	g.pile, g.aside, g.discard = r.cards(), r.cards(), r.cards()
	if g.players > MaxPlayers {
		r.fail("too many players")
	}
	if r.err == nil {
		g.won = make([][]Card, g.players)
		for s := range g.won {
			g.won[s] = r.cards()
		}
	}
	nf := r.uvarint()
	if nf > MaxPlayers {
		r.fail("too many fingers")
	}
	for range nf {
		if r.err != nil {
			break
		}
		f := finger{seat: int(r.byte()), square: int(r.byte())}
		f.at = r.uvarint()
		g.fingers = append(g.fingers, f)
	}
	if v >= 2 {
		switch r.byte() {
		case 0:
		case 1:
			g.last = r.scored(g.players)
		default:
			r.fail("bad mark of the turn scored")
		}
	}
	switch {
	case r.err != nil:
	case len(r.b) > 0:
		r.fail("trailing bytes")
	case flags&^flagAloud != 0:
		r.fail("unknown flags")
	case !utf8.ValidString(g.clue) || utf8.RuneCountInString(g.clue) > MaxClue:
		r.fail("bad clue")
	}
	if r.err != nil {
		return nil, fmt.Errorf("%w: %w: %v", engine.ErrCorrupt, ErrCorrupt, r.err)
	}
	if err := g.check(); err != nil {
		return nil, fmt.Errorf("%w: %w: %v", engine.ErrCorrupt, ErrCorrupt, err)
	}
	if g.phase == PhaseGuess {
		if _, err := ParseMove(ClueMove(g.clue)); err != nil && !g.aloud {
			return nil, fmt.Errorf("%w: %w: bad clue", engine.ErrCorrupt, ErrCorrupt)
		}
	}
	// One state, one encoding, as DIX's and Qwixx's: bytes Encode would
	// not write (an over-long varint, say) are refused. Version 1 is
	// version 2 without the mark of the turn scored, which it never has.
	var buf [512]byte
	enc := g.appendEncoding(buf[:0])
	if v == 1 {
		enc = append([]byte{1}, enc[1:len(enc)-1]...)
	}
	if !bytes.Equal(enc, data) {
		return nil, fmt.Errorf("%w: %w: not the canonical form", engine.ErrCorrupt, ErrCorrupt)
	}
	return g, nil
}
