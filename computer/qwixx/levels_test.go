package qwixx

import (
	"math/rand/v2"
	"testing"

	"github.com/dixgame/dixbot/engine/qwixx"
)

// winShare plays games (seeds 1…games) with level first in seat 0 and
// level rest in every other seat, and returns seat 0's share of the wins
// (a tie counts for each winner).
func winShare(t *testing.T, players, games int, first, rest Level) float64 {
	t.Helper()
	wins := 0
	for seed := int64(1); seed <= int64(games); seed++ {
		g, err := qwixx.New(qwixx.Options{Players: players, Seed: seed, First: -1})
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
		for !g.Over() {
			for _, seat := range g.ToDecide() {
				l := rest
				if seat == 0 {
					l = first
				}
				a, err := Decide(g, seat, l, r)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := g.Apply(seat, a); err != nil {
					t.Fatalf("seed %d, seat %d, %s: %v", seed, seat, a, err)
				}
			}
		}
		for _, w := range g.Winners() {
			if w == 0 {
				wins++
			}
		}
	}
	share := float64(wins) / float64(games)
	t.Logf("%d seats: %v in seat 0 against %v wins %.1f%% of %d games", players, first, rest, 100*share, games)
	return share
}

// TestLevelsRankAtFiveSeats: with five seats, where a game is short,
// normal wins clearly more than its even share (20%) against four easy
// players and easy clearly less against four normal ones; strong wins
// clearly more against four normal players. (Over 2,000 games the
// figures are 26.1%, 18.2% and 30.6% for the strong level of one roll
// ahead; 1,000 games keep the test short, 150 for the strong level, whose
// search costs milliseconds a decision.)
func TestLevelsRankAtFiveSeats(t *testing.T) {
	if got := winShare(t, 5, 1000, Normal, Easy); got < 0.235 {
		t.Errorf("normal against four easy wins %.1f%% of 1,000 games", 100*got)
	}
	if got := winShare(t, 5, 1000, Easy, Normal); got > 0.195 {
		t.Errorf("easy against four normal wins %.1f%% of 1,000 games", 100*got)
	}
	if got := winShare(t, 5, 150, Strong, Normal); got < 0.25 {
		t.Errorf("strong against four normal wins %.1f%% of 150 games", 100*got)
	}
}

// TestLevelsRankAtTwoSeats: head to head, strong beats normal and normal
// beats easy (60.8% and 61.4% over 2,000 games, the strong level of one
// roll ahead; 150 games for the strong level, as above).
func TestLevelsRankAtTwoSeats(t *testing.T) {
	if got := winShare(t, 2, 1000, Normal, Easy); got < 0.56 {
		t.Errorf("normal against easy wins %.1f%% of 1,000 games", 100*got)
	}
	if got := winShare(t, 2, 150, Strong, Normal); got < 0.54 {
		t.Errorf("strong against normal wins %.1f%% of 150 games", 100*got)
	}
}
