// Package dixxit is the presenter of Dixxit on the Discord table: the
// public board (the grid as one picture, the clue, the race's buttons),
// the active player's private prompt (the grid with the target framed,
// Give a clue, Said aloud), the event lines, the refusals and the rules,
// in the reader's language. It imports the rules (engine/dixxit), the
// computer player (computer/dixxit), the pictures (picture/dixxit and its
// deck), the locales and the table's presenter contract (bot/present),
// never the table itself.
//
// Secrecy (X11): everything but Prompt is drawn from the public view
// (engine.Public), which holds no target; Prompt is the active player's
// alone.
package dixxit

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot/bot/present"
	computer "github.com/dixgame/dixbot/computer/dixxit"
	"github.com/dixgame/dixbot/engine"
	rules "github.com/dixgame/dixbot/engine/dixxit"
	"github.com/dixgame/dixbot/locales"
	picture "github.com/dixgame/dixbot/picture/dixxit"
	"github.com/dixgame/dixbot/picture/dixxit/deck"
)

// Level is the computer's one level.
const Level = "normal"

// Game returns Dixxit as the table registers it: 3–6 seats (§2), one
// computer level whose clues are in the game's language.
func Game() present.Game {
	return present.Game{
		Rules:     rules.Rules{},
		Presenter: Presenter{},
		Player:    func(_, lang string) engine.Player { return playerIn(lang) },
		Levels:    []string{Level},
		Default:   Level,
		MinSeats:  rules.MinPlayers,
		MaxSeats:  rules.MaxPlayers,
		Paces:     Paces,
		// Computer guessers race like people.
		Reaction: Reaction,
		// The guessers race at once (X7): one's finger must not take the
		// others' square buttons away mid-click.
		SteadyButtons: true,
	}
}

// Paces are Dixxit's clocks (X9), live first (the default): each gives the
// active player a time for the clue and every guesser a time to put a
// finger down once the clue is out. Out of time, the computer's Timeout
// takes the turn's clue-giver's skip or the guesser's "out".
var Paces = []present.Pace{
	pace("live", LiveClue, LiveGuess),
	pace("relaxed", 3*time.Minute, 2*time.Minute),
}

// The live pace's times: Dixxit is a game played together, now.
const (
	LiveClue  = 90 * time.Second
	LiveGuess = 45 * time.Second
)

// pace is a pace of clue seconds for the active player and guess for each
// guesser; nothing else decides in Dixxit.
func pace(name string, clue, guess time.Duration) present.Pace {
	return present.Pace{Name: name, Clock: func(st engine.State, seat int) time.Duration {
		g := gameOf(st)
		switch {
		case g == nil || g.Over():
			return 0
		case g.Phase() == rules.PhaseClue:
			return clue
		default:
			return guess
		}
	}}
}

// players are the computer players by language, built once (the deck's
// keywords are indexed then).
var (
	playersMu sync.Mutex
	players   = map[string]engine.Player{}
)

func playerIn(lang string) engine.Player {
	if !locales.Supported(lang) {
		lang = "en"
	}
	playersMu.Lock()
	defer playersMu.Unlock()
	p, ok := players[lang]
	if !ok {
		p = computer.NewPlayer(deck.Keywords, deck.Synonyms, lang)
		players[lang] = p
	}
	return p
}

// renderer draws the grids, keeping each picture's tile.
var renderer = sync.OnceValue(func() *picture.Renderer { return picture.NewRenderer(deck.Face) })

// The pictures' file names.
const (
	gridName   = "dixxit.png"
	lastName   = "dixxit-scored.png"
	targetName = "dixxit-target.png"
	scoresName = "dixxit-scores.png"
)

// Presenter renders Dixxit. It is safe for concurrent use.
type Presenter struct{}

var (
	_ present.Presenter = Presenter{}
	_ present.Prompter  = Presenter{}
	_ present.Stamper   = Presenter{}
	_ present.Rounder   = Presenter{}
)

// RoundStarts reports whether e starts a turn: the board tells one turn
// at a time.
func (Presenter) RoundStarts(e engine.Event) bool {
	ev, ok := e.(rules.Event)
	return ok && ev.Kind == rules.EvTurnStarted
}

func gameOf(st engine.State) *rules.Game {
	g, _ := st.(*rules.Game)
	return g
}

func squares(sq []int) string {
	var out []string
	for _, s := range sq {
		out = append(out, strconv.Itoa(s))
	}
	return strings.Join(out, ", ")
}

// picked is a picture as an attachment and the embed showing it.
func picked(file string, png []byte) ([]*discordgo.File, []*discordgo.MessageEmbed) {
	return []*discordgo.File{{Name: file, ContentType: "image/png", Reader: bytes.NewReader(png)}},
		[]*discordgo.MessageEmbed{{Image: &discordgo.MessageEmbedImage{URL: "attachment://" + file}}}
}

// Board renders the public board from the public view: the turn, the
// clue once given, the latest events, who must decide, the grid picture
// and the buttons: "My picture" while the clue is awaited, the squares 1–9
// while the guessers race. Once over, the final scoreboard.
func (Presenter) Board(t present.Table, st engine.State) present.Board {
	g := gameOf(st)
	if g == nil {
		return present.Board{Content: locales.T(t.Lang, "err_internal", nil)}
	}
	v := g.ViewOf(engine.Public)
	if g.Over() {
		return scoreboard(t, v)
	}
	l := t.Lang
	var sb strings.Builder
	sb.WriteString(locales.N(l, "dixxit_board_title", v.Pile, map[string]any{"Turn": v.Turn, "Name": t.Name(v.Active), "Pile": v.Pile}))
	// The clue of the turn shows once, under the title: its event line
	// is left out of the latest events.
	told := ""
	switch {
	case v.Aloud:
		sb.WriteString("\n" + locales.T(l, "dixxit_board_aloud", map[string]any{"Name": t.Name(v.Active)}))
		told = locales.T(l, "dixxit_ev_aloud", map[string]any{"Name": t.Name(v.Active)})
	case v.Clue != "":
		// A clue shows as typed (present.Escape), in the board and the log.
		clue := present.Escape(v.Clue)
		sb.WriteString("\n" + locales.T(l, "dixxit_board_clue", map[string]any{"Name": t.Name(v.Active), "Clue": clue}))
		told = locales.T(l, "dixxit_ev_clue", map[string]any{"Name": t.Name(v.Active), "Clue": clue})
	}
	// The board is about this turn (Rounder): while its clue is awaited,
	// how the turn before ended; then its own lines only.
	var lines []string
	if v.Phase == rules.PhaseClue.String() {
		lines = append(lines, t.Ended...)
	}
	for _, line := range append(lines, t.Log...) {
		if line != told {
			sb.WriteString("\n" + line)
		}
	}
	b := present.Board{}
	switch {
	case t.Abandoned != "":
		sb.WriteString("\n" + t.Abandoned)
	case v.Phase == rules.PhaseClue.String():
		sb.WriteString("\n" + locales.T(l, "dixxit_waiting_clue", map[string]any{"Name": t.Label(v.Active)}))
		b.Rows = [][]present.Button{{{Label: locales.T(l, "dixxit_btn_my_picture", nil), Prompt: true, Style: discordgo.SuccessButton}}}
	default:
		sb.WriteString("\n" + locales.T(l, "dixxit_waiting_guess", map[string]any{"Names": t.LabelList(v.Deciding)}))
		held := map[int]bool{}
		for _, f := range v.Fingers {
			held[f.Square] = true
		}
		var row []present.Button
		for sq := 1; sq <= rules.Squares; sq++ {
			if v.Grid[sq-1] == "" {
				continue
			}
			style := discordgo.PrimaryButton
			if held[sq] {
				style = discordgo.SecondaryButton
			}
			row = append(row, present.Button{Label: strconv.Itoa(sq), Move: squareMove(sq, v.Turn), Style: style})
			if len(row) == 5 {
				b.Rows = append(b.Rows, row)
				row = nil
			}
		}
		if len(row) > 0 {
			b.Rows = append(b.Rows, row)
		}
	}
	b.Content = sb.String()
	var pics []pic
	if v.Phase == rules.PhaseClue.String() && v.Last != nil && v.Last.Turn+1 == v.Turn {
		// The turn just scored, before the refill, above the grid of
		// this one.
		pics = append(pics, lastTurn(t, *v.Last))
	}
	pics = append(pics, gridPic(gridName, picture.GridOf(v, t.Names), ""))
	withPictures(&b, t, "dixxit board", pics)
	return b
}

// pic is one picture of a message: its file's name, the input it is
// drawn from (all it shows), how it is drawn, and its embed's title.
type pic struct {
	file  string
	in    any
	draw  func() ([]byte, error)
	title string
}

// gridPic is the picture of grid g in file, titled title.
func gridPic(file string, g picture.Grid, title string) pic {
	return pic{file: file, in: g, draw: func() ([]byte, error) { return renderer().Render(g) }, title: title}
}

// withPictures adds pics to b, each as a file shown by an embed of its
// own, in order, and names them (Board.Picture) by their inputs. When
// that name is t.Kept, the pictures the message has, they are not drawn:
// the embeds show the message's files by name. A picture that cannot be
// drawn is left out, and the files then have no name.
func withPictures(b *present.Board, t present.Table, kind string, pics []pic) {
	parts := []any{kind}
	for _, p := range pics {
		parts = append(parts, p.file, p.in)
	}
	key := present.PictureKey(parts...)
	kept := key != "" && key == t.Kept
	for _, p := range pics {
		e := &discordgo.MessageEmbed{Title: p.title, Image: &discordgo.MessageEmbedImage{URL: "attachment://" + p.file}}
		if !kept {
			png, err := p.draw()
			if err != nil {
				key = ""
				continue
			}
			b.Files = append(b.Files, &discordgo.File{Name: p.file, ContentType: "image/png", Reader: bytes.NewReader(png)})
		}
		b.Embeds = append(b.Embeds, e)
	}
	b.Picture = key
}

// lastTurn is the picture of turn l as it was scored, titled with its
// outcome.
func lastTurn(t present.Table, l rules.Scored) pic {
	key, d := "dixxit_last_not_found", map[string]any{"Turn": l.Turn, "Name": t.Name(l.Active), "Square": l.Target}
	for _, fv := range l.Fingers {
		if fv.Square == l.Found {
			key, d["Finder"] = "dixxit_last_found", t.Name(fv.Seat)
		}
	}
	return gridPic(lastName, picture.LastGrid(l, t.Names), locales.T(t.Lang, key, d))
}

// squareMove is a square button's move: "f N K", the square and the turn
// of the board; Stamp adds the click's time.
func squareMove(square int, turn uint64) engine.Move {
	return engine.Move(fmt.Sprintf("f %d %d", square, turn))
}

// Stamp turns a square button's "f N K" into the finger "f N T K" at the
// click's time T, Discord's own (X7), and a computer guesser's "f N" into
// "f N T"; the prompt's moves (clue, aloud) pass as they are. Any other
// move is not one a person may send.
func (Presenter) Stamp(m engine.Move, click uint64) (engine.Move, error) {
	f := strings.Fields(string(m))
	switch {
	case len(f) == 3 && f[0] == "f":
		sq, err1 := strconv.Atoi(f[1])
		turn, err2 := strconv.ParseUint(f[2], 10, 64)
		if err1 != nil || err2 != nil || sq < 1 || sq > rules.Squares {
			return "", rules.ErrBadSquare
		}
		return rules.FingerMoveOn(sq, click, turn), nil
	case len(f) == 2 && f[0] == "f":
		// A computer guesser's finger, made when its reaction time was
		// over (present.Game.Reaction): at that time.
		sq, err := strconv.Atoi(f[1])
		if err != nil || sq < 1 || sq > rules.Squares {
			return "", rules.ErrBadSquare
		}
		return rules.FingerMove(sq, click), nil
	case len(f) == 1 && f[0] == "aloud":
		return m, nil
	case len(f) > 0 && f[0] == "clue" && strings.HasPrefix(string(m), "clue "):
		return m, nil
	}
	return "", rules.ErrBadMove
}

// scoreboard is the final board: the ranking and each player's cards as
// small pictures.
func scoreboard(t present.Table, v rules.View) present.Board {
	l := t.Lang
	var sb strings.Builder
	sb.WriteString(locales.T(l, "dixxit_over_title", nil))
	for _, line := range t.Log {
		sb.WriteString("\n" + line)
	}
	for _, r := range v.Results {
		sb.WriteString("\n" + locales.N(l, "dixxit_result_line", r.Score, map[string]any{"Rank": r.Rank, "Name": t.Name(r.Seat)}))
	}
	b := present.Board{Content: sb.String()}
	rows := picture.HoldingsOf(v, t.Names, t.PictureMarks(len(t.Names)))
	pics := []pic{{file: scoresName, in: rows, draw: func() ([]byte, error) { return renderer().Scoreboard(rows) }}}
	if v.Last != nil {
		// The last turn, as it was scored.
		pics = append(pics, lastTurn(t, *v.Last))
	}
	withPictures(&b, t, "dixxit scoreboard", pics)
	return b
}

// Prompt is the active player's private prompt while the clue is awaited:
// the grid with their target framed, Give a clue (a form, X4) and Said
// aloud, in one step (draft ""; any other is ErrBadDraft). Nobody else
// has one (ErrNoPrompt; while the clue is awaited, a NoPromptError that
// says who gives it).
func (Presenter) Prompt(t present.Table, st engine.State, seat int, draft string) (present.Prompt, error) {
	lang := t.Lang
	g := gameOf(st)
	if g != nil && !g.Over() && g.Phase() == rules.PhaseClue && g.Active() != seat {
		// Another's picture: they are told whose it is.
		return present.Prompt{}, &present.NoPromptError{Refusal: present.Refusal{Key: "dixxit_err_not_active", Names: map[string]int{"Name": g.Active()}}}
	}
	if g == nil || g.Over() || g.Phase() != rules.PhaseClue || g.Active() != seat {
		return present.Prompt{}, present.ErrNoPrompt
	}
	if draft != "" {
		return present.Prompt{}, fmt.Errorf("%w: %q", present.ErrBadDraft, draft)
	}
	v := g.ViewOf(seat)
	if v.Secret == nil {
		return present.Prompt{}, present.ErrNoPrompt
	}
	p := present.Prompt{
		Content: locales.T(lang, "dixxit_prompt", map[string]any{"Square": v.Secret.Target}),
		Buttons: []present.Button{
			{Label: locales.T(lang, "dixxit_btn_clue", nil), Style: discordgo.PrimaryButton, Modal: &present.Modal{
				Verb: "clue", Title: locales.T(lang, "dixxit_modal_title", nil), Label: locales.T(lang, "dixxit_modal_label", nil),
				Placeholder: locales.T(lang, "dixxit_modal_placeholder", nil), Min: 1, Max: rules.MaxClue,
			}},
			{Label: locales.T(lang, "dixxit_btn_aloud", nil), Move: "aloud", Style: discordgo.SecondaryButton},
		},
	}
	// The names are not needed to find one's own picture; the fingers of
	// a turn waiting for its clue are none.
	if png, err := renderer().Render(picture.GridOf(v, nil)); err == nil {
		p.Files, p.Embeds = picked(targetName, png)
	}
	return p, nil
}

// Events renders what happened: the clue, each finger, who got there
// first, the find or not, who takes what, the refill and the end.
func (Presenter) Events(t present.Table, evs []engine.Event) []string {
	l := t.Lang
	var out []string
	for _, e := range evs {
		ev, ok := e.(rules.Event)
		if !ok {
			continue
		}
		d := map[string]any{"Name": t.Name(ev.Seat), "By": t.Name(ev.By), "Square": ev.Square, "Squares": squares(ev.Squares),
			"Count": len(ev.Cards), "Clue": present.Escape(ev.Text)}
		key := ""
		switch ev.Kind {
		case rules.EvClue:
			key = "dixxit_ev_clue"
			if ev.Aloud {
				key = "dixxit_ev_aloud"
			}
		case rules.EvSkipped:
			key = "dixxit_ev_skipped"
		case rules.EvFinger:
			key = "dixxit_ev_finger"
		case rules.EvLifted:
			key = "dixxit_ev_lifted"
		case rules.EvOut:
			key = "dixxit_ev_out"
		case rules.EvFound:
			key = "dixxit_ev_found"
		case rules.EvIgnored:
			key = "dixxit_ev_ignored"
		case rules.EvTook:
			key = "dixxit_ev_took"
		case rules.EvNotFound:
			key = "dixxit_ev_not_found"
		case rules.EvReturned:
			key = "dixxit_ev_returned"
		case rules.EvRefilled:
			key = "dixxit_ev_refilled"
		case rules.EvGameOver:
			key = "dixxit_ev_over"
		}
		switch {
		case key == "dixxit_ev_took":
			out = append(out, locales.N(l, key, len(ev.Cards), d))
		case key != "":
			out = append(out, locales.T(l, key, d))
		}
	}
	return out
}

// Refusal says why seat may not make move m: the square taken and by
// whom (X7), the turn over, the clue not the seat's to give, a clue too
// long.
func (Presenter) Refusal(lang string, st engine.State, seat int, m engine.Move, err error) present.Refusal {
	var taken *rules.TakenError
	switch {
	case errors.As(err, &taken):
		return present.Refusal{Key: "dixxit_err_taken", Data: map[string]any{"Square": taken.Square}, Names: map[string]int{"Name": taken.Holder}}
	case errors.Is(err, rules.ErrBadClue):
		return present.Refusal{Key: "dixxit_err_bad_clue", Data: map[string]any{"Max": rules.MaxClue}}
	case errors.Is(err, rules.ErrTurnOver), errors.Is(err, rules.ErrNoClue) && gameOf(st) != nil && gameOf(st).Active() != seat:
		return present.Refusal{Key: "dixxit_err_turn_over"}
	case errors.Is(err, rules.ErrNotGuessing):
		return present.Refusal{Key: "dixxit_err_not_guessing"}
	case errors.Is(err, rules.ErrAlreadyDone):
		return present.Refusal{Key: "dixxit_err_done"}
	case errors.Is(err, rules.ErrClueGiven):
		return present.Refusal{Key: "dixxit_err_clue_given"}
	case errors.Is(err, rules.ErrNotActive):
		if g := gameOf(st); g != nil {
			return present.Refusal{Key: "dixxit_err_not_active", Names: map[string]int{"Name": g.Active()}}
		}
	case errors.Is(err, engine.ErrGameOver):
		return present.Refusal{Key: "dixxit_err_over"}
	}
	return present.Refusal{Key: "dixxit_err_bad_move"}
}

// Rules is a summary of the rules in lang.
func (Presenter) Rules(lang string) string { return locales.T(lang, "dixxit_rules", nil) }
