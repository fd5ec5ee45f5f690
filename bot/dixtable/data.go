package dixtable

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
	"github.com/dixgame/dixbot/clock"
	computer "github.com/dixgame/dixbot/computer/dix"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

// dixTableVersion is the version of the table data the bot keeps in
// dixbot.Record.Meta. A record with a higher version was written by a newer
// bot and is refused (dixbot.ErrSchemaTooNew) rather than misread.
const dixTableVersion = 1

// maxLog is how many event lines the table keeps for "what just happened";
// maxTurnLog bounds the lines of one turn kept for its summary.
const (
	maxLog       = 8
	maxTurnLog   = 24  // lines of a turn's summary
	turnHead     = 6   // first lines of a long turn always shown
	maxTurnLines = 120 // lines of one turn kept for the game log
)

// dixTable is the table data of a DIX game (seats, board and ping messages,
// log, outbox, clock), serialised as compact JSON in Record.Meta; a
// contract game's is tableData.
type dixTable struct {
	V       int    `json:"v"`
	Creator string `json:"c"`            // Discord user id of the creator
	Lang    string `json:"l"`            // the game's language (board, public messages)
	Bust    bool   `json:"bv,omitempty"` // bust variant (3.3)
	Solo    bool   `json:"so,omitempty"` // solo game against ALIX (SPEC §5)
	Diff    int    `json:"d,omitempty"`  // solo difficulty 4–10
	Seats   []seat `json:"s"`            // by engine seat; in solo seat 1 is ALIX (empty id)
	// Lobby is the lobby's state version: it changes with every join or
	// leave, so lobby buttons carry it like game buttons carry Game.Seq.
	Lobby uint32 `json:"lc,omitempty"`
	Board string `json:"b,omitempty"` // id of the current board (or lobby) message
	// Ping is the id of the last message pinging someone to decide within
	// the turn: once its decision is made (a newer ping, the next turn's
	// board, the end of the game) it is edited to say so, never deleted, so
	// the notification it raised still leads somewhere.
	Ping string `json:"pg,omitempty"`
	// PingUsers are the users Ping notified.
	PingUsers []string `json:"pu,omitempty"`
	// BoardVia and PingVia are the interactions Board and Ping were posted
	// through (nil: with the bot token), whose tokens can edit them while
	// valid (see via).
	BoardVia *bot.Via `json:"bw,omitempty"`
	PingVia  *bot.Via `json:"pw,omitempty"`
	// Origin is the id of the interaction that opened the table: a
	// component on a message older than it belongs to an earlier game of
	// the channel (custom ids carry only the state number).
	Origin string `json:"o,omitempty"`
	// Turn counts turns for the board's title.
	Turn int      `json:"t,omitempty"`
	Log  []string `json:"g,omitempty"` // last events, already in the game's language
	// TurnLog is the events of the current turn, for the summary an old
	// board becomes when its turn ends.
	TurnLog []string `json:"tg,omitempty"`
	TurnCut int      `json:"tc,omitempty"` // lines of the turn left out of TurnLog, after its first turnHead
	// Outbox is the Discord work owed by the changes so far and not yet
	// done (see outbox.go); NextEffect numbers its effects.
	Outbox     []bot.Effect `json:"ob,omitempty"`
	NextEffect uint32       `json:"oi,omitempty"`
	// Missing is set while Discord refuses for good to post the board (or
	// the final scoreboard) the outbox owes: why, and when it is tried
	// again (notice.go). nil when the game's board is where it should be.
	Missing *bot.Missing `json:"bm,omitempty"`
	// Pace is the name of the pace chosen at creation (clock.Find), and
	// Clock the game's clock once it runs (nil: a game without a clock).
	Pace  string       `json:"pc,omitempty"`
	Clock *clock.Clock `json:"ck,omitempty"`
	// PausedBy is the name of who paused the game ("": running).
	PausedBy string `json:"pz,omitempty"`
	// NoPictures: the game was started with pictures:off, or while the
	// bot had them off (DIX_PICTURES=off); its board and scoreboard are
	// text only (pictures.go), and its board offers no "as text" button.
	NoPictures bool `json:"np,omitempty"`
	// Scores is the id of the final scoreboard message once posted, kept
	// with the archived game so a prompt used afterwards can point to it.
	Scores string `json:"sc,omitempty"`
	// Starts is, in a lobby opened by a rematch, the seat that starts the
	// game, plus one (0: drawn at random when it starts).
	Starts int `json:"rs,omitempty"`
	// Rematch is the interaction that claimed the rematch of this finished
	// game while it was not archived yet (rematch.go).
	Rematch string `json:"rm,omitempty"`
	// BoardPic is the picture the board message has on Discord, when it is
	// known (pictures.go): an edit of that message showing the same picture
	// keeps Discord's file rather than uploading it again. nil: not known.
	BoardPic *bot.BoardPic `json:"bp,omitempty"`
}

// seat is one player: a Discord user and the name shown on the board.
type seat struct {
	ID   string `json:"i"`
	Name string `json:"n"`
	// CPU is the level of a computer player ("easy", "normal", "strong";
	// its ID is empty); "" for a person, and for ALIX.
	CPU string `json:"cpu,omitempty"`
	// Late counts the decisions in a row taken for this player because
	// their time ran out; Away is set at the second (the computer plays
	// the seat at once until they click again).
	Late int  `json:"lt,omitempty"`
	Away bool `json:"aw,omitempty"`
	// Gone is why the computer plays the seat for the rest of the game:
	// goneLeft (/dix leave) or goneKicked (a vote).
	Gone string `json:"gn,omitempty"`
	// Auto counts the decisions the computer took for this player, Outs
	// those of them taken because their time ran out.
	Auto int `json:"au,omitempty"`
	Outs int `json:"to,omitempty"`
	// Votes are the users who voted to hand this seat to the computer.
	Votes []string `json:"kv,omitempty"`
}

// computer is the level of the computer player in seat s, if it is one.
func (m *dixTable) computer(s int) (computer.Level, bool) {
	if s < 0 || s >= len(m.Seats) || m.Seats[s].CPU == "" {
		return 0, false
	}
	lvl, err := computer.ParseLevel(m.Seats[s].CPU)
	return lvl, err == nil
}

// decodeDixTable is the table data encoded in b, a value of the caller's own:
// table data decoded lately is copied from decodedMetas rather than
// decoded again.
func decodeDixTable(b []byte) (*dixTable, error) {
	if len(b) == 0 {
		return nil, fmt.Errorf("%w: empty table data", dixbot.ErrCorrupt)
	}
	if m := decodedMetas.Get(b); m != nil {
		return m, nil
	}
	m := &dixTable{}
	if err := json.Unmarshal(b, m); err != nil {
		return nil, fmt.Errorf("%w: table data: %v", dixbot.ErrCorrupt, err)
	}
	if m.V > dixTableVersion {
		return nil, fmt.Errorf("%w: table data version %d", dixbot.ErrSchemaTooNew, m.V)
	}
	if m.V < 1 {
		return nil, fmt.Errorf("%w: table data version %d", dixbot.ErrCorrupt, m.V)
	}
	decodedMetas.put(b, m)
	return m, nil
}

// table loads the channel's record and its table data: get, then
// decodeDixTable. As with get, an archived game comes with dixbot.ErrNotFound,
// and with its table data when it reads. Table data that does not read
// fails the call, unless reading the record failed it first.
func table(c *bot.Call) (*dixbot.Record, *dixTable, error) {
	r, err := c.Get()
	if r == nil {
		return nil, nil, err
	}
	m, merr := decodeDixTable(r.Meta)
	switch {
	case merr != nil && err != nil:
		return r, nil, err
	case merr != nil:
		return nil, nil, merr
	}
	return r, m, err
}

// tableQuiet is table for decorating a message (getQuiet): the record and
// its table data, or an error when either does not read.
func tableQuiet(c *bot.Call) (*dixbot.Record, *dixTable, error) {
	r, err := c.GetQuiet()
	if err != nil {
		return nil, nil, err
	}
	m, err := decodeDixTable(r.Meta)
	if err != nil {
		return nil, nil, err
	}
	return r, m, nil
}

// changeTable is change for fn working on the record and its table data:
// see onTable.
func changeTable(c *bot.Call, fn func(r *dixbot.Record, m *dixTable) error) (*dixbot.Record, error) {
	return c.Change(onTable(func(r *dixbot.Record, m *dixTable) error {
		if err := fn(r, m); err != nil {
			return err
		}
		answerPicture(c, r, m)
		return nil
	}))
}

// onTable is the store update that runs fn on the record and its table
// data, and writes the table data back into the record when fn succeeds.
func onTable(fn func(r *dixbot.Record, m *dixTable) error) func(*dixbot.Record) error {
	return func(r *dixbot.Record) error {
		m, err := decodeDixTable(r.Meta)
		if err != nil {
			return err
		}
		if err := fn(r, m); err != nil {
			return err
		}
		r.Meta = m.Encode()
		return nil
	}
}

func (m *dixTable) Encode() []byte {
	m.V = dixTableVersion
	b, err := json.Marshal(m)
	if err != nil {
		// A struct of strings, ints and bools always marshals.
		panic(err)
	}
	if d, ok := decodedOf(m); ok {
		decodedMetas.Keep(b, d) // what decoding b gives: its next reader copies it
	}
	return b
}

// version is the state version carried by the game's components: the
// engine's Seq, as documented for the end-to-end tests and tools.
func (m *dixTable) version(g *dix.Game) uint32 { return g.Seq }

// lobbyVersion is the state version carried by the lobby's components.
func (m *dixTable) lobbyVersion() uint32 { return m.Lobby }

// olderThanTable reports whether message (a Discord snowflake) was created
// before the table was opened. Ids that are not snowflakes are never older.
func (m *dixTable) olderThanTable(message string) bool {
	mt, ok1 := snowflakeTime(message)
	ot, ok2 := snowflakeTime(m.Origin)
	return ok1 && ok2 && mt < ot
}

// newerThanTable reports whether message (a Discord snowflake) was created
// after the table was opened. Ids that are not snowflakes are never newer.
func (m *dixTable) newerThanTable(message string) bool {
	mt, ok1 := snowflakeTime(message)
	ot, ok2 := snowflakeTime(m.Origin)
	return ok1 && ok2 && mt >= ot
}

// snowflakeTime returns the millisecond timestamp part of a Discord id.
func snowflakeTime(id string) (uint64, bool) {
	v, err := strconv.ParseUint(id, 10, 64)
	if err != nil || v == 0 {
		return 0, false
	}
	return v >> 22, true
}

// seatOf returns the seat of a Discord user, or -1.
func (m *dixTable) seatOf(user string) int {
	if user == "" {
		return -1
	}
	for i, s := range m.Seats {
		if s.ID == user {
			return i
		}
	}
	return -1
}

// addLog appends event lines, keeping the last maxLog (and the last
// maxTurnLog of the turn).
func (m *dixTable) addLog(lines ...string) {
	m.Log = keepLast(append(m.Log, lines...), maxLog)
	// The turn's lines, all of them up to maxTurnLines (then the oldest
	// after the first turnHead go, counted in TurnCut): the turn's summary
	// shows its first and last lines, the game log all of them.
	m.TurnLog = append(m.TurnLog, lines...)
	if cut := len(m.TurnLog) - maxTurnLines; cut > 0 {
		m.TurnLog = append(m.TurnLog[:turnHead], m.TurnLog[turnHead+cut:]...)
		m.TurnCut += cut
	}
}

// turnSummary are the lines of the turn's summary: the first ones, a line
// saying how many are left out (in lang), and the last ones.
func (m *dixTable) turnSummary(lang string) []string {
	cut := m.TurnCut
	lines := m.TurnLog
	if extra := len(lines) - maxTurnLog; extra > 0 {
		lines = append(append([]string(nil), lines[:turnHead]...), lines[turnHead+extra:]...)
		cut += extra
	}
	if cut == 0 {
		return lines
	}
	out := append([]string(nil), lines[:turnHead]...)
	out = append(out, locales.N(lang, "log_more", cut, nil))
	return append(out, lines[turnHead:]...)
}

func keepLast(s []string, n int) []string {
	if len(s) > n {
		return append([]string(nil), s[len(s)-n:]...)
	}
	return s
}
