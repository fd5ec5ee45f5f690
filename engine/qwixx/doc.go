// Package qwixx is the rules of Qwixx (Steffen Benndorf; French edition
// Gigamic): the score sheet, the state of one game, the transition
// function Apply, scoring, the compact serialised form, and Qwixx as an
// engine.Game (Rules, State).
//
// The package is a pure transition function: state + decision → new state
// + events, or a typed error (errors.go) and no change at all. Events say
// what happened; rendering them is the caller's business. It must never
// depend on I/O, Discord, the store, the bot, locale strings, logging, the
// clock or global randomness: every roll comes from Options.Seed and the
// roll's number (math/rand/v2 PCG), so the same seed and the same
// decisions give the same game, byte for byte. It imports nothing of this
// module but the engine contract.
//
// Rulings in comments (Q1 … Q12, §4 …) refer to the rules specification
// docs/QWIXX-RULES.md (the French rulebook restated, with the rulings).
//
// # A turn
//
// The active seat's roll is made when the turn starts (Game.Dice). In
// action 1 (PhaseWhite) every seat decides at once on the white sum:
// ToDecide lists all the seats that have not decided; each decision is
// final (Q12) and is judged against the sheets and locks as they stood
// before action 1 (Q4). Once the last seat decided, the rows locked in
// action 1 are locked for everyone and their dice removed (Q5); the game
// ends there on two locks (Q8), or action 2 (PhaseColour) asks the active
// seat alone. Its pass without an action 1 mark is a penalty (§3). Then the
// next seat rolls.
//
// # Moves
//
//	w r7   action 1: mark the white sum 7 in the red row   w -  mark nothing
//	c b10  action 2: mark 10 in blue (a white die + blue)   c -  mark nothing
//
// Marking a row's last number marks its lock. A seat that may mark nothing
// has only the pass: State.Forced returns it, so the table takes it
// without asking.
//
// The active seat may give both decisions at once ("w r7 c b10", a Plan):
// the action 2 part waits, shown only in that seat's own view, until every
// seat has decided on the white sum; it then applies at once, or is
// dropped (EvPlanDropped) when a row locked in action 1 forbids it (Q5),
// and the seat decides action 2 as usual. LegalPlans lists the plans open
// with an action 1 decision.
//
// # Solitaire
//
// Options{Players: 1, Solitaire: true} (engine.Setup Options
// {"solitaire": "1"}): one sheet, active on every roll; the game ends on
// its fourth penalty or on two locked rows.
//
// # For computer players and tools
//
//	Rules{}.New / Decode, State.Game()     the *Game behind a contract State
//	g.LegalActions(seat), g.AppendLegal   every decision open to a seat, passing last
//	g.LegalPlans(a), g.Planned()          action 2 plans open with action 1 decision a; the active seat's plan
//	a.Plan = c.AsPlan()                   an action 1 decision a carrying action 2 decision c ("w r7 c b10")
//	g.Legal(seat, a)                      why a decision is refused (nil: allowed)
//	g.ForcedAction(seat)                  the pass of a seat that may mark nothing
//	g.Apply(seat, a)                      the typed transition (State.Apply parses text)
//	g.Clone(), g.CloneInto(dst)           cheap copies (two small slices)
//	g.Reseed(seed)                        a clone's future rolls from another seed (Q11)
//	g.SetRoll(r)                          a what-if roll on a clone, before any decision
//	g.Sheets[s].Score(), RowPoints(n)     points of a sheet, of n marks in a row (§7)
//	Sheet.CanMark(c, n), Row.CanMark(pos) the marking rule on one sheet (§4, §5)
//	Row.Count(), Row.Right(), Number, Pos  marks, the rightmost mark, numbers ↔ positions
//	g.Results(), g.Winners()              standings, ties sharing a rank (Q10)
//	g.View(seat)                          the JSON-ready view (View)
//	ParseMove, Action.String/Move         the move notation
//	Check, CheckStep                      the invariants of §9, of a state and of a move
//
// A computer player must not read the game's future rolls (Q11): the seed
// is unexported, and a clone played forward must be Reseed'ed first.
package qwixx
