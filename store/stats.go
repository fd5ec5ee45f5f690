package store

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/rating"
)

// Both stores implement dixbot.Stats: per server, the results of finished
// games, each person's totals and rating per game, and the solo records
// against ALIX per difficulty. The arithmetic of a recording is here, shared;
// each store reads the records a result touches, calls applyResult and
// writes what it returns, in one atomic step, with the result's id as the
// guard that makes a second recording of the same game change nothing.

var (
	_ dixbot.Stats = (*Redis)(nil)
	_ dixbot.Stats = (*File)(nil)
)

// checkResult refuses a result the statistics cannot key: no server, no
// game, no id, no seat, or a game name the keys cannot hold.
func checkResult(r *dixbot.Result) error {
	switch {
	case r == nil:
		return fmt.Errorf("%w: nil result", ErrBadRecord)
	case r.Guild == "" || r.Game == "" || r.ID == "":
		return fmt.Errorf("%w: result without server, game or id", ErrBadRecord)
	case strings.ContainsAny(r.Game, ":\x00{}") || strings.ContainsAny(r.Guild, "\x00{}"):
		return fmt.Errorf("%w: game %q or server %q", ErrBadRecord, r.Game, r.Guild)
	case len(r.Seats) == 0:
		return fmt.Errorf("%w: result without seats", ErrBadRecord)
	}
	return nil
}

// people lists the distinct people of a result, in seat order.
func people(r *dixbot.Result) []string {
	var out []string
	for _, s := range r.Seats {
		if s.User != "" && !contains(out, s.User) {
			out = append(out, s.User)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// computerLevel maps a seat's level to rating's computer levels.
func computerLevel(level string) int {
	switch level {
	case "easy":
		return rating.Easy
	case "strong":
		return rating.Strong
	}
	return rating.Normal
}

// applyResult updates, in place, the records of the result's people: the
// game's totals and ratings in ps (by user; missing entries are created), or
// for a solo game the record of its difficulty in solo (by user). A game
// between players is rated when it has at least two seats: every person's
// rating moves by rating.RateFixed, the computer seats counting as fixed
// players of their level (rating.Computer); every person's Ahead and
// Faced add their seat's placement. Solo games are not rated.
func applyResult(r *dixbot.Result, ps map[string]*dixbot.PlayerStats, solo map[string]*dixbot.SoloStats) {
	if r.Solo > 0 {
		for _, s := range r.Seats {
			if s.User == "" {
				continue
			}
			st := solo[s.User]
			if st == nil {
				st = &dixbot.SoloStats{Difficulty: r.Solo}
				solo[s.User] = st
			}
			if st.Played == 0 || s.Score > st.Best {
				st.Best = s.Score
			}
			st.Played++
			if s.Rank == 1 {
				st.Won++
			}
		}
		return
	}
	seen := map[string]bool{}
	var teams [][]rating.Rating
	var fixed [][]bool
	var ranks []int
	var who []string // by team: the person, "" for a computer
	for i, s := range r.Seats {
		if s.User == "" {
			teams = append(teams, []rating.Rating{rating.Computer(computerLevel(s.Level))})
			fixed = append(fixed, []bool{true})
			ranks = append(ranks, s.Rank)
			who = append(who, "")
			continue
		}
		if seen[s.User] {
			continue
		}
		seen[s.User] = true
		st := ps[s.User]
		if st == nil {
			st = &dixbot.PlayerStats{Game: r.Game}
			ps[s.User] = st
		}
		st.Game = r.Game
		if s.Name != "" {
			st.Name = s.Name
		}
		if st.Played == 0 || s.Score > st.Best {
			st.Best = s.Score
		}
		st.Played++
		st.Total += s.Score
		if s.Rank == 1 {
			st.Won++
		}
		ahead, faced := placement(r, i)
		st.Ahead += ahead
		st.Faced += faced
		cur := rating.New()
		if st.Rated {
			cur = rating.Rating{Mu: st.Mu, Sigma: st.Sigma}
		}
		teams = append(teams, []rating.Rating{cur})
		fixed = append(fixed, []bool{false})
		ranks = append(ranks, s.Rank)
		who = append(who, s.User)
	}
	if len(teams) < 2 {
		return
	}
	after := rating.RateFixed(teams, ranks, fixed)
	for i, u := range who {
		if u == "" {
			continue
		}
		st := ps[u]
		st.Mu, st.Sigma, st.Rated = after[i][0].Mu, after[i][0].Sigma, true
	}
}

// placement is how many of the result's other seats the seat i finished
// ahead of, and how many there were: the seats of other people and the
// computer seats. Tied seats share a rank, as the rating has them: a tie
// is neither ahead nor behind.
func placement(r *dixbot.Result, i int) (ahead, faced int) {
	me := r.Seats[i]
	for j, s := range r.Seats {
		if j == i || (s.User != "" && s.User == me.User) {
			continue
		}
		faced++
		if s.Rank > me.Rank {
			ahead++
		}
	}
	return ahead, faced
}

// ordinal is the leaderboard's score of a record: Mu − 3·Sigma.
func ordinal(p *dixbot.PlayerStats) float64 {
	return rating.Ordinal(rating.Rating{Mu: p.Mu, Sigma: p.Sigma})
}

// sortSolo orders solo records easiest first.
func sortSolo(s []dixbot.SoloStats) {
	slices.SortFunc(s, func(a, b dixbot.SoloStats) int { return a.Difficulty - b.Difficulty })
}

// scrub takes user's id and name out of a stored result; ok is false when
// the result does not hold them (or cannot be read, and is left as is).
func scrub(val []byte, user string) ([]byte, bool) {
	var r dixbot.Result
	if err := json.Unmarshal(val, &r); err != nil {
		return nil, false
	}
	changed := false
	for i := range r.Seats {
		if r.Seats[i].User == user {
			r.Seats[i].User, r.Seats[i].Name = "", ""
			changed = true
		}
	}
	if !changed {
		return nil, false
	}
	out, err := json.Marshal(&r)
	return out, err == nil
}
