package dix

import (
	"encoding/binary"
	"fmt"
)

// The serialised form (SchemaVersion 1), all integers unsigned bytes unless
// marked varint (encoding/binary), card lists as a uvarint length then one
// byte per card (its cardIndex):
//
//	version
//	players, difficulty, flags (1 bust variant, 2 custom deck, 4 end
//	triggered, 8 bought, 16 auction), seed (varint), first player + 1
//	[custom deck: 55 bytes, the setup count of each card]
//	active, phase, drawn (uvarint), seq (uvarint)
//	per seat: money, consolation (uvarint), collection
//	deck, tableau, market, discard
//	[auction: wild, high bid (uvarint), high bidder + 1, next, order length, order]
//	final order length, final order, final next
//
// A new field means a new SchemaVersion; UnmarshalBinary keeps reading the
// old ones.

const (
	flagBustVariant = 1 << iota
	flagCustomDeck
	flagEndTriggered
	flagBought
	flagAuction
)

// MarshalBinary returns the compact, versioned serialised form. The same
// state always gives the same bytes. It never fails for a state built by
// New and Apply.
func (g *Game) MarshalBinary() ([]byte, error) {
	return g.AppendBinary(make([]byte, 0, 64+len(g.Deck)+len(g.Discard)+len(g.Market)+8*len(g.Players))), nil
}

// AppendBinary appends the serialised form of MarshalBinary to b.
func (g *Game) AppendBinary(b []byte) []byte {
	var flags byte
	if g.Opts.BustVariant {
		flags |= flagBustVariant
	}
	custom := g.setup != standardSetup(g.Opts.Players)
	if custom {
		flags |= flagCustomDeck
	}
	if g.EndTriggered {
		flags |= flagEndTriggered
	}
	if g.Bought {
		flags |= flagBought
	}
	if g.Auction != nil {
		flags |= flagAuction
	}
	b = append(b, SchemaVersion, byte(g.Opts.Players), byte(g.Opts.Difficulty), flags)
	b = binary.AppendVarint(b, g.Opts.Seed)
	b = append(b, byte(g.Opts.FirstPlayer+1))
	if custom {
		b = append(b, g.setup[:]...)
	}
	b = append(b, byte(g.Active), byte(g.Phase))
	b = binary.AppendUvarint(b, uint64(g.Drawn))
	b = binary.AppendUvarint(b, uint64(g.Seq))
	for _, p := range g.Players {
		b = append(b, byte(p.Money))
		b = binary.AppendUvarint(b, uint64(p.Consolation))
		b = appendCards(b, p.Collection)
	}
	b = appendCards(b, g.Deck)
	b = appendCards(b, g.Tableau)
	b = appendCards(b, g.Market)
	b = appendCards(b, g.Discard)
	if a := g.Auction; a != nil {
		b = append(b, byte(cardIndex(a.Wild)))
		b = binary.AppendUvarint(b, uint64(a.HighBid))
		b = append(b, byte(a.HighBidder+1), byte(a.Next), byte(len(a.Order)))
		for _, s := range a.Order {
			b = append(b, byte(s))
		}
	}
	b = append(b, byte(len(g.FinalOrder)))
	for _, s := range g.FinalOrder {
		b = append(b, byte(s))
	}
	return append(b, byte(g.FinalNext))
}

func appendCards(b []byte, cards []Card) []byte {
	b = binary.AppendUvarint(b, uint64(len(cards)))
	for _, c := range cards {
		b = append(b, byte(cardIndex(c)))
	}
	return b
}

// standardSetups holds the card count of the deck for each player count
// (R1), index 0 unused.
var standardSetups = func() (s [6][numCardIndex]uint8) {
	for players := 1; players <= 5; players++ {
		deck, _ := BuildDeck(players)
		for _, c := range deck {
			s[players][cardIndex(c)]++
		}
	}
	return s
}()

// standardSetup is the card count of the deck for players (R1); zero for a
// bad player count.
func standardSetup(players int) [numCardIndex]uint8 {
	if players < 1 || players > 5 {
		return [numCardIndex]uint8{}
	}
	return standardSetups[players]
}

// UnmarshalBinary reads what MarshalBinary wrote, replacing g. It returns
// ErrSchemaTooNew for a newer schema and ErrCorrupt for truncated, garbled,
// non-canonical or inconsistent input (a state that fails Check); g is
// unchanged on error. It never panics.
func (g *Game) UnmarshalBinary(data []byte) error {
	if len(data) == 0 {
		return fmt.Errorf("%w: empty", ErrCorrupt)
	}
	if data[0] > SchemaVersion {
		return fmt.Errorf("%w: schema %d, this engine reads up to %d", ErrSchemaTooNew, data[0], SchemaVersion)
	}
	if data[0] == 0 {
		return fmt.Errorf("%w: schema 0", ErrCorrupt)
	}
	r := reader{b: data[1:]}
	var ng Game
	ng.Opts.Players = int(r.byte())
	ng.Opts.Difficulty = int(r.byte())
	flags := r.byte()
	ng.Opts.BustVariant = flags&flagBustVariant != 0
	ng.EndTriggered = flags&flagEndTriggered != 0
	ng.Bought = flags&flagBought != 0
	ng.Opts.Seed = r.varint()
	ng.Opts.FirstPlayer = int(r.byte()) - 1
	if r.err != nil || ng.Opts.Players < 1 || ng.Opts.Players > 5 || flags >= flagAuction<<1 {
		return fmt.Errorf("%w: header", ErrCorrupt)
	}
	if flags&flagCustomDeck != 0 {
		copy(ng.setup[:], r.take(numCardIndex))
	} else {
		ng.setup = standardSetup(ng.Opts.Players)
	}
	ng.Active = int(r.byte())
	ng.Phase = Phase(r.byte())
	ng.Drawn = r.count(maxDeck)
	ng.Seq = uint32(r.count(1<<32 - 1))
	ng.Players = make([]Player, seatsFor(ng.Opts.Players))
	for i := range ng.Players {
		p := &ng.Players[i]
		p.Money = int(r.byte())
		p.Consolation = r.count(maxDeck)
		p.Collection = r.cards()
	}
	ng.Deck = r.cards()
	ng.Tableau = r.cards()
	ng.Market = r.cards()
	ng.Discard = r.cards()
	if flags&flagAuction != 0 {
		a := &Auction{}
		a.Wild = r.card()
		a.HighBid = r.count(1 << 20)
		a.HighBidder = int(r.byte()) - 1
		a.Next = int(r.byte())
		a.Order = r.seats()
		ng.Auction = a
	}
	ng.FinalOrder = r.seats()
	ng.FinalNext = int(r.byte())
	if r.err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, r.err)
	}
	if len(r.b) != 0 {
		return fmt.Errorf("%w: %d trailing bytes", ErrCorrupt, len(r.b))
	}
	if err := ng.check(); err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	// One state, one encoding: reject what MarshalBinary would not write
	// (over-long varints and the like).
	if string(ng.AppendBinary(make([]byte, 0, len(data)))) != string(data) {
		return fmt.Errorf("%w: not in canonical form", ErrCorrupt)
	}
	*g = ng
	return nil
}

// reader decodes the serialised form; the first error sticks and every later
// read returns zero values.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail(what string) {
	if r.err == nil {
		r.err = checkError(what)
	}
}

func (r *reader) byte() byte {
	if r.err != nil || len(r.b) == 0 {
		r.fail("truncated")
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

func (r *reader) take(n int) []byte {
	if r.err != nil || len(r.b) < n {
		r.fail("truncated")
		return nil
	}
	v := r.b[:n]
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

// count reads a uvarint no larger than limit.
func (r *reader) count(limit uint64) int {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 || v > limit {
		r.fail("bad count")
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

func (r *reader) card() Card {
	i := int(r.byte())
	if i >= numCardIndex {
		r.fail("bad card")
		return Card{}
	}
	return cardAt(i)
}

func (r *reader) cards() []Card {
	n := r.count(maxDeck)
	if n == 0 || r.err != nil {
		return nil
	}
	if n > len(r.b) {
		r.fail("truncated")
		return nil
	}
	cards := make([]Card, n)
	for i := range cards {
		cards[i] = r.card()
	}
	return cards
}

func (r *reader) seats() []int {
	n := int(r.byte())
	if n == 0 || r.err != nil {
		return nil
	}
	if n > 5 {
		r.fail("bad seat list")
		return nil
	}
	s := make([]int, n)
	for i := range s {
		s[i] = int(r.byte())
	}
	return s
}
