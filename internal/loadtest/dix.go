package loadtest

import (
	"context"
	"slices"
	"strings"

	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/locales"
)

// DIX is played as a person plays it on the shared table: the board's
// embed marks the player who decides (👉); they click one of its moves
// (draw, stop, numbers...) or the button that opens their private prompt
// (a purchase, a bid, the auction's payment), drawn by weight so that
// games see busts, auctions and purchases. In the prompt they pick a card
// of the market (by colour first when the market holds more than a menu),
// pay what the payment step proposes, bid a random amount or pass; a bid
// that wins turns the prompt into the payment, paid there. A card too
// dear ends the turn from the board instead.

// dixWeights weigh the board's decisions by move, "pr" the prompt.
var dixWeights = map[string]int{"draw": 5, "stop": 3, "numbers": 3, "money": 1, "end": 1, "consolation": 1, "bustbuy": 1, "pass": 1,
	verbPrompt: 4}

// dixPromptSteps bounds the interactions of one decision in a prompt.
const dixPromptSteps = 12

// dixGame reads DIX's boards in one language, for one table's players.
type dixGame struct {
	lang   string
	names  []string
	marker string // what starts the field of the player who decides
	score  string // the final scoreboard's title
	done   string // what starts a prompt whose decision was applied
}

func newDixGame(lang string, names []string) dixGame {
	return dixGame{lang: lang, names: names, marker: locales.T(lang, "dix_marker_to_act", nil), score: locales.T(lang, "dix_score_title", nil),
		done: locales.T(lang, "table_prompt_done", nil)}
}

func (d dixGame) read(m fakediscord.Message) (view, bool) {
	if len(m.Embeds) > 0 && m.Embeds[0].Title == d.score {
		return view{msg: m, over: true}, true
	}
	buttons, version := decisionButtons(m)
	if len(buttons) == 0 || len(m.Embeds) == 0 {
		return view{}, false
	}
	v := view{msg: m, version: version, buttons: buttons, deciding: map[string]string{}, round: m.Embeds[0].Title}
	for _, e := range m.Embeds {
		for _, f := range e.Fields {
			if rest, ok := strings.CutPrefix(f.Name, d.marker); ok {
				for _, n := range namesIn(rest, d.names) {
					v.deciding[n] = f.Name
				}
			}
		}
	}
	return v, true
}

func (d dixGame) decide(ctx context.Context, t *table, p *player, v view) outcome {
	o := outcome{name: p.Username, next: v.version}
	id := chooseWeighted(p, v.buttons)
	r, err := t.click(ctx, p.rng, p.User, v.msg.ID, id.raw)
	if err != nil {
		o.err = tolerate(&o, err)
		return o
	}
	if id.verb == verbMove {
		if r.Type == fakediscord.CallbackUpdateMessage && !r.Ephemeral() {
			o.applied++
			o.next = v.version + 1
		} else {
			o.refused++
		}
		return o
	}
	d.prompt(ctx, t, p, v, r, &o)
	return o
}

// chooseWeighted draws one of the board's decisions by dixWeights.
func chooseWeighted(p *player, ids []customID) customID {
	key := func(id customID) string {
		if id.verb == verbPrompt {
			return verbPrompt
		}
		w, _, _ := strings.Cut(id.arg, " ")
		return w
	}
	total := 0
	for _, id := range ids {
		total += max(1, dixWeights[key(id)])
	}
	n := p.rng.IntN(total)
	for _, id := range ids {
		if n -= max(1, dixWeights[key(id)]); n < 0 {
			return id
		}
	}
	return ids[0]
}

// promptStep is what a prompt's step offers: its moves (buttons and
// menu entries "mv:") and its menu's steps ("st:").
type promptStep struct {
	msg   fakediscord.Message
	sel   string   // the menu's custom id
	moves []choice // the moves, buttons or menu entries
	steps []string // the menu's values that show a step
}

// choice is a move of a prompt: a button, or a value of its menu.
type choice struct {
	id    customID // the button
	value string   // the menu's value ("" for a button)
}

func readStep(m fakediscord.Message) promptStep {
	s := promptStep{msg: m}
	for _, c := range controls(m) {
		id, _ := parseCustomID(c.CustomID)
		switch id.verb {
		case verbMove:
			s.moves = append(s.moves, choice{id: id})
		case verbSelect:
			s.sel = c.CustomID
			for _, opt := range c.Options {
				switch {
				case strings.HasPrefix(opt.Value, "mv:"):
					s.moves = append(s.moves, choice{id: id, value: opt.Value})
				case strings.HasPrefix(opt.Value, "st:"):
					s.steps = append(s.steps, opt.Value)
				}
			}
		}
	}
	return s
}

// prompt goes through the private prompt r shows to a decision: a market
// card and its payment as proposed, or a bid (or pass), and the payment
// of a bid that wins.
func (d dixGame) prompt(ctx context.Context, t *table, p *player, v view, r *fakediscord.Response, o *outcome) {
	for range dixPromptSteps {
		if r == nil || r.Message == nil || !r.Ephemeral() {
			o.refused++ // no prompt: the board had moved on
			return
		}
		s := readStep(*r.Message)
		var c choice
		switch {
		case len(s.moves) == 0 && len(s.steps) > 0:
			// The market's colours or cards.
			var err error
			if r, err = t.pick(ctx, p.rng, p.User, s.msg.ID, s.sel, s.steps[p.rng.IntN(len(s.steps))]); err != nil {
				o.err = tolerate(o, err)
				return
			}
			continue
		case len(s.moves) == 0:
			// A card too dear (only Back): the turn ends instead.
			if end, ok := v.move("end"); ok {
				rr, err := t.click(ctx, p.rng, p.User, v.msg.ID, end.raw)
				if err != nil {
					o.err = tolerate(o, err)
				} else if rr.Type == fakediscord.CallbackUpdateMessage && !rr.Ephemeral() {
					o.applied++
					o.next = max(o.next, end.version+1)
					return
				}
			}
			o.refused++
			return
		default:
			c = payFirst(p, s.moves)
		}
		var err error
		if c.value != "" {
			r, err = t.pick(ctx, p.rng, p.User, s.msg.ID, s.sel, c.value)
		} else {
			r, err = t.click(ctx, p.rng, p.User, s.msg.ID, c.id.raw)
		}
		if err != nil {
			o.err = tolerate(o, err)
			return
		}
		if r.Message == nil || !strings.HasPrefix(r.Message.Content, d.done) {
			o.refused++ // redrawn with the refusal on top
			return
		}
		o.applied++
		o.next = max(o.next, c.id.version+1)
		if len(controls(*r.Message)) == 0 {
			return
		}
		// The same prompt asks again ("your bid won, now pay").
	}
}

// payFirst is the payment a step proposes (its Pay button) when it has
// one, else a random move among moves (a bid, pass).
func payFirst(p *player, moves []choice) choice {
	if i := slices.IndexFunc(moves, func(c choice) bool {
		return c.value == "" && (strings.HasPrefix(c.id.arg, "buy ") || c.id.arg == "pay" || strings.HasPrefix(c.id.arg, "pay "))
	}); i >= 0 {
		return moves[i]
	}
	return moves[p.rng.IntN(len(moves))]
}
