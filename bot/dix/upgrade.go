package dixview

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/clock"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/dix"
)

// ownTable is the table data DIX's own table kept in a record's Meta
// before the shared table hosted DIX (compact JSON, version 1), as far as
// the shared table takes it over. The rest of it does not map and is
// dropped on conversion:
//   - the outbox (ob, oi) and the mark of a board Discord refused (bm):
//     work owed in the old table's own effects, which the shared table
//     does not run; the shared table shows its board at the next click;
//   - the ping waiting for a decision (pg, pu, pw): the message stays as
//     posted, the next decision's ping is the shared table's;
//   - the turn number and the turn's lines (t, tg, tc), the scoreboard
//     message (sc) and the board's picture (bp): the shared table counts,
//     keeps and draws its own;
//   - the counts of the decisions the computer took for a person (au, to),
//     which only the old scoreboard showed;
//   - the seat of ALIX in a solo game, which the rules play themselves.
type ownTable struct {
	V          int          `json:"v"`
	Creator    string       `json:"c"`
	Lang       string       `json:"l"`
	Bust       bool         `json:"bv,omitempty"`
	Solo       bool         `json:"so,omitempty"`
	Diff       int          `json:"d,omitempty"`
	Seats      []ownSeat    `json:"s"`
	Lobby      uint32       `json:"lc,omitempty"`
	Board      string       `json:"b,omitempty"`
	BoardVia   *ownVia      `json:"bw,omitempty"`
	Origin     string       `json:"o,omitempty"`
	Log        []string     `json:"g,omitempty"`
	Pace       string       `json:"pc,omitempty"`
	Clock      *clock.Clock `json:"ck,omitempty"`
	PausedBy   string       `json:"pz,omitempty"`
	NoPictures bool         `json:"np,omitempty"`
	Starts     int          `json:"rs,omitempty"`
	Rematch    string       `json:"rm,omitempty"`
}

// ownTableVersion is the newest version of ownTable there is.
const ownTableVersion = 1

// ownSeat is one seat of ownTable: a person (ID), a computer player (CPU,
// no ID) or ALIX (neither).
type ownSeat struct {
	ID    string   `json:"i"`
	Name  string   `json:"n"`
	CPU   string   `json:"cpu,omitempty"`
	Late  int      `json:"lt,omitempty"`
	Away  bool     `json:"aw,omitempty"`
	Gone  string   `json:"gn,omitempty"`
	Votes []string `json:"kv,omitempty"`
}

// ownVia is an interaction whose token edits a message, as ownTable kept
// it.
type ownVia struct {
	App   string `json:"a"`
	Token string `json:"t"`
	At    int64  `json:"at"`
	Orig  string `json:"o,omitempty"`
}

// isOwnTable reports whether meta is ownTable's JSON: its seats have an
// "i" key (always written), which the shared table's never have.
func isOwnTable(meta []byte) bool {
	var probe struct {
		Seats []map[string]json.RawMessage `json:"s"`
	}
	if json.Unmarshal(meta, &probe) != nil || len(probe.Seats) == 0 {
		return false
	}
	_, ok := probe.Seats[0]["i"]
	return ok
}

// Upgrade reads a record of DIX's own table (present.Game.Upgrade): meta
// its table data, data the game's state (nil: a lobby). Errors wrap
// engine.ErrSchemaTooNew (a newer version of the table data) or
// engine.ErrCorrupt.
func Upgrade(meta, data []byte) (present.Upgraded, bool, error) {
	if !isOwnTable(meta) {
		return present.Upgraded{}, false, nil
	}
	var m ownTable
	if err := json.Unmarshal(meta, &m); err != nil {
		return present.Upgraded{}, true, fmt.Errorf("%w: DIX's table data: %v", engine.ErrCorrupt, err)
	}
	switch {
	case m.V > ownTableVersion:
		return present.Upgraded{}, true, fmt.Errorf("%w: DIX's table data version %d", engine.ErrSchemaTooNew, m.V)
	case m.V < 1:
		return present.Upgraded{}, true, fmt.Errorf("%w: DIX's table data version %d", engine.ErrCorrupt, m.V)
	}
	u := present.Upgraded{
		Creator: m.Creator, Lang: m.Lang, Lobby: m.Lobby, Board: m.Board, Opened: m.Origin,
		NoPictures: m.NoPictures, Pace: m.Pace, Starts: m.Starts, Log: m.Log, Rematch: m.Rematch,
		PausedBy: m.PausedBy, Deciding: -1,
		Options: map[string]string{dix.OptBust: "off"},
	}
	if m.Bust {
		u.Options[dix.OptBust] = "on"
	}
	if m.Diff != 0 {
		u.Options[dix.OptDifficulty] = strconv.Itoa(m.Diff)
	}
	if v := m.BoardVia; v != nil {
		u.Via = &present.UpgradedVia{App: v.App, Token: v.Token, Orig: v.Orig, At: v.At}
	}
	for i, s := range m.Seats {
		if s.ID == "" && s.CPU == "" {
			// ALIX, the solo game's opponent, is the last seat (§5).
			if !m.Solo || i != len(m.Seats)-1 {
				return present.Upgraded{}, true, fmt.Errorf("%w: DIX's table data: seat %d is nobody's", engine.ErrCorrupt, i)
			}
			continue
		}
		u.Seats = append(u.Seats, present.UpgradedSeat{User: s.ID, Name: s.Name, Level: s.CPU,
			Gone: s.Gone != "", Late: s.Late, Away: s.Away, Votes: s.Votes})
	}
	if len(u.Seats) == 0 {
		return present.Upgraded{}, true, fmt.Errorf("%w: DIX's table data: no seat", engine.ErrCorrupt)
	}
	if data != nil {
		st, err := dix.Rules{}.Decode(data)
		if err != nil {
			return present.Upgraded{}, true, err
		}
		g := st.(dix.State).Game()
		if want := len(u.Seats) + boolInt(g.Solo()); want != len(g.Players) {
			return present.Upgraded{}, true, fmt.Errorf("%w: DIX's table data: %d seats for %d players", engine.ErrCorrupt, len(m.Seats), len(g.Players))
		}
		u.Seed = g.Opts.Seed
		if g.Opts.FirstPlayer >= 0 {
			u.First = g.Opts.FirstPlayer + 1
		}
		u.Options[dix.OptBust] = map[bool]string{true: "on", false: "off"}[g.Opts.BustVariant]
		if g.Solo() {
			u.Options[dix.OptDifficulty] = strconv.Itoa(g.Opts.Difficulty)
		}
	}
	upgradeClock(&u, m.Clock)
	return u, true, nil
}

// upgradeClock takes over the time banks of c, the clock of DIX's own
// table (nil: none): what is left of each seat's bank, and the decision
// running (or standing still while the game is paused), whose seat's bank
// is as the decision found it (clock.Clock.Since). The reminders already
// sent for it count as one.
func upgradeClock(u *present.Upgraded, c *clock.Clock) {
	if c == nil {
		return
	}
	for s := range u.Seats {
		var left time.Duration
		if s < len(c.Banks) {
			left = c.Banks[s]
		}
		u.Banks = append(u.Banks, left.Milliseconds())
	}
	if c.Seat >= 0 && c.Seat < len(u.Seats) {
		u.Deciding, u.Reminded = c.Seat, c.Reminded > 0
		switch {
		case !c.Since.IsZero():
			u.DecidingAt = c.Since.UnixMilli()
		case !c.PausedAt.IsZero():
			u.DecidingAt = c.PausedAt.UnixMilli()
		}
	}
	if !c.PausedAt.IsZero() {
		u.PausedAt = c.PausedAt.UnixMilli()
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// oldMoves are the verbs of the buttons of DIX's own table that were one
// move each.
var oldMoves = map[string]dix.ActionKind{
	VerbDraw: dix.ActDraw, VerbStop: dix.ActStop, VerbNumbers: dix.ActTakeNumbers, VerbMoney: dix.ActTakeMoney,
	VerbEndTurn: dix.ActEndTurn, VerbConsol: dix.ActConsolation, VerbBustBuy: dix.ActBustBuy, VerbPass: dix.ActPass,
}

// OldClick reads a component of DIX's own table (present.Game.OldClick):
// a button of one move is that move, a bid of an amount the bid, the
// buttons that opened the market, the auction's bids or a payment open
// the private prompt, a card chosen in the market shows its payment step,
// the hand and the board as text their steps, a computer player chosen in
// the lobby is seated. The steps of the old payment picker and the old
// forms mean nothing now.
func OldClick(verb, arg string, values []string) (present.OldClick, bool) {
	if k, ok := oldMoves[verb]; ok && arg == "" {
		return present.OldClick{Move: dix.FormatMove(dix.Action{Kind: k})}, true
	}
	switch verb {
	case VerbBidAmount:
		n, err := strconv.Atoi(arg)
		if err != nil || n < 1 || n > MaxNumber {
			return present.OldClick{}, false
		}
		return present.OldClick{Move: dix.FormatMove(dix.Action{Kind: dix.ActBid, Amount: n})}, true
	case VerbBid, VerbBuy, VerbPay:
		return present.OldClick{Prompt: true}, arg == ""
	case VerbHand:
		return present.OldClick{Next: stepHand}, arg == ""
	case VerbBoardText:
		return present.OldClick{Next: stepText}, arg == ""
	case VerbBuySelect:
		if len(values) != 1 || arg != "" {
			return present.OldClick{}, false
		}
		c, err := dix.ParseCard(values[0])
		if err != nil {
			return present.OldClick{}, false
		}
		return present.OldClick{Next: "b " + c.String()}, true
	case "addcpu":
		if len(values) != 1 || arg != "" {
			return present.OldClick{}, false
		}
		return present.OldClick{Level: values[0]}, true
	}
	return present.OldClick{}, false
}

// UpgradeSettings reads the settings DIX's own table kept for a channel:
// its pace names are the shared table's names of DIX's paces (clock's),
// its variant "bust" is the option bust on, "standard" off, and its solo
// difficulty, within the rules' bounds (§5), the option difficulty.
// Values out of bounds are left out, for the defaults to apply.
func UpgradeSettings(old present.OldSettings) (pace string, opts map[string]string) {
	opts = map[string]string{}
	switch old.Variant {
	case "bust":
		opts[dix.OptBust] = "on"
	case "standard":
		opts[dix.OptBust] = "off"
	}
	if old.Difficulty >= dix.MinDifficulty && old.Difficulty <= dix.MaxDifficulty {
		opts[dix.OptDifficulty] = strconv.Itoa(old.Difficulty)
	}
	for _, p := range Paces {
		if p.Name == old.Pace {
			pace = old.Pace
		}
	}
	return pace, opts
}
