package bot

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/dixgame/dixbot"
)

// The table data this process last wrote, by channel: a click's change
// most often starts from the record this process wrote last (the store
// keeps it, store.Redis's recent), and decoding its table data from JSON
// is a good part of a click's work. Each write keeps a copy of the table
// data as its bytes read back (readBack); a change that finds those very
// bytes takes a copy of that instead of decoding them. A copy is never
// handed out twice: its taker may change it.

// tablesKept bounds the channels kept: past it, the cache starts again
// empty (a busy process has far fewer games at once).
const tablesKept = 8192

type tableCache struct {
	mu sync.Mutex
	m  map[string]keptTable
}

// keptTable is a table data written, with the bytes it was written as.
type keptTable struct {
	meta []byte
	td   *tableData
}

// put keeps td, just written as meta in channel.
func (tc *tableCache) put(channel string, meta []byte, td *tableData) {
	kept := readBack(td)
	tc.mu.Lock()
	defer tc.mu.Unlock()
	if tc.m == nil || len(tc.m) >= tablesKept {
		tc.m = make(map[string]keptTable)
	}
	tc.m[channel] = keptTable{meta: meta, td: kept}
}

// get is the table data meta holds in channel, a copy of its own, when
// this process wrote those bytes last there (nil: it did not).
func (tc *tableCache) get(channel string, meta []byte) *tableData {
	tc.mu.Lock()
	k, ok := tc.m[channel]
	tc.mu.Unlock()
	if !ok || !bytes.Equal(k.meta, meta) {
		return nil
	}
	return readBack(k.td)
}

// decodeTable is decodeTableData(r.Meta), from the cache when this
// process wrote those bytes.
func (b *Bot) decodeTable(r *dixbot.Record) (*tableData, error) {
	if td := b.tables.get(r.Channel, r.Meta); td != nil {
		return td, nil
	}
	return decodeTableData(r.Meta)
}

// encodeTable writes td into r.Meta and keeps it.
func (b *Bot) encodeTable(r *dixbot.Record, td *tableData) {
	r.Meta = td.Encode()
	b.tables.put(r.Channel, r.Meta, td)
}

// readBack is td as its JSON reads back (decodeTableData(td.Encode())),
// sharing no memory with td: what is not stored is left out, a slice or
// map left out when empty is nil, and a string that is not UTF-8 has
// U+FFFD for each byte that is not, as the encoder writes it
// (TestReadBackAsJSON).
func readBack(td *tableData) *tableData {
	c := &tableData{
		V: td.V, Creator: jsonText(td.Creator), Lang: jsonText(td.Lang), Lobby: td.Lobby,
		Board: jsonText(td.Board), Opened: jsonText(td.Opened), Began: jsonText(td.Began), Seed: td.Seed,
		Open: omitEmpty(td.Open), Log: texts(td.Log), Ended: texts(td.Ended), NoPics: td.NoPics,
		Pace: jsonText(td.Pace), Acted: omitEmpty(td.Acted), OpenAt: omitEmpty(td.OpenAt),
		Banks: omitEmpty(td.Banks), First: td.First, Starts: td.Starts, Called: texts(td.Called),
		CalledAt: td.CalledAt, Rematch: jsonText(td.Rematch), Origin: jsonText(td.Origin),
		NextEffect: td.NextEffect, BoardVia: viaBack(td.BoardVia), Paused: jsonText(td.Paused),
		PausedAt: td.PausedAt, Reminded: omitEmpty(td.Reminded), Wake: omitEmpty(td.Wake),
		Lines: td.Lines, Unlogged: texts(td.Unlogged),
	}
	if td.Seats != nil { // "s" is written even when empty
		c.Seats = make([]tableSeat, len(td.Seats))
		for i, s := range td.Seats {
			c.Seats[i] = tableSeat{User: jsonText(s.User), Name: jsonText(s.Name), Level: jsonText(s.Level),
				Late: s.Late, Away: s.Away, Votes: texts(s.Votes)}
		}
	}
	if p := td.Ping; p != nil {
		c.Ping = &pingMsg{ID: jsonText(p.ID), Via: viaBack(p.Via), Users: texts(p.Users), Names: texts(p.Names),
			Opens: omitEmpty(p.Opens), Eff: p.Eff}
	}
	if len(td.Outbox) > 0 {
		c.Outbox = make([]effect, len(td.Outbox))
		for i, e := range td.Outbox {
			c.Outbox[i] = effect{ID: e.ID, Kind: jsonText(e.Kind), Msg: jsonText(e.Msg), Users: texts(e.Users),
				Text: jsonText(e.Text), Again: e.Again, By: jsonText(e.By), Via: viaBack(e.Via), Claimed: e.Claimed}
		}
	}
	if p := td.Pic; p != nil {
		c.Pic = &boardPic{Msg: jsonText(p.Msg), Key: jsonText(p.Key)}
	}
	if len(td.Opts) > 0 {
		c.Opts = make(map[string]string, len(td.Opts))
		odd := false
		for k, v := range td.Opts {
			odd = odd || !utf8.ValidString(k)
			c.Opts[jsonText(k)] = jsonText(v)
		}
		if odd {
			// Two keys that read back the same (bytes that are not
			// UTF-8) read back as the value of the last the encoder
			// writes, in the keys' order.
			for _, k := range slices.Sorted(maps.Keys(td.Opts)) {
				c.Opts[jsonText(k)] = jsonText(td.Opts[k])
			}
		}
	}
	if td.Missing != nil {
		// Rare (a board Discord refuses), and its times read back in the
		// encoder's own way (no monotonic clock, the zone of the offset).
		raw, err := json.Marshal(td.Missing)
		if err == nil {
			var m Missing
			if json.Unmarshal(raw, &m) == nil {
				c.Missing = &m
			}
		}
	}
	return c
}

// viaBack is readBack for an interaction: what is never stored left out.
func viaBack(v *Via) *Via {
	if v == nil {
		return nil
	}
	return &Via{App: jsonText(v.App), Token: jsonText(v.Token), At: v.At, Orig: jsonText(v.Orig)}
}

// omitEmpty is a copy of s, nil when empty (omitempty).
func omitEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return append([]T(nil), s...)
}

// texts is omitEmpty for strings, each as JSON writes it.
func texts(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	c := make([]string, len(s))
	for i, x := range s {
		c[i] = jsonText(x)
	}
	return c
}

// jsonText is s as JSON writes it: each byte that is not part of a UTF-8
// character becomes U+FFFD (strings are shared: they never change).
func jsonText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	for _, r := range s {
		b = utf8.AppendRune(b, r) // an invalid byte ranges as U+FFFD
	}
	return string(b)
}
