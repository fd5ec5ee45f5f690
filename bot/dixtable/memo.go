package dixtable

import (
	"sync"
	"time"
	"unicode/utf8"

	"github.com/dixgame/dixbot/bot"
)

// dixTableMemo keeps table data already decoded, by its exact encoding: one
// click decodes the same Record.Meta several times (the click's update,
// its answer, the outbox before and after its effects, the computer's
// look ahead), and JSON decoding is most of what that costs. A decoded
// value kept here is never handed out nor changed: every caller gets a
// deep copy of it (cloneDixTable), which it may change freely, as it would a
// value decoded for it alone. It holds up to about metaMemoEntries values:
// past half of them, the older half is dropped. Safe for concurrent use.
type dixTableMemo struct {
	mu       sync.Mutex
	max      int
	cur, old map[string]*dixTable
}

// metaMemoEntries bounds the table data kept: a few per game that clicks
// reach at once. A game's data is a few kilobytes, kept twice (the key and
// the decoded value).
const metaMemoEntries = 2048

var decodedMetas = newDixTableMemo(metaMemoEntries)

func newDixTableMemo(maxEntries int) *dixTableMemo {
	return &dixTableMemo{max: maxEntries, cur: map[string]*dixTable{}}
}

// Get returns a copy of the table data decoded from b, or nil if none is kept.
func (mm *dixTableMemo) Get(b []byte) *dixTable {
	mm.mu.Lock()
	m, ok := mm.cur[string(b)]
	if !ok {
		m = mm.old[string(b)]
	}
	mm.mu.Unlock()
	if m == nil {
		return nil
	}
	return cloneDixTable(m)
}

// put keeps a copy of m, decoded from b.
func (mm *dixTableMemo) put(b []byte, m *dixTable) { mm.Keep(b, cloneDixTable(m)) }

// Keep keeps m, which the caller no longer changes, as decoded from b.
func (mm *dixTableMemo) Keep(b []byte, m *dixTable) {
	mm.mu.Lock()
	defer mm.mu.Unlock()
	if _, ok := mm.cur[string(b)]; ok {
		return
	}
	if len(mm.cur) >= mm.max/2 {
		mm.old, mm.cur = mm.cur, map[string]*dixTable{}
	}
	mm.cur[string(b)] = m
}

// decodedOf is what decoding the encoding of m gives, worked out without
// decoding: a deep copy of m with what JSON does not keep made as decoding
// makes it. An empty slice of a field left out when empty is nil, a field
// not stored (json:"-") is empty, a time is read back from its text (no
// monotonic reading, the location decoding gives). False when m holds a
// string that is not valid UTF-8 (JSON changes it). A field added to the
// table data must be handled here as JSON handles it
// (TestEncodedMetaAsDecoded compares with decoding, every field set, empty
// and with times of the clock).
func decodedOf(m *dixTable) (*dixTable, bool) {
	if !validStrings(m) {
		return nil, false
	}
	c := cloneDixTable(m)
	c.PingUsers, c.Log, c.TurnLog = nilIfEmpty(c.PingUsers), nilIfEmpty(c.Log), nilIfEmpty(c.TurnLog)
	if len(c.Outbox) == 0 {
		c.Outbox = nil
	}
	for i := range c.Seats {
		c.Seats[i].Votes = nilIfEmpty(c.Seats[i].Votes)
	}
	for i := range c.Outbox {
		e := &c.Outbox[i]
		e.Users, e.Lines = nilIfEmpty(e.Users), nilIfEmpty(e.Lines)
		if e.Via != nil {
			e.Via.Pic = ""
		}
	}
	for _, v := range []*bot.Via{c.BoardVia, c.PingVia} {
		if v != nil {
			v.Pic = ""
		}
	}
	if c.Clock != nil {
		c.Clock.Since, c.Clock.PausedAt = asDecoded(c.Clock.Since, false), asDecoded(c.Clock.PausedAt, true)
	}
	if c.Missing != nil {
		c.Missing.Since, c.Missing.Next = asDecoded(c.Missing.Since, false), asDecoded(c.Missing.Next, true)
	}
	return c, true
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

// asDecoded is t as JSON decoding gives it back; omitzero: a zero t is
// left out, so it decodes as the zero time.
func asDecoded(t time.Time, omitzero bool) time.Time {
	if omitzero && t.IsZero() {
		return time.Time{}
	}
	b, err := t.MarshalJSON()
	if err != nil {
		return t
	}
	var d time.Time
	if d.UnmarshalJSON(b) != nil {
		return t
	}
	return d
}

// validStrings reports whether every string of m is valid UTF-8.
func validStrings(m *dixTable) bool {
	ok := true
	chk := func(ss ...string) {
		for _, s := range ss {
			ok = ok && utf8.ValidString(s)
		}
	}
	chk(m.Creator, m.Lang, m.Board, m.Ping, m.Origin, m.Pace, m.PausedBy, m.Scores, m.Rematch)
	chk(m.PingUsers...)
	chk(m.Log...)
	chk(m.TurnLog...)
	for _, s := range m.Seats {
		chk(s.ID, s.Name, s.CPU, s.Gone)
		chk(s.Votes...)
	}
	for _, e := range m.Outbox {
		chk(e.Kind, e.Msg, e.Title, e.Text)
		chk(e.Users...)
		chk(e.Lines...)
		if e.Via != nil {
			chk(e.Via.App, e.Via.Token, e.Via.Orig)
		}
	}
	for _, v := range []*bot.Via{m.BoardVia, m.PingVia} {
		if v != nil {
			chk(v.App, v.Token, v.Orig)
		}
	}
	if m.Missing != nil {
		chk(m.Missing.Kind)
	}
	if m.Clock != nil {
		chk(m.Clock.Pace.Name)
	}
	if m.BoardPic != nil {
		chk(m.BoardPic.Msg, m.BoardPic.Key)
	}
	return ok
}

// cloneDixTable is a deep copy of m: it shares no slice or pointer with m,
// so that either may change without the other seeing it. A field added to
// dixTable, seat, effect or the types they point to that holds a slice, map
// or pointer must be copied here (TestDecodeMetaCopiesShareNothing fills
// every field and finds any shared one).
func cloneDixTable(m *dixTable) *dixTable {
	c := *m
	if m.Seats != nil {
		c.Seats = make([]seat, len(m.Seats))
		for i, s := range m.Seats {
			s.Votes = cloneStrings(s.Votes)
			c.Seats[i] = s
		}
	}
	c.PingUsers = cloneStrings(m.PingUsers)
	c.BoardVia, c.PingVia = bot.ClonePtr(m.BoardVia), bot.ClonePtr(m.PingVia)
	c.Log, c.TurnLog = cloneStrings(m.Log), cloneStrings(m.TurnLog)
	if m.Outbox != nil {
		c.Outbox = make([]bot.Effect, len(m.Outbox))
		for i, e := range m.Outbox {
			e.Users, e.Lines, e.Via = cloneStrings(e.Users), cloneStrings(e.Lines), bot.ClonePtr(e.Via)
			c.Outbox[i] = e
		}
	}
	c.Missing = bot.ClonePtr(m.Missing)
	c.BoardPic = bot.ClonePtr(m.BoardPic)
	if m.Clock != nil {
		ck := *m.Clock
		if ck.Banks != nil {
			ck.Banks = append(make([]time.Duration, 0, len(ck.Banks)), ck.Banks...)
		}
		c.Clock = &ck
	}
	return &c
}

// cloneStrings is a copy of s, nil if s is.
func cloneStrings(s []string) []string {
	if s == nil {
		return nil
	}
	return append(make([]string, 0, len(s)), s...)
}
