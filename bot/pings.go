package bot

import (
	"slices"
	"time"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/locales"
)

// Pings of games: when decisions open, the people who must make
// them and are not at the board get one message mentioning them all; it is
// edited (never deleted) once their decisions are made or a newer ping
// replaces it. A seat whose player clicked within pingPresent is at the
// board and is not pinged; a forced decision or a computer seat's is never
// waited for, so never pinged for.
const pingPresent = time.Minute

// pingPlan is the ping work an update owes after its answer.
type pingPlan struct {
	settle *pingMsg // the ping to edit as settled
	users  []string // the people to ping now
	names  []string
	opens  []uint64 // by user: the state version their decision opened at
}

// pingMsg is a ping message as the table data keeps it.
type pingMsg struct {
	ID    string   `json:"id"`
	Via   *Via     `json:"v,omitempty"`
	Users []string `json:"u,omitempty"`
	Names []string `json:"n,omitempty"`
	Opens []uint64 `json:"o,omitempty"` // by user: the state version the decision pinged for opened at
	// Eff is the effect that posts the ping, while its message is not
	// known (ID "").
	Eff uint32 `json:"e,omitempty"`
}

// planPings works out, inside an update, who is to be pinged: seats whose
// decision opened at version since or later (td.Open: in this update),
// played by people other than clicker (-1: none) who did not act within
// pingPresent, nor were called by a rematch's lobby within it. The
// current ping is settled when none of its users is still at the decision
// it was pinged for, or when a new ping replaces it.
func planPings(st engine.State, td *tableData, since uint64, clicker int, now time.Time) pingPlan {
	var p pingPlan
	deciding := st.ToDecide()
	for _, s := range deciding {
		if s == clicker || s >= len(td.Seats) || td.Seats[s].Level != "" || td.Seats[s].User == "" {
			continue
		}
		if s >= len(td.Open) || td.Open[s] < since {
			continue // not opened in this update
		}
		if s < len(td.Acted) && now.Sub(time.UnixMilli(td.Acted[s])) < pingPresent {
			continue
		}
		if slices.Contains(td.Called, td.Seats[s].User) && now.Sub(time.UnixMilli(td.CalledAt)) < pingPresent {
			continue // the rematch's lobby called them a moment ago
		}
		p.users = append(p.users, td.Seats[s].User)
		p.names = append(p.names, td.Seats[s].Name)
		p.opens = append(p.opens, td.Open[s])
	}
	if td.Ping != nil {
		still := false
		for _, s := range deciding {
			if s >= len(td.Seats) || s >= len(td.Open) {
				continue
			}
			if i := slices.Index(td.Ping.Users, td.Seats[s].User); i >= 0 && i < len(td.Ping.Opens) && td.Ping.Opens[i] == td.Open[s] {
				still = true
			}
		}
		if !still || len(p.users) > 0 || st.Over() {
			p.settle = td.Ping
			td.Ping = nil
		}
	}
	return p
}

// noteActed records that seat acted at now.
func noteActed(td *tableData, seat int, now time.Time) {
	if seat < 0 || seat >= len(td.Seats) {
		return
	}
	if len(td.Acted) < len(td.Seats) {
		td.Acted = append(td.Acted, make([]int64, len(td.Seats)-len(td.Acted))...)
	}
	td.Acted[seat] = now.UnixMilli()
}

// repointPing makes the ping still waiting for a decision lead to the
// board as it is now (posted again): the ping message is edited, or the
// ping still to be posted says so. An edit notifies nobody.
func (td *tableData) repointPing(r *dixbot.Record, g *present.Game, now time.Time) {
	p := td.Ping
	if p == nil || len(p.Users) == 0 {
		return
	}
	text := locales.T(td.Lang, "table_ping", map[string]any{"Mentions": Mentions(p.Users),
		"Game": En(g.Rules.Name() + "_title"), "URL": messageURL(r.Guild, r.Channel, td.Board)})
	if p.ID != "" {
		td.owe(r, now, effect{Kind: effSettle, Msg: p.ID, Via: p.Via, Text: text})
		return
	}
	for i, e := range td.Outbox {
		if e.ID == p.Eff && e.Kind == effPing {
			td.Outbox[i].Text = text
		}
	}
}

// unping takes user, who left their seat to the computer, out of the
// ping still to be posted: nobody is notified of a decision the computer
// makes for them. A ping posted already stays as it was (it was true when
// it went out).
func (td *tableData) unping(r *dixbot.Record, g *present.Game, user string) {
	p := td.Ping
	if p == nil || p.ID != "" {
		return
	}
	i := slices.Index(p.Users, user)
	if i < 0 {
		return
	}
	p.Users = slices.Delete(p.Users, i, i+1)
	if i < len(p.Names) {
		p.Names = slices.Delete(p.Names, i, i+1)
	}
	if i < len(p.Opens) {
		p.Opens = slices.Delete(p.Opens, i, i+1)
	}
	for k, e := range td.Outbox {
		if e.ID != p.Eff || e.Kind != effPing {
			continue
		}
		if len(p.Users) == 0 {
			td.Outbox = slices.Delete(td.Outbox, k, k+1)
			td.Ping = nil
			return
		}
		td.Outbox[k].Users = slices.Clone(p.Users)
		td.Outbox[k].Text = locales.T(td.Lang, "table_ping", map[string]any{"Mentions": Mentions(p.Users),
			"Game": En(g.Rules.Name() + "_title"), "URL": messageURL(r.Guild, r.Channel, td.Board)})
		return
	}
}
