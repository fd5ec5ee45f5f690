package bot

import (
	"bytes"
	"encoding/hex"
	"errors"
	"net/url"
	"path"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot"
	dixview "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
	"github.com/dixgame/dixbot/picture"
	dixpicture "github.com/dixgame/dixbot/picture/dix"
)

// Pictures (DISCORD-UX "Pictures"): the board, /dix hand, the buy prompt's
// payment step and the final scoreboard carry a PNG drawn by package
// picture, attached to the very request that posts or updates the message
// and shown as the embed's image ("attachment://board.png", see
// https://discord.com/developers/docs/reference#uploading-files). The
// embed's text stays, shorter, as the accessible summary. A game started
// with pictures:off, or a bot run with DIX_PICTURES=off, shows text only,
// as before. A picture that cannot be drawn never blocks a message: the
// full text is shown instead.
//
// Only public information is drawn: the board and the scoreboard come from
// publicView (the deck's order is dropped), a hand picture goes only to its
// owner, in an ephemeral message.

// The attachments' file names, which the embeds refer to.
const (
	boardFile  = "board.png"
	handFile   = "hand.png"
	scoresFile = "scores.png"
)

// picturesOption is the pictures: option of /dix start and /dix solo.
func picturesOption() *discordgo.ApplicationCommandOption {
	o := option(optPictures, discordgo.ApplicationCommandOptionString)
	o.Choices = []*discordgo.ApplicationCommandOptionChoice{
		choice("pictures_on", picsOn),
		choice("pictures_off", picsOff),
	}
	return o
}

// picturesOff reads the pictures: option ("" is on). It returns
// ErrBadInput for a value that is not one of its choices.
func picturesOff(option string) (bool, error) {
	switch option {
	case "", picsOn:
		return false, nil
	case picsOff:
		return true, nil
	}
	return false, ErrBadInput
}

// pictured reports whether the game of m is shown with pictures.
func (b *Bot) pictured(m *dixTable) bool {
	return !b.noPictures && m != nil && !m.NoPictures
}

// canAttach reports whether the answer to the interaction may carry files:
// they need ATTACH_FILES in the channel, as the bot's own messages do
// (app_permissions; 0, not sent, is taken as allowed).
func (c *call) canAttach() bool {
	p := c.i.AppPermissions
	return p == 0 || p&discordgo.PermissionAttachFiles != 0
}

// notePermissions remembers from an interaction's app_permissions
// whether the bot may attach files in its channel, for the messages no
// click carries (see mayAttach).
func (b *Bot) notePermissions(i *discordgo.Interaction) {
	p := i.AppPermissions
	if p == 0 || i.ChannelID == "" || i.GuildID == "" {
		return
	}
	if p&(discordgo.PermissionAttachFiles|discordgo.PermissionAdministrator) == 0 {
		b.noFiles.Store(i.ChannelID, struct{}{})
	} else if _, ok := b.noFiles.Load(i.ChannelID); ok {
		b.noFiles.Delete(i.ChannelID)
	}
}

// lacksFiles records that Discord refused files in channel.
func (b *Bot) lacksFiles(channel string) { b.noFiles.Store(channel, struct{}{}) }

// mayAttach reports whether the bot's messages in channel may carry
// files: not once an interaction's app_permissions or a refusal showed
// that the bot lacks Attach Files there, until an interaction shows it
// has it again. So a channel without it gets text boards at once rather
// than a 403 per board, which would count towards Discord's limit of
// 10,000 invalid requests per 10 minutes
// (https://discord.com/developers/docs/topics/rate-limits#invalid-request-limit-aka-cloudflare-bans).
func (b *Bot) mayAttach(channel string) bool {
	_, no := b.noFiles.Load(channel)
	return !no
}

// refusedFiles reports whether Discord refused a request that carried
// files for a missing permission (no ATTACH_FILES in the channel): the
// same message without them, text only, goes through.
func refusedFiles(err error, files []*discordgo.File) bool {
	var rerr *discordgo.RESTError
	return len(files) > 0 && errors.As(err, &rerr) && rerr.Message != nil && rerr.Message.Code == discordgo.ErrCodeMissingPermissions
}

// publicView is the engine's view of g without what the rules keep
// hidden: the deck's order (its size stays).
func publicView(g *dix.Game) dix.View {
	v := g.View()
	v.Deck = nil
	return v
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

// pictureLabels are the words a picture shows, in lang.
func pictureLabels(lang string) dixpicture.Labels {
	t := func(k string) string { return locales.T(lang, k, nil) }
	return dixpicture.Labels{
		Market: t("dix_pic_market"), Deck: t("dix_pic_deck"), Tableau: t("dix_pic_tableau"), Total: t("dix_pic_total"),
		Money: t("dix_pic_money"), Auction: t("dix_pic_auction"), HighBid: t("dix_pic_high_bid"), Score: t("dix_pic_score"),
		Paid: t("dix_pic_paid"),
	}
}

// pngFile is one PNG to upload. Its reader is a *bytes.Reader, so
// sessionAPI sends the whole picture with every request that carries it,
// a retry or a fallback included (see whole).
func pngFile(name string, png []byte) *discordgo.File {
	return &discordgo.File{Name: name, ContentType: "image/png", Reader: bytes.NewReader(png)}
}

// attachmentsFor is the "attachments" list of an edit that uploads files
// and keeps nothing else: each new file by its placeholder id (its index
// among the request's files[n] parts). Discord keeps a message's existing
// attachments on an edit unless the list is given, and then keeps only
// those listed, so a new board picture replaces the old one instead of
// piling up (https://discord.com/developers/docs/reference#editing-message-attachments).
// No files: an empty list, which removes every attachment.
func attachmentsFor(files []*discordgo.File) *[]*discordgo.MessageAttachment {
	atts := make([]*discordgo.MessageAttachment, len(files))
	for i, f := range files {
		atts[i] = &discordgo.MessageAttachment{ID: itoa(i), Filename: f.Name}
	}
	return &atts
}

// withImage points e at the attachment file.
func withImage(e *discordgo.MessageEmbed, file string) *discordgo.MessageEmbed {
	e.Image = &discordgo.MessageEmbedImage{URL: "attachment://" + file}
	return e
}

// boardMessage is the board of g in lang: with pictures the short text and
// the picture it shows, else the full text and no file.
// attach false (no permission to) gives the text only.
func (b *Bot) boardMessage(lang string, m *dixTable, g *dix.Game, attach bool) (*discordgo.MessageEmbed, []*discordgo.File) {
	e, files, _ := b.boardMessageKey(lang, m, g, attach, "")
	return e, files
}

// boardMessageKey is boardMessage with the key of the picture it shows
// ("": none). When that key is keep, the picture a board message already
// has, it is not drawn nor attached: the embed shows the file the message
// keeps (see BoardPic).
func (b *Bot) boardMessageKey(lang string, m *dixTable, g *dix.Game, attach bool, keep string) (*discordgo.MessageEmbed, []*discordgo.File, string) {
	if !attach || !b.pictured(m) {
		return dixview.BoardEmbed(m.view(lang), g), nil, ""
	}
	in := boardPicture(lang, m, g)
	k, kerr := in.Key()
	key := ""
	if kerr == nil {
		key = hex.EncodeToString(k[:16])
	}
	if key != "" && key == keep {
		return withImage(dixview.BoardEmbedOf(m.view(lang), g, true), boardFile), nil, key
	}
	png, err := memoBoardAt(in, k, kerr)
	if err != nil {
		b.log.Warn("board picture not drawn; text only", "err", err)
		return dixview.BoardEmbed(m.view(lang), g), nil, ""
	}
	return withImage(dixview.BoardEmbedOf(m.view(lang), g, true), boardFile), []*discordgo.File{pngFile(boardFile, png)}, key
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

// Keeping a board's picture. Discord keeps a message's files on an edit
// that neither uploads files nor lists "attachments"
// (https://discord.com/developers/docs/reference#editing-message-attachments;
// https://discord.com/developers/docs/resources/message#edit-message: "To
// remove or replace files you will have to supply the attachments field"),
// and an embed of the edit can show a kept file by its name,
// attachment://board.png
// (https://discord.com/developers/docs/reference#uploading-files). So an
// edit of the board whose picture is the one the message has sends no file:
// the table data records that picture (dixTable.BoardPic), by message and key.
//
// The record says only what is sure:
//   - The outbox records the picture it posted with a board, or edited onto
//     it, once Discord took the request; and the picture a click's answer
//     put on the board, when that answer was the last change (the record
//     read back is the one the answer showed). Any other change written in
//     between, a request that failed (it may have landed or not) or a text
//     board leave it unknown (executor.boardPicture).
//   - A click on the board may change its picture with its answer: the
//     click's own store update keeps the record only when the board as the
//     click leaves it draws the same picture, and forgets it otherwise
//     (answerPicture), before the answer is sent. It forgets it by naming
//     the click instead (a boardPic of no message), so that an outbox that
//     read the record before and writes after it sees that a click came in
//     between.

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
func (c *call) answerPicture(r *dixbot.Record, m *dixTable) {
	if c.i.Message == nil || c.i.Message.Flags&discordgo.MessageFlagsEphemeral != 0 {
		return // the answer changes no public message
	}
	// A click on a public message may be on the board (one posted but not
	// recorded yet, too).
	if p := m.BoardPic; p != nil && p.Msg == m.Board && r.State != nil && c.b.pictured(m) && c.canAttach() &&
		pictureKey(boardPicture(m.Lang, m, r.State)) == p.Key {
		return
	}
	m.BoardPic = &boardPic{Key: c.i.ID} // of no message: not known, as of this click
}

// boardAnswer is the board of g for the answer to a click on it, with its
// picture (see answerPicture).
func (c *call) boardAnswer(m *dixTable, g *dix.Game) (*discordgo.MessageEmbed, []*discordgo.File) {
	e, files, key := c.b.boardMessageKey(m.Lang, m, g, c.canAttach(), "")
	c.answerPic = key
	return e, files
}

// handMessage is seat s's private view in lang (/dix hand): with pictures
// the collection drawn as runs, the wilds where the scorer places them.
func (b *Bot) handMessage(lang string, m *dixTable, g *dix.Game, s int, attach bool) (*discordgo.MessageEmbed, []*discordgo.File) {
	if !attach || !b.pictured(m) {
		return dixview.HandEmbed(m.names(lang), g, s), nil
	}
	png, err := memoHand(handPicture(lang, m, g, s))
	if err != nil {
		b.log.Warn("hand picture not drawn; text only", "err", err)
		return dixview.HandEmbed(m.names(lang), g, s), nil
	}
	return withImage(dixview.HandEmbed(m.names(lang), g, s), handFile), []*discordgo.File{pngFile(handFile, png)}
}

// buyPreview is the picture of the buy prompt's payment step: seat s's
// collection after buying cd with pay (the payment the step proposes), cd
// where it goes and the cards paid apart. Nil without pictures.
func (b *Bot) buyPreview(lang string, m *dixTable, g *dix.Game, s int, cd dix.Card, pay dix.Payment, attach bool) ([]*discordgo.MessageEmbed, []*discordgo.File) {
	if !attach || !b.pictured(m) {
		return nil, nil
	}
	png, err := memoHand(previewHand(lang, m, g, s, cd, pay))
	if err != nil {
		b.log.Warn("buy picture not drawn", "err", err)
		return nil, nil
	}
	e := &discordgo.MessageEmbed{Color: colorPrompt,
		Title: truncate(locales.T(lang, "dix_buy_preview", map[string]any{"Card": dixview.CardText(lang, cd), "CardName": dixview.CardName(lang, cd)}), 256)}
	return []*discordgo.MessageEmbed{withImage(e, handFile)}, []*discordgo.File{pngFile(handFile, png)}
}

// pictureMemo keeps the DIX pictures drawn lately, by what they show: a
// picture asked for again (the board an answer showed, edited in again;
// a board whose text changed and not its picture) is not drawn again.
// Such a picture is asked for again within seconds: 4 MiB is about 150
// boards, the last half second of a process drawing 300 a second, the last
// few of a quieter one.
var pictureMemo = picture.NewMemo(4 << 20)

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
	return pictureMemo.Picture(key, func() ([]byte, error) { return dixpicture.RenderBoard(in) })
}

// memoHand is memoBoard for a hand picture.
func memoHand(in dixpicture.Hand) ([]byte, error) {
	key, err := in.Key()
	if err != nil {
		return dixpicture.RenderHand(in)
	}
	return pictureMemo.Picture(key, func() ([]byte, error) { return dixpicture.RenderHand(in) })
}

// memoScoreboard is memoBoard for a final scoreboard.
func memoScoreboard(in dixpicture.Scoreboard) ([]byte, error) {
	key, err := in.Key()
	if err != nil {
		return dixpicture.RenderScoreboard(in)
	}
	return pictureMemo.Picture(key, func() ([]byte, error) { return dixpicture.RenderScoreboard(in) })
}

// boardPicture is the input of the board picture of g in lang.
func boardPicture(lang string, m *dixTable, g *dix.Game) dixpicture.Board {
	return dixpicture.Board{
		View: publicView(g), Names: pictureNames(lang, m, len(g.Players)), Marks: pictureMarks(m, len(g.Players)),
		Acting: g.ToAct(), Labels: pictureLabels(lang),
	}
}

// scoreboardPicture is the input of the final scoreboard's picture.
func scoreboardPicture(lang string, m *dixTable, g *dix.Game) dixpicture.Scoreboard {
	return dixpicture.Scoreboard{View: publicView(g), Names: pictureNames(lang, m, len(g.Players)),
		Marks: pictureMarks(m, len(g.Players)), Labels: pictureLabels(lang)}
}

// handPicture is the input of seat s's hand picture.
func handPicture(lang string, m *dixTable, g *dix.Game, s int) dixpicture.Hand {
	p := g.Players[s]
	return dixpicture.Hand{
		Name: pictureNames(lang, m, len(g.Players))[s], Collection: p.Collection, Money: p.Money, Consolation: p.Consolation,
		Labels: pictureLabels(lang),
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
func (b *Bot) scoresMessage(lang string, m *dixTable, g *dix.Game, attach bool) (*discordgo.MessageEmbed, []*discordgo.File) {
	e := dixview.ScoreboardEmbed(m.view(lang), g)
	if !attach || !b.pictured(m) {
		return e, nil
	}
	png, err := memoScoreboard(scoreboardPicture(lang, m, g))
	if err != nil {
		b.log.Warn("scoreboard picture not drawn; text only", "err", err)
		return e, nil
	}
	return withImage(e, scoresFile), []*discordgo.File{pngFile(scoresFile, png)}
}

// orphanedPictures is the "attachments" of an update of msg to embeds:
// when msg has a picture and none of the new embeds shows an image, an
// empty list, so the picture does not stay behind as a loose file;
// otherwise nil (Discord keeps the files, which the new embeds show).
//
// A picture of the bot's is a file its embed shows by reference
// (attachment://name), and Discord leaves such a file out of the
// message's "attachments"
// (https://discord.com/developers/docs/reference#uploading-files;
// https://github.com/discord/discord-api-docs/issues/1340): msg has a
// picture when it lists attachments or when one of its embeds shows an
// image.
func orphanedPictures(msg *discordgo.Message, embeds []*discordgo.MessageEmbed) *[]*discordgo.MessageAttachment {
	if msg == nil || len(msg.Attachments) == 0 && !showsImage(msg.Embeds) {
		return nil
	}
	if showsImage(embeds) {
		return nil
	}
	return &[]*discordgo.MessageAttachment{}
}

// showsImage reports whether one of embeds shows an image.
func showsImage(embeds []*discordgo.MessageEmbed) bool {
	for _, e := range embeds {
		if e != nil && (e.Image != nil || e.Thumbnail != nil) {
			return true
		}
	}
	return false
}

// byReference returns embeds as they must be sent again on their own
// message: an image shown from one of the bot's picture files (a message
// read back from Discord holds the file's CDN URL there) points at the file
// by name again, attachment://name. Sent back with the CDN URL, the embed
// would no longer hold the file by reference, and Discord would show the
// picture twice: in the embed, and as a loose file under it
// (https://github.com/discord/discord-api-docs/issues/5675). A file kept
// on the message can be referenced so by an edit
// (https://discord.com/developers/docs/reference#uploading-files). The
// embeds given are not changed.
func byReference(embeds []*discordgo.MessageEmbed) []*discordgo.MessageEmbed {
	var out []*discordgo.MessageEmbed
	for i, e := range embeds {
		if e == nil || e.Image == nil {
			continue
		}
		name, ok := pictureFile(e.Image.URL)
		if !ok {
			continue
		}
		if out == nil {
			out = append([]*discordgo.MessageEmbed(nil), embeds...)
		}
		c := *e
		c.Image = &discordgo.MessageEmbedImage{URL: "attachment://" + name}
		out[i] = &c
	}
	if out == nil {
		return embeds
	}
	return out
}

// pictureFile is the name of the bot's picture file an image URL (a CDN
// URL, .../attachments/{channel}/{id}/{name}) shows, if it is one.
func pictureFile(raw string) (string, bool) {
	if strings.HasPrefix(raw, "attachment://") {
		return "", false
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", false
	}
	switch name := path.Base(u.Path); name {
	case boardFile, handFile, scoresFile:
		return name, true
	}
	return "", false
}

// startPicture is the picture the board has as the outbox starts on the
// table data m: what m records, or, when the answer of ix put a picture on
// the board and no change was written since (last), that picture.
func startPicture(m *dixTable, ix *via, last bool) *boardPic {
	if ix != nil && ix.Orig != "" && ix.Orig == m.Board {
		switch {
		case ix.Pic == "":
			return nil // the answer showed the board as text
		case last:
			return &boardPic{Msg: m.Board, Key: ix.Pic}
		}
	}
	return clonePtr(m.BoardPic)
}

// keptPicture is the key of the picture the board message has, if known.
func (x *executor) keptPicture() string {
	if x.pic == nil || x.pic.Msg != x.board {
		return ""
	}
	return x.pic.Key
}

// editedPicture records the outcome of an edit of the board meant to show
// the picture key ("": none): the board has it once Discord took the edit;
// after any other outcome (refused, failed, or left out for a newer render
// already there) what it has is not known.
func (x *executor) editedPicture(key string, done bool) {
	if done && key != "" {
		x.pic = &boardPic{Msg: x.board, Key: key}
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
func (x *executor) boardPicture(r *dixbot.Record, cur *dixTable) *boardPic {
	if r.Version != x.rec.Version && !samePicture(cur.BoardPic, x.pic0) {
		return nil
	}
	if x.pic == nil || x.pic.Msg != x.board {
		return nil
	}
	return clonePtr(x.pic)
}

func samePicture(a, b *boardPic) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}
