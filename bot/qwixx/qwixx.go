// Package qwixx is the presenter of Qwixx on the Discord table: the board
// (one picture and a short text), its buttons, the event lines, the
// refusals and the rules, in the reader's language. It imports the rules
// (engine/qwixx), the computer player (computer/qwixx), the pictures
// (picture/qwixx), the locales and the table's presenter contract
// (bot/present), never the table itself.
package qwixx

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot/bot/present"
	computer "github.com/dixgame/dixbot/computer/qwixx"
	"github.com/dixgame/dixbot/engine"
	rules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/locales"
	picture "github.com/dixgame/dixbot/picture/qwixx"
)

// Game returns Qwixx as the table registers it: 2–5 seats (§1), computer
// levels easy, normal and strong, a leaving player's seat played at the
// normal level.
func Game() present.Game {
	levels := make([]string, len(computer.Levels))
	for i, l := range computer.Levels {
		levels[i] = l.String()
	}
	return present.Game{
		Rules:     rules.Rules{},
		Presenter: Presenter{},
		Player: func(level, _ string) engine.Player {
			l, err := computer.ParseLevel(level)
			if err != nil {
				l = computer.Normal
			}
			return computer.Player{Level: l}
		},
		Levels:   levels,
		Default:  computer.Normal.String(),
		MinSeats: 2,
		MaxSeats: 5,
		Paces: []present.Pace{
			{Name: "live", Clock: func(engine.State, int) time.Duration { return DecisionTime }},
			{Name: "evening", Clock: func(engine.State, int) time.Duration { return EveningTime }},
		},
		// Everyone decides on the white sum at once.
		SteadyButtons: true,
		// The strong computer plays its decisions out (milliseconds each,
		// computer/qwixx): worked out before a move's store update.
		Foresight: true,
	}
}

// EveningTime is the time a player has for each decision at the evening
// pace: a game played over a day, each player deciding when they look in.
const EveningTime = 12 * time.Hour

// DecisionTime is the time a player has for each decision: a Qwixx roll
// is short, so the live pace of the table.
const DecisionTime = 90 * time.Second

// Presenter renders Qwixx. It is safe for concurrent use.
type Presenter struct{}

var _ present.Presenter = Presenter{}

// emoji are the rows' colours as shown on buttons and in lines.
var emoji = [4]string{"🔴", "🟡", "🟢", "🔵"}

// colourKeys are the locale keys of the rows' colours, and rowKeys of the
// rows themselves, whose colour agrees with the word for a row ("rangée
// bleue").
var (
	colourKeys = [4]string{"qwixx_colour_red", "qwixx_colour_yellow", "qwixx_colour_green", "qwixx_colour_blue"}
	rowKeys    = [4]string{"qwixx_row_red", "qwixx_row_yellow", "qwixx_row_green", "qwixx_row_blue"}
)

// pictureName is the board picture's file name.
const pictureName = "qwixx.png"

func gameOf(st engine.State) *rules.Game {
	s, ok := st.(rules.State)
	if !ok {
		return nil
	}
	return s.Game()
}

// Board renders the public board: the roll, a line per sheet, the latest
// events, who must decide, and the buttons of the decisions open; once
// over, the final scoreboard.
func (Presenter) Board(t present.Table, st engine.State) present.Board {
	g := gameOf(st)
	if g == nil {
		return present.Board{Content: locales.T(t.Lang, "err_internal", nil)}
	}
	if g.Over() {
		return scoreboard(t, g)
	}
	l := t.Lang
	var sb strings.Builder
	sb.WriteString(locales.T(l, "qwixx_board_title", map[string]any{"Turn": g.Turn, "Name": t.Name(g.Active)}))
	sb.WriteByte('\n')
	sb.WriteString(diceLine(l, g))
	for s := range g.Sheets {
		sb.WriteByte('\n')
		sb.WriteString(sheetLine(t, g, s))
	}
	for _, line := range t.Log {
		sb.WriteByte('\n')
		sb.WriteString(line)
	}
	sb.WriteByte('\n')
	switch {
	case t.Abandoned != "":
		sb.WriteString(t.Abandoned)
	case g.Phase == rules.PhaseWhite:
		sb.WriteString(locales.T(l, "qwixx_waiting_white", map[string]any{"Names": t.LabelList(g.ToDecide()), "Sum": g.Dice.WhiteSum()}))
	default:
		sb.WriteString(locales.T(l, "qwixx_waiting_colour", map[string]any{"Name": t.Label(g.Active)}))
	}
	b := present.Board{Content: sb.String()}
	if t.Abandoned == "" {
		b.Rows = buttons(l, g)
	}
	if t.Pictures {
		in := picture.Board{View: publicView(g), Names: t.Names, Marks: t.PictureMarks(len(t.Names)), Labels: labels(l)}
		withPicture(&b, t, present.PictureKey("qwixx board", pictureName, in), func() ([]byte, error) { return picture.RenderBoard(in) })
	}
	return b
}

// publicView is the public view of g as the pictures draw it: without
// its Seq, which they do not show, so that it does not change their key.
func publicView(g *rules.Game) rules.View {
	v := g.View(engine.Public)
	v.Seq = 0
	return v
}

// labels are the words the pictures show, in l.
func labels(l string) picture.Labels {
	return picture.Labels{Score: locales.T(l, "qwixx_label_score", nil)}
}

// withPicture adds to b the picture draw makes, whose key is key
// (present.PictureKey of everything it shows). When key is t.Kept, the
// picture the message has, it is not drawn: b shows the message's file by
// name.
func withPicture(b *present.Board, t present.Table, key string, draw func() ([]byte, error)) {
	embeds := []*discordgo.MessageEmbed{{Image: &discordgo.MessageEmbedImage{URL: "attachment://" + pictureName}}}
	if key != "" && key == t.Kept {
		b.Embeds, b.Picture = embeds, key
		return
	}
	png, err := draw()
	if err != nil {
		return
	}
	b.Files = []*discordgo.File{{Name: pictureName, ContentType: "image/png", Reader: bytes.NewReader(png)}}
	b.Embeds, b.Picture = embeds, key
}

// diceLine is the roll in words: the white dice and their sum, the
// coloured dice still in play.
func diceLine(l string, g *rules.Game) string {
	var colours []string
	for _, c := range rules.Colors {
		if g.InPlay(rules.DieOf(c)) {
			colours = append(colours, locales.T(l, "qwixx_die", map[string]any{"Emoji": emoji[c], "Value": g.Dice[rules.DieOf(c)]}))
		}
	}
	return locales.T(l, "qwixx_dice", map[string]any{"W1": g.Dice[rules.W1], "W2": g.Dice[rules.W2], "Sum": g.Dice.WhiteSum(),
		"Colours": strings.Join(colours, " ")})
}

// sheetLine is one sheet in short: score, marks per row, penalties.
func sheetLine(t present.Table, g *rules.Game, s int) string {
	sh := &g.Sheets[s]
	rows := make([]string, 0, len(rules.Colors))
	for _, c := range rules.Colors {
		rows = append(rows, rowShort(t.Lang, c, sh.Rows[c]))
	}
	key := "qwixx_sheet_line"
	if slices.Contains(g.ToDecide(), s) {
		key = "qwixx_sheet_line_deciding"
	}
	return locales.N(t.Lang, key, sh.Score(), map[string]any{"Name": t.Label(s), "Score": sh.Score(), "Rows": strings.Join(rows, " "),
		"Penalties": sh.Penalties})
}

// rowShort is a row in short, in language l: its marks counted and its
// last number marked, or its lock. Each is written once and kept: a
// board shows every sheet's rows at every click, and a row's text
// depends on its colour, marks counted, rightmost mark and lock alone.
func rowShort(l string, c rules.Color, r rules.Row) string {
	kept := rowTexts[l]
	if kept == nil || int(c) >= len(rules.Colors) {
		return rowShortText(l, c, r)
	}
	i := ((int(c)*(rules.LockPos+2)+r.Count())*(rules.LockPos+1)+r.Right()+1)*2 + int(r>>rules.LockPos&1)
	if s := kept[i].Load(); s != nil {
		return *s
	}
	s := rowShortText(l, c, r)
	kept[i].Store(&s)
	return s
}

// keptRows are one language's rows' texts (rowShort), by colour, marks
// counted (0 to LockPos+1), rightmost mark (-1 to LockPos-1) and lock.
type keptRows [4 * (rules.LockPos + 2) * (rules.LockPos + 1) * 2]atomic.Pointer[string]

// rowTexts are the rows' texts written, by language.
var rowTexts = func() map[string]*keptRows {
	m := map[string]*keptRows{}
	for _, l := range locales.Languages {
		m[l] = new(keptRows)
	}
	return m
}()

// rowShortText writes rowShort's text.
func rowShortText(l string, c rules.Color, r rules.Row) string {
	marks := r.Numbers(c)
	last := ""
	if len(marks) > 0 {
		last = locales.T(l, "qwixx_row_last", map[string]any{"Number": marks[len(marks)-1]})
	}
	if r.Locked() {
		last = "🔒"
	}
	return locales.T(l, "qwixx_row_short", map[string]any{"Emoji": emoji[c], "Count": r.Count(), "Last": last})
}

// buttons are the board's buttons: in action 1 the white sum in every row
// still open and Pass, for whoever clicks; in action 2 the active seat's
// colour sums and "No colour sum".
func buttons(l string, g *rules.Game) [][]present.Button {
	if g.Phase == rules.PhaseWhite {
		sum := g.Dice.WhiteSum()
		var row []present.Button
		for _, c := range rules.Colors {
			if g.Locked[c] {
				continue
			}
			a := rules.Action{Kind: rules.ActWhite, Color: c, Number: sum}
			row = append(row, present.Button{Label: locales.T(l, "qwixx_btn_white", map[string]any{"Sum": sum}), Emoji: emoji[c],
				Move: a.Move(), Style: discordgo.SecondaryButton})
		}
		row = append(row, present.Button{Label: locales.T(l, "qwixx_btn_pass", nil), Move: rules.Action{Kind: rules.ActWhite, Pass: true}.Move(),
			Style: discordgo.PrimaryButton})
		rows := [][]present.Button{row}
		if g.Deciding(g.Active) {
			rows = append(rows, []present.Button{{Label: locales.T(l, "qwixx_btn_my_turn", nil), Prompt: true, Style: discordgo.SuccessButton}})
		}
		return rows
	}
	var rows [][]present.Button
	var row []present.Button
	pass := present.Button{}
	for _, a := range g.LegalActions(g.Active) {
		if a.Kind != rules.ActColour {
			continue
		}
		if a.Pass {
			key := "qwixx_btn_no_colour"
			if g.Choices[g.Active] == rules.ChoicePass {
				key = "qwixx_btn_no_colour_penalty"
			}
			pass = present.Button{Label: locales.T(l, key, nil), Move: a.Move(), Style: discordgo.DangerButton}
			continue
		}
		w, d := colourDice(g, a.Color, a.Number)
		row = append(row, present.Button{Label: locales.T(l, "qwixx_btn_colour", map[string]any{"Sum": a.Number, "White": w, "Die": d}),
			Emoji: emoji[a.Color], Move: a.Move(), Style: discordgo.SecondaryButton})
		if len(row) == 5 {
			rows = append(rows, row)
			row = nil
		}
	}
	if pass.Move != "" {
		row = append(row, pass)
	}
	if len(row) > 0 {
		rows = append(rows, row)
	}
	return rows
}

// colourDice returns the white die and the colour die that make n in
// row c.
func colourDice(g *rules.Game, c rules.Color, n int) (white, die int) {
	d := int(g.Dice[rules.DieOf(c)])
	for _, w := range []rules.Die{rules.W1, rules.W2} {
		if int(g.Dice[w])+d == n {
			return int(g.Dice[w]), d
		}
	}
	return n - d, d
}

// scoreboard is the final board: the standings in words and the sheets
// drawn in rank order.
func scoreboard(t present.Table, g *rules.Game) present.Board {
	l := t.Lang
	var sb strings.Builder
	sb.WriteString(locales.T(l, "qwixx_over_title", nil))
	for _, line := range t.Log {
		sb.WriteByte('\n')
		sb.WriteString(line)
	}
	for _, r := range g.Results() {
		sb.WriteByte('\n')
		sh := &g.Sheets[r.Seat]
		var rows []string
		for _, c := range rules.Colors {
			rows = append(rows, locales.T(l, "qwixx_row_points", map[string]any{"Emoji": emoji[c], "Points": rules.RowPoints(sh.Rows[c].Count())}))
		}
		sb.WriteString(locales.N(l, "qwixx_result_line", r.Score, map[string]any{"Rank": r.Rank, "Name": t.Name(r.Seat), "Score": r.Score,
			"Rows": strings.Join(rows, " "), "Penalties": sh.Penalties * rules.PenaltyPoints}))
	}
	b := present.Board{Content: sb.String()}
	if t.Pictures {
		in := picture.Scoreboard{View: publicView(g), Names: t.Names, Marks: t.PictureMarks(len(t.Names)), Labels: labels(l)}
		withPicture(&b, t, present.PictureKey("qwixx scoreboard", pictureName, in), func() ([]byte, error) { return picture.RenderScoreboard(in) })
	}
	return b
}

// Events renders the events worth a line: rolls, marks, colour-sum
// passes, penalties, locks and the end (a white-sum pass is left out: the
// board shows who is still to decide).
func (Presenter) Events(t present.Table, evs []engine.Event) []string {
	l := t.Lang
	var out []string
	for _, e := range evs {
		ev, ok := e.(rules.Event)
		if !ok {
			continue
		}
		switch ev.Kind {
		case rules.EvRolled:
			out = append(out, locales.T(l, "qwixx_ev_rolled", map[string]any{"Name": t.Name(ev.Seat), "Sum": ev.Dice.WhiteSum()}))
		case rules.EvMarked:
			if ev.Lock {
				continue // told by the lock's own line
			}
			key := "qwixx_ev_marked_white"
			if ev.Action == 2 {
				key = "qwixx_ev_marked_colour"
			}
			out = append(out, locales.T(l, key, map[string]any{"Name": t.Name(ev.Seat), "Emoji": emoji[ev.Color&3], "Number": ev.Number}))
		case rules.EvPassed:
			if ev.Action == 2 {
				out = append(out, locales.T(l, "qwixx_ev_passed_colour", map[string]any{"Name": t.Name(ev.Seat)}))
			}
		case rules.EvPenalty:
			out = append(out, locales.T(l, "qwixx_ev_penalty", map[string]any{"Name": t.Name(ev.Seat), "Count": ev.Count, "Max": rules.MaxPenalties}))
		case rules.EvLocked:
			out = append(out, locales.T(l, "qwixx_ev_locked", map[string]any{"Names": t.NameList(ev.Seats), "Emoji": emoji[ev.Color&3],
				"Colour": locales.T(l, colourKeys[ev.Color&3], nil)}))
		case rules.EvGameOver:
			key := "qwixx_ev_over_locks"
			if ev.End == rules.EndPenalties {
				key = "qwixx_ev_over_penalties"
			}
			out = append(out, locales.T(l, key, nil))
		case rules.EvPlanDropped:
			out = append(out, locales.T(l, "qwixx_ev_plan_dropped", map[string]any{"Name": t.Name(ev.Seat)}))
		}
	}
	return out
}

// Refusal says why seat may not make move m: the rule it breaks, in the
// seat's own terms ("your red row is past 7").
func (Presenter) Refusal(lang string, st engine.State, seat int, m engine.Move, err error) present.Refusal {
	a, perr := rules.ParseMove(m)
	data := map[string]any{}
	if perr == nil {
		data["Emoji"] = emoji[a.Color&3]
		data["Colour"] = locales.T(lang, colourKeys[a.Color&3], nil)
		data["Row"] = locales.T(lang, rowKeys[a.Color&3], nil)
		data["Number"] = a.Number
		if g := gameOf(st); g != nil && seat >= 0 && seat < len(g.Sheets) && a.Color <= rules.Blue {
			if marks := g.Sheets[seat].Rows[a.Color].Numbers(a.Color); len(marks) > 0 {
				data["Last"] = marks[len(marks)-1]
			}
		}
	}
	key := "qwixx_err_bad_move"
	switch {
	case errors.Is(err, rules.ErrDecided):
		key = "qwixx_err_decided"
	case errors.Is(err, rules.ErrWrongAction) && a.Kind == rules.ActColour:
		key = "qwixx_err_colour_not_yet"
	case errors.Is(err, rules.ErrWrongAction):
		key = "qwixx_err_white_over"
	case errors.Is(err, rules.ErrNotYourTurn), errors.Is(err, engine.ErrNotYourTurn):
		key = "qwixx_err_not_your_turn"
	case errors.Is(err, rules.ErrRowLocked):
		key = "qwixx_err_row_locked"
	case errors.Is(err, rules.ErrDieRemoved):
		key = "qwixx_err_die_removed"
	case errors.Is(err, rules.ErrNotRightOf):
		key = "qwixx_err_not_right_of"
		if _, ok := data["Last"]; !ok {
			data["Last"] = "?"
		}
	case errors.Is(err, rules.ErrLockNeedsFive):
		key = "qwixx_err_lock_needs_five"
	case errors.Is(err, rules.ErrWrongSum):
		key = "qwixx_err_wrong_sum"
	case errors.Is(err, engine.ErrGameOver):
		key = "qwixx_err_game_over"
	}
	if perr != nil && movesKeys[key] {
		// A rule about a mark, for a move that names none: the rules
		// never say so, but the answer must still read.
		key = "qwixx_err_bad_move"
	}
	return present.Refusal{Key: key, Data: data}
}

// movesKeys are the refusals that say the move's row and number.
var movesKeys = map[string]bool{
	"qwixx_err_row_locked": true, "qwixx_err_die_removed": true, "qwixx_err_not_right_of": true,
	"qwixx_err_lock_needs_five": true, "qwixx_err_wrong_sum": true,
}

var (
	_ present.Hinter   = Presenter{}
	_ present.Prompter = Presenter{}
)

// Prompt is the active seat's "My turn…" prompt: both decisions of its
// roll at once, the white sum and the colour sum (Plan), in two steps so
// that no list outgrows a menu. The first step ("") offers the strong
// computer player's plan, whole, then each white-sum decision open; the
// step of a white-sum decision (its move, "w r7" or "w -") offers every
// colour-sum decision that may follow it, each a whole plan. Other seats
// have none (ErrNoPrompt); a draft that is not a white-sum decision the
// seat may take now is ErrBadDraft.
func (Presenter) Prompt(t present.Table, st engine.State, seat int, draft string) (present.Prompt, error) {
	lang := t.Lang
	g := gameOf(st)
	if g == nil || seat != g.Active || g.Phase != rules.PhaseWhite || !g.Deciding(seat) {
		return present.Prompt{}, present.ErrNoPrompt
	}
	plan := func(w rules.Action, c rules.Action) present.Choice {
		w.Plan = c.AsPlan()
		label := locales.T(lang, "qwixx_plan", map[string]any{"White": decision(lang, g, rules.Action{Kind: rules.ActWhite, Pass: w.Pass,
			Color: w.Color, Number: w.Number}), "Colour": decision(lang, g, c)})
		return present.Choice{Label: label, Move: w.Move()}
	}
	p := present.Prompt{Placeholder: locales.T(lang, "qwixx_prompt_placeholder", nil)}
	if draft == "" {
		p.Content = locales.T(lang, "qwixx_prompt", map[string]any{"Sum": g.Dice.WhiteSum()})
		if white, colour, _, ok := computer.Plan(g, seat); ok {
			best := plan(white, colour)
			best.Label = locales.T(lang, "qwixx_plan_best", map[string]any{"Plan": best.Label})
			p.Choices = append(p.Choices, best)
		}
		for _, w := range g.LegalActions(seat) {
			if w.Kind != rules.ActWhite {
				continue
			}
			p.Choices = append(p.Choices, present.Choice{Label: locales.T(lang, "qwixx_step_white", map[string]any{"White": decision(lang, g, w)}),
				Next: w.String()})
		}
		return p, nil
	}
	w, err := rules.ParseMove(engine.Move(draft))
	if err != nil || w.Kind != rules.ActWhite || w.Plan.Set || g.Legal(seat, w) != nil {
		return present.Prompt{}, fmt.Errorf("%w: %q", present.ErrBadDraft, draft)
	}
	p.Content = locales.T(lang, "qwixx_prompt_colour", map[string]any{"Sum": g.Dice.WhiteSum(), "White": decision(lang, g, w)})
	p.Placeholder = locales.T(lang, "qwixx_prompt_colour_placeholder", nil)
	for _, c := range g.LegalPlans(w) {
		p.Choices = append(p.Choices, plan(w, c))
	}
	return p, nil
}

// Hint is what the strong computer player would decide for seat now, with
// the points it expects the seat to end with after each decision open.
func (Presenter) Hint(lang string, st engine.State, seat int) string {
	g := gameOf(st)
	if g == nil || seat < 0 || seat >= g.Players {
		return locales.T(lang, "qwixx_hint_nothing", nil)
	}
	opts := computer.Options(g, seat)
	if len(opts) == 0 {
		return locales.T(lang, "qwixx_hint_nothing", nil)
	}
	// With others at the table the strong level plays the best decisions
	// out (Option.Win) and takes the one Chosen; near the end, where the
	// chance of winning decides, they are ranked by it, first.
	weighed := slices.ContainsFunc(opts, func(o computer.Option) bool { return o.Win >= 0 })
	byWin := weighed && computer.EndNear(g)
	slices.SortStableFunc(opts, func(a, b computer.Option) int {
		switch {
		case byWin && a.Win != b.Win:
			return cmp.Compare(b.Win, a.Win)
		case a.Points > b.Points:
			return -1
		case a.Points < b.Points:
			return 1
		}
		return 0
	})
	// Alone, the points are the exact expectation of perfect play: shown
	// to a tenth.
	best, points := "qwixx_hint_best", func(v float64) any { return int(math.Round(v)) }
	if g.Solitaire {
		best = "qwixx_hint_best_solitaire"
		points = func(v float64) any {
			return strings.Replace(strconv.FormatFloat(v, 'f', 1, 64), ".", locales.T(lang, "decimal_point", nil), 1)
		}
	}
	choice := opts[0].Action
	if weighed {
		if byWin {
			best = "qwixx_hint_best_end"
		}
		if i := slices.IndexFunc(opts, func(o computer.Option) bool { return o.Chosen }); i >= 0 {
			choice = opts[i].Action
		}
	}
	overrule := "qwixx_hint_overrule_clear"
	switch {
	case computer.AnyLeadOverrules(g.Players):
		overrule = "qwixx_hint_overrule_lead"
	case computer.FirstByNetwork(g.Players):
		overrule = "qwixx_hint_overrule_network"
	}
	lines := []string{locales.T(lang, best, map[string]any{"Decision": decision(lang, g, choice), "Overrule": locales.T(lang, overrule, nil)})}
	for _, o := range opts {
		key, d := "qwixx_hint_option", map[string]any{"Decision": decision(lang, g, o.Action), "Points": points(o.Points)}
		if o.Win >= 0 {
			key, d["Win"] = "qwixx_hint_option_win", int(math.Round(100*o.Win))
		}
		lines = append(lines, locales.T(lang, key, d))
	}
	return strings.Join(lines, "\n")
}

// decision is an action in words.
func decision(lang string, g *rules.Game, a rules.Action) string {
	switch {
	case a.Pass && a.Kind == rules.ActWhite:
		return locales.T(lang, "qwixx_btn_pass", nil)
	case a.Pass && g.Choices[g.Active] == rules.ChoicePass:
		return locales.T(lang, "qwixx_btn_no_colour_penalty", nil)
	case a.Pass:
		return locales.T(lang, "qwixx_btn_no_colour", nil)
	case a.Kind == rules.ActWhite:
		return locales.T(lang, "qwixx_decision_white", map[string]any{"Emoji": emoji[a.Color&3], "Number": a.Number})
	}
	w, d := colourDice(g, a.Color, a.Number)
	return locales.T(lang, "qwixx_decision_colour", map[string]any{"Emoji": emoji[a.Color&3], "Sum": a.Number, "White": w, "Die": d})
}

// Rules is the summary of the rules.
func (Presenter) Rules(lang string) string { return locales.T(lang, "qwixx_rules", nil) }
