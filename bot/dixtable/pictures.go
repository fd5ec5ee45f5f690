package dixtable

import (
	"encoding/hex"

	"github.com/bwmarrin/discordgo"
	"github.com/dixgame/dixbot"

	"github.com/dixgame/dixbot/bot"
	dixview "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
	"github.com/dixgame/dixbot/picture"

	dixpicture "github.com/dixgame/dixbot/picture/dix"
)

// publicView is the engine's view of g without what the rules keep
// hidden: the deck's order (its size stays).
func publicView(g *dix.Game) dix.View {
	v := g.View()
	v.Deck = nil
	return v
}

// pictureMarks are the marks drawn before the seats' names, as the text
// marks them: a robot for a seat the computer plays (a computer player,
// ALIX, a seat handed over), a moon for an absent player.
func pictureMarks(m *dixTable, seats int) []dixpicture.Mark {
	marks := make([]dixpicture.Mark, seats)
	for s := range marks {
		switch {
		case s >= len(m.Seats):
		case m.Seats[s].CPU != "" || m.Seats[s].ID == "" || m.Seats[s].Gone != "":
			marks[s] = dixpicture.MarkComputer
		case m.Seats[s].Away:
			marks[s] = dixpicture.MarkAway
		}
	}
	return marks
}

// boardMessage is the board of g in lang: with pictures the short text and
// the picture it shows, else the full text and no file.
// attach false (no permission to) gives the text only.
func boardMessage(b *bot.Bot, lang string, m *dixTable, g *dix.Game, attach bool) (*discordgo.MessageEmbed, []*discordgo.File) {
	e, files, _ := boardMessageKey(b, lang, m, g, attach, "")
	return e, files
}

// boardMessageKey is boardMessage with the key of the picture it shows
// ("": none). When that key is keep, the picture a board message already
// has, it is not drawn nor attached: the embed shows the file the message
// keeps (see BoardPic).
func boardMessageKey(b *bot.Bot, lang string, m *dixTable, g *dix.Game, attach bool, keep string) (*discordgo.MessageEmbed, []*discordgo.File, string) {
	if !attach || !pictured(b, m) {
		return dixview.BoardEmbed(m.view(lang), g), nil, ""
	}
	in := boardPicture(lang, m, g)
	k, kerr := in.Key()
	key := ""
	if kerr == nil {
		key = hex.EncodeToString(k[:16])
	}
	if key != "" && key == keep {
		return bot.WithImage(dixview.BoardEmbedOf(m.view(lang), g, true), bot.BoardFile), nil, key
	}
	png, err := memoBoardAt(in, k, kerr)
	if err != nil {
		b.Log.Warn("board picture not drawn; text only", "err", err)
		return dixview.BoardEmbed(m.view(lang), g), nil, ""
	}
	return bot.WithImage(dixview.BoardEmbedOf(m.view(lang), g, true), bot.BoardFile), []*discordgo.File{bot.PngFile(bot.BoardFile, png)}, key
}

// pictureKey is the key a board picture is known by in BoardPic: the first
// half of its picture/dix Board.Key, in hex ("" if it has none).
func pictureKey(in dixpicture.Board) string {
	k, err := in.Key()
	if err != nil {
		return ""
	}
	return hex.EncodeToString(k[:16])
}

// boardAnswer is the board of g for the answer to a click on it, with its
// picture (see answerPicture).
func boardAnswer(c *bot.Call, m *dixTable, g *dix.Game) (*discordgo.MessageEmbed, []*discordgo.File) {
	e, files, key := boardMessageKey(c.B, m.Lang, m, g, c.CanAttach(), "")
	c.AnswerPic = key
	return e, files
}

// handMessage is seat s's private view in lang (/dix hand): with pictures
// the collection drawn as runs, the wilds where the scorer places them.
func handMessage(b *bot.Bot, lang string, m *dixTable, g *dix.Game, s int, attach bool) (*discordgo.MessageEmbed, []*discordgo.File) {
	if !attach || !pictured(b, m) {
		return dixview.HandEmbed(m.names(lang), g, s), nil
	}
	png, err := memoHand(handPicture(lang, m, g, s))
	if err != nil {
		b.Log.Warn("hand picture not drawn; text only", "err", err)
		return dixview.HandEmbed(m.names(lang), g, s), nil
	}
	return bot.WithImage(dixview.HandEmbed(m.names(lang), g, s), bot.HandFile), []*discordgo.File{bot.PngFile(bot.HandFile, png)}
}

// buyPreview is the picture of the buy prompt's payment step: seat s's
// collection after buying cd with pay (the payment the step proposes), cd
// where it goes and the cards paid apart. Nil without pictures.
func buyPreview(b *bot.Bot, lang string, m *dixTable, g *dix.Game, s int, cd dix.Card, pay dix.Payment, attach bool) ([]*discordgo.MessageEmbed, []*discordgo.File) {
	if !attach || !pictured(b, m) {
		return nil, nil
	}
	png, err := memoHand(previewHand(lang, m, g, s, cd, pay))
	if err != nil {
		b.Log.Warn("buy picture not drawn", "err", err)
		return nil, nil
	}
	e := &discordgo.MessageEmbed{Color: bot.ColorPrompt,
		Title: bot.Truncate(locales.T(lang, "dix_buy_preview", map[string]any{"Card": dixview.CardText(lang, cd), "CardName": dixview.CardName(lang, cd)}), 256)}
	return []*discordgo.MessageEmbed{bot.WithImage(e, bot.HandFile)}, []*discordgo.File{bot.PngFile(bot.HandFile, png)}
}

// memoBoard is the PNG of the board picture in, drawn at most once while
// pictureMemo keeps it.
func memoBoard(in dixpicture.Board) ([]byte, error) {
	key, err := in.Key()
	return memoBoardAt(in, key, err)
}

// memoBoardAt is memoBoard for in of key (in.Key(), which failed with
// kerr).
func memoBoardAt(in dixpicture.Board, key picture.Key, kerr error) ([]byte, error) {
	if kerr != nil {
		return dixpicture.RenderBoard(in)
	}
	return bot.PictureMemo.Picture(key, func() ([]byte, error) { return dixpicture.RenderBoard(in) })
}

// memoHand is memoBoard for a hand picture.
func memoHand(in dixpicture.Hand) ([]byte, error) {
	key, err := in.Key()
	if err != nil {
		return dixpicture.RenderHand(in)
	}
	return bot.PictureMemo.Picture(key, func() ([]byte, error) { return dixpicture.RenderHand(in) })
}

// memoScoreboard is memoBoard for a final scoreboard.
func memoScoreboard(in dixpicture.Scoreboard) ([]byte, error) {
	key, err := in.Key()
	if err != nil {
		return dixpicture.RenderScoreboard(in)
	}
	return bot.PictureMemo.Picture(key, func() ([]byte, error) { return dixpicture.RenderScoreboard(in) })
}

// boardPicture is the input of the board picture of g in lang.
func boardPicture(lang string, m *dixTable, g *dix.Game) dixpicture.Board {
	return dixpicture.Board{
		View: publicView(g), Names: pictureNames(lang, m, len(g.Players)), Marks: pictureMarks(m, len(g.Players)),
		Acting: g.ToAct(), Labels: dixview.PictureLabels(lang),
	}
}

// scoreboardPicture is the input of the final scoreboard's picture.
func scoreboardPicture(lang string, m *dixTable, g *dix.Game) dixpicture.Scoreboard {
	return dixpicture.Scoreboard{View: publicView(g), Names: pictureNames(lang, m, len(g.Players)),
		Marks: pictureMarks(m, len(g.Players)), Labels: dixview.PictureLabels(lang)}
}

// handPicture is the input of seat s's hand picture.
func handPicture(lang string, m *dixTable, g *dix.Game, s int) dixpicture.Hand {
	p := g.Players[s]
	return dixpicture.Hand{
		Name: pictureNames(lang, m, len(g.Players))[s], Collection: p.Collection, Money: p.Money, Consolation: p.Consolation,
		Labels: dixview.PictureLabels(lang),
	}
}

// previewHand is the input of the buy preview: seat s's hand with cd as
// the candidate and the cards of pay paid for it.
func previewHand(lang string, m *dixTable, g *dix.Game, s int, cd dix.Card, pay dix.Payment) dixpicture.Hand {
	h := handPicture(lang, m, g, s)
	h.Candidate, h.Pay = &cd, pay.Cards
	return h
}

// scoresMessage is the final scoreboard of g: with pictures, every
// player's runs with the wilds' placement, the scores and totals drawn
// too. The text stays whole: it says the tie-breaks.
func scoresMessage(b *bot.Bot, lang string, m *dixTable, g *dix.Game, attach bool) (*discordgo.MessageEmbed, []*discordgo.File) {
	e := dixview.ScoreboardEmbed(m.view(lang), g)
	if !attach || !pictured(b, m) {
		return e, nil
	}
	png, err := memoScoreboard(scoreboardPicture(lang, m, g))
	if err != nil {
		b.Log.Warn("scoreboard picture not drawn; text only", "err", err)
		return e, nil
	}
	return bot.WithImage(e, bot.ScoresFile), []*discordgo.File{bot.PngFile(bot.ScoresFile, png)}
}

// pictured reports whether the game of m is shown with pictures.
func pictured(b *bot.Bot, m *dixTable) bool {
	return !b.NoPictures && m != nil && !m.NoPictures
}

// pictureNames are the seats' names as drawn: plain text (no Markdown
// escapes), the computer players and ALIX by their localised names, without
// the emoji the pictures' font cannot draw (pictureMarks draws a robot).
func pictureNames(lang string, m *dixTable, seats int) []string {
	names := make([]string, seats)
	for s := range names {
		switch {
		case s >= len(m.Seats):
		case m.Seats[s].CPU != "" || m.Seats[s].ID == "":
			names[s] = picture.Drawable(m.name(lang, s)) // localised, no user input in it
		default:
			names[s] = m.Seats[s].Name
		}
	}
	return names
}

// answerPicture runs inside the store update of a click, once the click
// is applied: a click on the board whose picture is known leaves it known
// when the board now draws the same picture; a click on any other public
// message forgets it, since the answer may show another picture.
//
// The answer itself still uploads the picture: Discord documents keeping a
// message's files on an edit without "attachments" for the edit
// endpoints, not for an interaction's UPDATE_MESSAGE answer, which is
// reported to drop them (https://github.com/discord/discord-api-docs/issues/6277).
// Only edits through those endpoints (the outbox's) keep the file.
func answerPicture(c *bot.Call, r *dixbot.Record, m *dixTable) {
	if c.I.Message == nil || c.I.Message.Flags&discordgo.MessageFlagsEphemeral != 0 {
		return // the answer changes no public message
	}
	// A click on a public message may be on the board (one posted but not
	// recorded yet, too).
	if p := m.BoardPic; p != nil && p.Msg == m.Board && dix.GameOf(r.State) != nil && pictured(c.B, m) && c.CanAttach() &&
		pictureKey(boardPicture(m.Lang, m, dix.GameOf(r.State))) == p.Key {
		return
	}
	m.BoardPic = &bot.BoardPic{Key: c.I.ID} // of no message: not known, as of this click
}

// startPicture is the picture the board has as the outbox starts on the
// table data m: what m records, or, when the answer of ix put a picture on
// the board and no change was written since (last), that picture.
func startPicture(m *dixTable, ix *bot.Via, last bool) *bot.BoardPic {
	if ix != nil && ix.Orig != "" && ix.Orig == m.Board {
		switch {
		case ix.Pic == "":
			return nil // the answer showed the board as text
		case last:
			return &bot.BoardPic{Msg: m.Board, Key: ix.Pic}
		}
	}
	return bot.ClonePtr(m.BoardPic)
}

// editedPicture records the outcome of an edit of the board meant to show
// the picture key ("": none): the board has it once Discord took the edit;
// after any other outcome (refused, failed, or left out for a newer render
// already there) what it has is not known.
func (x *executor) editedPicture(key string, done bool) {
	if done && key != "" {
		x.pic = &bot.BoardPic{Msg: x.board, Key: key}
		return
	}
	x.pic = nil
}

// boardPicture is the BoardPic the outbox records in r, whose table data
// is cur, once its effects are done: the picture it knows the board has,
// unless BoardPic changed since the outbox read it (a click on the board
// came in between, whose answer may have changed the picture, or another
// run of the outbox); changes that leave BoardPic alone do not touch the
// board's picture themselves (they owe an edit).
func (x *executor) boardPicture(r *dixbot.Record, cur *dixTable) *bot.BoardPic {
	if r.Version != x.rec.Version && !bot.SamePicture(cur.BoardPic, x.pic0) {
		return nil
	}
	if x.pic == nil || x.pic.Msg != x.board {
		return nil
	}
	return bot.ClonePtr(x.pic)
}

// keptPicture is the key of the picture the board message has, if known.
func (x *executor) keptPicture() string {
	if x.pic == nil || x.pic.Msg != x.board {
		return ""
	}
	return x.pic.Key
}
