package qwixx_test

import (
	"fmt"

	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/qwixx"
)

// A roll of a two-seat game through the engine contract: both seats decide
// on the white sum at once, then the active seat alone on a colour sum.
func Example() {
	st, err := qwixx.Rules{}.New(engine.Setup{Players: 2, Seed: 1, First: 0})
	if err != nil {
		panic(err)
	}
	g := st.(qwixx.State).Game()
	_ = g.SetRoll(qwixx.Roll{4, 1, 2, 3, 5, 6}) // W4 W1 r2 y3 g5 b6, for the example
	fmt.Println(g.Dice, "white sum", g.Dice.WhiteSum(), "deciding", st.ToDecide())
	for _, d := range []struct {
		seat int
		move engine.Move
	}{{1, "w y5"}, {0, "w r5"}, {0, "c b10"}} {
		evs, err := st.Apply(d.seat, d.move)
		if err != nil {
			panic(err)
		}
		for _, e := range evs {
			if e := e.(qwixx.Event); e.Kind == qwixx.EvMarked {
				fmt.Printf("seat %d marked %s%d in action %d\n", e.Seat, e.Color, e.Number, e.Action)
			}
		}
		fmt.Println("deciding", st.ToDecide())
	}
	fmt.Println(g.Sheets[0], "|", g.Sheets[1], "| scores", g.Sheets[0].Score(), g.Sheets[1].Score())
	// Output:
	// W4 W1 r2 y3 g5 b6 white sum 5 deciding [0 1]
	// seat 1 marked y5 in action 1
	// deciding [0]
	// seat 0 marked r5 in action 1
	// deciding [0]
	// seat 0 marked b10 in action 2
	// deciding [0 1]
	// r5 b10 | y5 | scores 2 1
}
