package dixview

import (
	"bytes"
	"errors"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
	"github.com/dixgame/dixbot/picture"
	dixpicture "github.com/dixgame/dixbot/picture/dix"
)

// Presenter renders DIX on the shared table: the board (an embed, and a
// picture when the table draws them), its buttons, the event lines, the
// refusals, the rules, the hint and the private prompts of several steps
// (the market, the bid, the payment and its picker; the hand; the board
// as text). It is safe for concurrent use.
type Presenter struct{}

var (
	_ present.Presenter = Presenter{}
	_ present.Prompter  = Presenter{}
	_ present.Hinter    = Presenter{}
	_ present.Rounder   = Presenter{}
)

// The files of the pictures a board or a prompt shows.
const (
	boardFile = "board.png"
	scoreFile = "scores.png"
	handFile  = "hand.png"
)

func gameOf(st engine.State) *dix.Game {
	s, ok := st.(dix.State)
	if !ok {
		return nil
	}
	return s.Game()
}

// view is the Table of the functions of this package for g as the shared
// table t shows it: ALIX named after the seats of a solo game (§5).
func view(t present.Table, g *dix.Game) Table {
	v := Table{Lang: t.Lang, Log: t.Log, Marks: t.Marks, Pictures: t.Pictures, TimeLeft: t.TimeLeft, Pace: t.Pace}
	v.Names = names(t)
	if g != nil {
		v.Solo, v.Diff, v.Bust = g.Solo(), g.Opts.Difficulty, g.Opts.BustVariant
	}
	return v
}

// names are the display names by seat, ALIX's after the only seat of a
// solo game.
func names(t present.Table) []string {
	out := make([]string, len(t.Names), len(t.Names)+1)
	for i := range t.Names {
		out[i] = t.Name(i)
	}
	if len(out) == 1 {
		out = append(out, locales.T(t.Lang, "dix_alix_name", nil))
	}
	return out
}

// Board renders the public board: the embed of the game as it stands and
// the buttons of the decision open (a move, or the prompt of a decision
// of several steps), the hand and the board as text for anyone; once
// over, the final scoreboard.
func (Presenter) Board(t present.Table, st engine.State) present.Board {
	g := gameOf(st)
	if g == nil {
		return present.Board{Content: locales.T(t.Lang, "err_internal", nil)}
	}
	v := view(t, g)
	if g.Phase == dix.PhaseOver {
		b := present.Board{Embeds: []*discordgo.MessageEmbed{ScoreboardEmbed(v, g)}}
		if t.Pictures {
			in := dixpicture.Scoreboard{View: publicView(g), Names: pictureNames(t, g), Marks: t.PictureMarks(len(g.Players)), Labels: PictureLabels(t.Lang)}
			withPicture(&b, t, scoreFile, present.PictureKey("dix scoreboard", scoreFile, in), func() ([]byte, error) { return dixpicture.RenderScoreboard(in) })
		}
		return b
	}
	e := BoardEmbedOf(v, g, t.Pictures)
	e.Title = boardTitle(v, g)
	b := present.Board{Embeds: []*discordgo.MessageEmbed{e}}
	if t.Abandoned != "" {
		// The line that said who decides says the game ended.
		_, rest, _ := strings.Cut(e.Description, "\n")
		e.Description = strings.TrimRight(t.Abandoned+"\n"+rest, "\n")
		e.Title = locales.T(t.Lang, "dix_board_title_abandoned", nil)
	} else {
		b.Rows = boardButtons(t, g)
	}
	if t.Pictures {
		in := dixpicture.Board{View: publicView(g), Names: pictureNames(t, g), Marks: t.PictureMarks(len(g.Players)), Acting: g.ToAct(), Labels: PictureLabels(t.Lang)}
		withPicture(&b, t, boardFile, present.PictureKey("dix board", boardFile, in), func() ([]byte, error) { return dixpicture.RenderBoard(in) })
		if b.Picture == "" && len(b.Files) == 0 {
			// No picture: the board is its whole text, which the picture
			// would have shown part of.
			t.Pictures = false
			return Presenter{}.Board(t, st)
		}
	}
	return b
}

// boardTitle is the board's title: whose turn it is, or the final buy
// round.
func boardTitle(v Table, g *dix.Game) string {
	if g.Phase == dix.PhaseFinalBuy {
		return locales.T(v.Lang, "dix_board_title_final", nil)
	}
	return locales.T(v.Lang, "dix_board_title_of", map[string]any{"Name": v.Name(g.Active)})
}

// boardButtons are the board's buttons: the decisions of the seat to act
// (a move, or its prompt for a purchase, a bid or a payment), then the
// hand and, with a picture, the board as text.
func boardButtons(t present.Table, g *dix.Game) [][]present.Button {
	lang := t.Lang
	actor := g.ToAct()
	if actor < 0 {
		return nil
	}
	ch := g.Choices(actor)
	var row []present.Button
	move := func(label string, style discordgo.ButtonStyle, k dix.ActionKind) present.Button {
		return present.Button{Label: label, Style: style, Move: dix.FormatMove(dix.Action{Kind: k})}
	}
	prompt := func(label string, style discordgo.ButtonStyle) present.Button {
		return present.Button{Label: label, Style: style, Prompt: true}
	}
	T := func(key string, d map[string]any) string {
		return present.Truncate(locales.T(lang, key, d), present.MaxButtonLabel)
	}
	for _, k := range orderedActions {
		if !HasAction(ch, k) {
			continue
		}
		switch k {
		case dix.ActDraw:
			row = append(row, move(T("dix_btn_draw", nil), discordgo.PrimaryButton, k))
		case dix.ActStop:
			row = append(row, move(T("dix_btn_stop", nil), discordgo.SecondaryButton, k))
		case dix.ActTakeNumbers:
			row = append(row, move(numbersLabel(lang, g), discordgo.PrimaryButton, k))
		case dix.ActTakeMoney:
			row = append(row, move(moneyLabel(lang, g, actor), discordgo.SuccessButton, k))
		case dix.ActBuy:
			if len(ch.Buyable) > 0 {
				row = append(row, prompt(T("dix_btn_buy", nil), discordgo.PrimaryButton))
			}
		case dix.ActEndTurn:
			key := "dix_btn_end_turn"
			if g.Phase == dix.PhaseFinalBuy {
				key = "dix_btn_skip_buy"
			}
			row = append(row, move(T(key, nil), discordgo.SecondaryButton, k))
		case dix.ActConsolation:
			row = append(row, move(T("dix_btn_consolation", nil), discordgo.PrimaryButton, k))
		case dix.ActBustBuy:
			row = append(row, move(T("dix_btn_bust_buy", nil), discordgo.SecondaryButton, k))
		case dix.ActBid:
			row = append(row, prompt(T("dix_btn_bid", map[string]any{"Min": ch.MinBid, "Max": ch.MaxBid}), discordgo.PrimaryButton))
		case dix.ActPass:
			row = append(row, move(T("dix_btn_pass", nil), discordgo.SecondaryButton, k))
		case dix.ActPay:
			row = append(row, prompt(T("dix_btn_pay_owe", map[string]any{"Amount": ch.Owe}), discordgo.PrimaryButton))
		}
	}
	more := []present.Button{{Label: T("dix_btn_hand", nil), Next: stepHand, Style: discordgo.SecondaryButton}}
	if t.Pictures {
		// The picture shows the market and the collections; this gives
		// them as text (a screen reader cannot read a picture).
		more = append(more, present.Button{Label: T("dix_btn_board_text", nil), Next: stepText, Style: discordgo.SecondaryButton})
	}
	var rows [][]present.Button
	if len(row) > 0 {
		rows = append(rows, row)
	}
	return append(rows, more)
}

// Events renders the engine's events as the lines of the log.
func (Presenter) Events(t present.Table, evs []engine.Event) []string {
	var des []dix.Event
	for _, e := range evs {
		if ev, ok := e.(dix.Event); ok {
			des = append(des, ev)
		}
	}
	v := Table{Lang: t.Lang, Names: names(t), Marks: t.Marks}
	return Events(v, des)
}

// RoundStarts reports whether e starts a turn: the board tells one turn
// at a time.
func (Presenter) RoundStarts(e engine.Event) bool {
	ev, ok := e.(dix.Event)
	return ok && ev.Kind == dix.EvTurnStarted
}

// Refusal says why seat may not make move m: DIX's rule it breaks, with
// its amounts where the engine says them.
func (Presenter) Refusal(lang string, st engine.State, seat int, m engine.Move, err error) present.Refusal {
	var r *Refusal
	if errors.As(err, &r) {
		return present.Refusal{Key: r.Key, Data: r.Data}
	}
	if key, ok := RefusalKey(err); ok {
		return present.Refusal{Key: key}
	}
	switch {
	case errors.Is(err, engine.ErrBadMove):
		// A move DIX does not read: a forged button.
		return present.Refusal{Key: "err_bad_custom_id"}
	case errors.Is(err, engine.ErrNotYourTurn):
		if g := gameOf(st); g != nil && g.ToAct() >= 0 {
			return present.Refusal{Key: "dix_err_not_your_turn", Names: map[string]int{"Name": g.ToAct()}}
		}
		return present.Refusal{Key: "dix_err_not_now"}
	case errors.Is(err, engine.ErrGameOver):
		return present.Refusal{Key: "table_err_over"}
	}
	return present.Refusal{Key: "dix_err_wrong_phase"}
}

// Rules is the summary of DIX's rules.
func (Presenter) Rules(lang string) string {
	e := RulesEmbed(lang)
	return "**" + e.Title + "**\n" + e.Description
}

// Hint is the advice of the strong computer player to seat, with the odds
// of the next card, as text.
func (Presenter) Hint(lang string, st engine.State, seat int) string {
	g := gameOf(st)
	if g == nil || seat < 0 || seat >= len(g.Players) || g.ToAct() != seat {
		return locales.T(lang, "dix_err_not_now", nil)
	}
	e := HintEmbed(lang, g, seat)
	return "**" + e.Title + "**\n" + e.Description
}

// publicView is the engine's view of g without what the rules keep
// hidden (the deck's order; its size stays) nor its version, which the
// pictures do not show.
func publicView(g *dix.Game) dix.View {
	v := g.View()
	v.Deck, v.Seq = nil, 0
	return v
}

// pictureNames are the seats' names as the pictures draw them: as typed
// (no Markdown's escapes), without the emoji their font cannot draw
// (PictureMarks gives it a robot); ALIX's after the only seat of a solo
// game.
func pictureNames(t present.Table, g *dix.Game) []string {
	ns := slices.Clone(t.Names)
	if len(ns) == 1 {
		ns = append(ns, locales.T(t.Lang, "dix_alix_name", nil))
	}
	out := make([]string, len(g.Players))
	for s := range out {
		if s < len(ns) {
			out[s] = picture.Drawable(ns[s])
		}
	}
	return out
}

// PictureLabels are the words DIX's pictures show, in lang.
func PictureLabels(lang string) dixpicture.Labels {
	t := func(k string) string { return locales.T(lang, k, nil) }
	return dixpicture.Labels{
		Market: t("dix_pic_market"), Deck: t("dix_pic_deck"), Tableau: t("dix_pic_tableau"), Total: t("dix_pic_total"),
		Money: t("dix_pic_money"), Auction: t("dix_pic_auction"), HighBid: t("dix_pic_high_bid"), Score: t("dix_pic_score"),
		Paid: t("dix_pic_paid"),
	}
}

// withPicture adds to b the picture draw makes, under name, whose key is
// key (present.PictureKey of everything it shows), its embed showing it.
// When key is t.Kept, the picture the message has, it is not drawn.
func withPicture(b *present.Board, t present.Table, name, key string, draw func() ([]byte, error)) {
	if len(b.Embeds) == 0 {
		return
	}
	if key != "" && key == t.Kept {
		b.Embeds[0].Image, b.Picture = &discordgo.MessageEmbedImage{URL: "attachment://" + name}, key
		return
	}
	png, err := draw()
	if err != nil {
		return // the text says everything the picture shows
	}
	b.Embeds[0].Image = &discordgo.MessageEmbedImage{URL: "attachment://" + name}
	b.Files = []*discordgo.File{{Name: name, ContentType: "image/png", Reader: bytes.NewReader(png)}}
	b.Picture = key
}
