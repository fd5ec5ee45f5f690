package bot

import (
	"maps"
	"slices"
	"sync"
)

// tableDataMemo keeps the table data decoded from the latest bytes read,
// keyed by those bytes: a click decodes the same record's table data
// several times (the click's update, its effects, the fold that records
// them, the computer's foresight), and a copy of what was decoded costs a
// fraction of decoding it again (docs/PERFORMANCE.md). Two generations of
// tableDataMemoSize entries each; the older is dropped when the newer is
// full. It is safe for concurrent use.
var tableDataMemo = &tdMemo{cur: make(map[string]*tableData, tableDataMemoSize)}

// tableDataMemoSize is how many entries a generation of tableDataMemo
// holds.
const tableDataMemoSize = 256

type tdMemo struct {
	mu       sync.Mutex
	cur, old map[string]*tableData
}

// get returns what b decoded to, kept: never to be changed nor handed
// out (cloneTableData), or nil.
func (m *tdMemo) get(b []byte) *tableData {
	m.mu.Lock()
	defer m.mu.Unlock()
	if td, ok := m.cur[string(b)]; ok {
		return td
	}
	if td, ok := m.old[string(b)]; ok {
		m.putLocked(string(b), td)
		return td
	}
	return nil
}

// put keeps td, which b decodes to; td is not changed afterwards.
func (m *tdMemo) put(b []byte, td *tableData) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.putLocked(string(b), td)
}

func (m *tdMemo) putLocked(k string, td *tableData) {
	if len(m.cur) >= tableDataMemoSize {
		m.old, m.cur = m.cur, make(map[string]*tableData, tableDataMemoSize)
	}
	m.cur[k] = td
}

// cloneTableData returns a copy of td that shares no memory with it that
// can be changed: every pointer, slice and map is copied
// (TestTableDataCopiesShareNothing sets every field to find one that is
// not).
func cloneTableData(td *tableData) *tableData {
	c := *td
	c.Seats = slices.Clone(td.Seats)
	for i := range c.Seats {
		c.Seats[i].Votes = slices.Clone(c.Seats[i].Votes)
	}
	c.Open = slices.Clone(td.Open)
	c.Log = slices.Clone(td.Log)
	c.Ended = slices.Clone(td.Ended)
	c.Acted = slices.Clone(td.Acted)
	c.OpenAt = slices.Clone(td.OpenAt)
	if td.Ping != nil {
		p := *td.Ping
		p.Via = cloneVia(p.Via)
		p.Users = slices.Clone(p.Users)
		p.Names = slices.Clone(p.Names)
		p.Opens = slices.Clone(p.Opens)
		c.Ping = &p
	}
	c.Banks = slices.Clone(td.Banks)
	c.Called = slices.Clone(td.Called)
	c.Outbox = slices.Clone(td.Outbox)
	for i := range c.Outbox {
		c.Outbox[i].Users = slices.Clone(c.Outbox[i].Users)
		c.Outbox[i].Via = cloneVia(c.Outbox[i].Via)
	}
	c.BoardVia = cloneVia(td.BoardVia)
	c.Reminded = slices.Clone(td.Reminded)
	c.Wake = slices.Clone(td.Wake)
	if td.Pic != nil {
		p := *td.Pic
		c.Pic = &p
	}
	c.Opts = maps.Clone(td.Opts)
	if td.Missing != nil {
		m := *td.Missing
		c.Missing = &m
	}
	c.Unlogged = slices.Clone(td.Unlogged)
	c.fresh = slices.Clone(td.fresh)
	return &c
}

func cloneVia(v *Via) *Via {
	if v == nil {
		return nil
	}
	c := *v
	return &c
}
