package loadtest

import (
	"context"
	"strconv"
	"strings"

	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/locales"
)

// Dixxit is played as people play it: the clue-giver the board names
// opens their private prompt (My picture…) and gives a clue, typed in
// the prompt's form or said aloud, one or the other at random; then every
// guesser the board waits for races to a square at once, each after their
// own think time, on a square the board shows free. A guesser who reaches
// a square just taken (X7) picks another free one at once, as a person
// would. Computer seats (Config.Computers) give clues and race by
// themselves.

// dixxitAloud is the share of clues said aloud rather than typed.
const dixxitAloud = 0.5

// dixxitTries bounds a guesser's clicks on squares taken before them.
const dixxitTries = 4

// buttonPrimary is the style of a square no finger holds.
const buttonPrimary = 1

// dixxitGame reads Dixxit's boards in one language, for one table's
// players.
type dixxitGame struct {
	names []string
	over  string // what starts the final scoreboard
	turn  string // what the board's title says before the turn's number
	clue  string // what says who gives the clue, before the name
	guess string // what says who is still to guess, before the names
	done  string // what starts a prompt whose decision was applied
}

func newDixxitGame(lang string, names []string) dixxitGame {
	return dixxitGame{
		names: names,
		over:  locales.T(lang, "dixxit_over_title", nil),
		turn:  before(locales.N(lang, "dixxit_board_title", 2, map[string]any{"Turn": "\x00", "Name": "", "Pile": 2})),
		clue:  before(locales.T(lang, "dixxit_waiting_clue", map[string]any{"Name": "\x00"})),
		guess: before(locales.T(lang, "dixxit_waiting_guess", map[string]any{"Names": "\x00"})),
		done:  locales.T(lang, "table_prompt_done", nil),
	}
}

func (d dixxitGame) read(m fakediscord.Message) (view, bool) {
	buttons, version := decisionButtons(m)
	if len(buttons) == 0 {
		// The final scoreboard: its title, and Rematch only.
		return view{msg: m, over: true}, strings.HasPrefix(m.Content, d.over)
	}
	v := view{msg: m, version: version, buttons: buttons, deciding: map[string]string{}}
	for _, line := range strings.Split(m.Content, "\n") {
		var who string
		switch {
		case strings.HasPrefix(line, d.turn):
			v.turn = leadingNumber(line[len(d.turn):])
		case strings.HasPrefix(line, d.clue):
			who = line[len(d.clue):]
		case strings.HasPrefix(line, d.guess):
			who = line[len(d.guess):]
		}
		for _, n := range namesIn(who, d.names) {
			v.deciding[n] = line
		}
	}
	return v, true
}

func (d dixxitGame) decide(ctx context.Context, t *table, p *player, v view) outcome {
	o := outcome{name: p.Username, next: v.version + 1}
	for _, id := range v.buttons {
		if id.verb == verbPrompt {
			d.giveClue(ctx, t, p, v, id, &o)
			return o
		}
	}
	d.race(ctx, t, p, v, &o)
	return o
}

// giveClue opens the clue-giver's prompt with the board's button pr and
// gives the clue: said aloud, or typed in the prompt's form.
func (d dixxitGame) giveClue(ctx context.Context, t *table, p *player, v view, pr customID, o *outcome) {
	r, err := t.click(ctx, p.rng, p.User, v.msg.ID, pr.raw)
	if err != nil {
		o.err = tolerate(o, err)
		return
	}
	if r.Message == nil || !r.Ephemeral() {
		o.refused++
		return
	}
	prompt := *r.Message
	aloud := withVerb(prompt, verbMove)
	form := withVerb(prompt, verbModal)
	if len(aloud) > 0 && (len(form) == 0 || p.rng.Float64() < dixxitAloud) {
		r, err = t.click(ctx, p.rng, p.User, prompt.ID, aloud[0].raw)
	} else if len(form) > 0 {
		r, err = d.typeClue(ctx, t, p, prompt.ID, form[0])
	} else {
		o.refused++
		return
	}
	switch {
	case err != nil:
		o.err = tolerate(o, err)
	case r.Message != nil && strings.HasPrefix(r.Message.Content, d.done):
		o.applied++
	default:
		o.refused++
	}
}

// typeClue opens the clue's form with its button md and submits a clue.
func (d dixxitGame) typeClue(ctx context.Context, t *table, p *player, promptID string, md customID) (*fakediscord.Response, error) {
	opened, r, err := t.interactAfter(ctx, kindButton, think(t.cfg, p.rng), func(ctx context.Context) (*fakediscord.Interaction, error) {
		return t.fake.Click(ctx, p.ID, promptID, md.raw)
	})
	if err != nil {
		return nil, err
	}
	if r.Type != fakediscord.CallbackModal {
		return r, nil // refused: the answer says why
	}
	clue := "clue " + strconv.Itoa(p.rng.IntN(1000))
	_, r, err = t.interactAfter(ctx, kindModal, think(t.cfg, p.rng), func(ctx context.Context) (*fakediscord.Interaction, error) {
		return t.fake.SubmitModal(ctx, p.ID, opened, map[string]string{"text": clue})
	})
	return r, err
}

// race puts p's finger on a square the board shows free, and on another
// at once when one is refused (taken just before).
func (d dixxitGame) race(ctx context.Context, t *table, p *player, v view, o *outcome) {
	tried := map[string]bool{}
	wait := think(t.cfg, p.rng)
	m := v.msg
	for range dixxitTries {
		free := freeSquares(m, tried)
		if len(free) == 0 {
			return
		}
		sq := free[p.rng.IntN(len(free))]
		tried[sq.arg] = true
		_, r, err := t.interactAfter(ctx, kindButton, wait, func(ctx context.Context) (*fakediscord.Interaction, error) {
			return t.fake.Click(ctx, p.ID, m.ID, sq.raw)
		})
		if err != nil {
			o.err = tolerate(o, err)
			return
		}
		if r.Type == fakediscord.CallbackUpdateMessage && !r.Ephemeral() {
			o.applied++
			return
		}
		o.refused++
		wait = 0
		var ok bool
		if m, ok = t.fake.Message(m.ID); !ok {
			return
		}
	}
}

// freeSquares are m's square buttons no finger holds, but those tried.
func freeSquares(m fakediscord.Message, tried map[string]bool) []customID {
	var out []customID
	for _, c := range controls(m) {
		id, _ := parseCustomID(c.CustomID)
		if id.verb == verbMove && strings.HasPrefix(id.arg, "f ") && c.Style == buttonPrimary && !tried[id.arg] {
			out = append(out, id)
		}
	}
	return out
}
