package bot

import (
	"bytes"
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine"
)

// Pictures (DISCORD-UX "Pictures"): a game's presenter may attach PNG
// files to its board and prompts, drawn by its picture package and shown
// as an embed's image ("attachment://<name>", see
// https://discord.com/developers/docs/reference#uploading-files). The
// embed's text stays, shorter, as the accessible summary. A game started
// with pictures:off, or a bot run with DIX_PICTURES=off, shows text only.
// A picture that cannot be drawn never blocks a message: the full text is
// shown instead. Only public information is drawn on a public message.

// picturesOption is the pictures: option of /dix start and /dix solo.
func picturesOption() *discordgo.ApplicationCommandOption {
	o := Option(optPictures, discordgo.ApplicationCommandOptionString)
	o.Choices = []*discordgo.ApplicationCommandOptionChoice{
		Choice("pictures_on", picsOn),
		Choice("pictures_off", picsOff),
	}
	return o
}

// PicturesOff reads the pictures: option ("" is on). It returns
// ErrBadInput for a value that is not one of its choices.
func PicturesOff(option string) (bool, error) {
	switch option {
	case "", picsOn:
		return false, nil
	case picsOff:
		return true, nil
	}
	return false, ErrBadInput
}

// notePermissions remembers from an interaction's app_permissions
// whether the bot may attach files in its channel, for its answers and
// the messages no click carries (mayAttach).
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

// mayAttach reports whether the bot's boards in channel may carry files:
// not once an interaction's app_permissions showed that the bot lacks
// Attach Files there, until one shows it has it again. So a channel
// without it gets text boards at once rather than a 403 per board, which
// would count towards Discord's limit of 10,000 invalid requests per 10
// minutes
// (https://discord.com/developers/docs/topics/rate-limits#invalid-request-limit-aka-cloudflare-bans).
func (b *Bot) mayAttach(channel string) bool {
	_, no := b.noFiles.Load(channel)
	return !no
}

// refusedFiles reports whether Discord refused a request that carried
// files for a missing permission (no Attach Files in the channel): the
// same message without them, text only, goes through.
func refusedFiles(err error, files []*discordgo.File) bool {
	var rerr *discordgo.RESTError
	return len(files) > 0 && errors.As(err, &rerr) && rerr.Message != nil && rerr.Message.Code == discordgo.ErrCodeMissingPermissions
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
		atts[i] = &discordgo.MessageAttachment{ID: strconv.Itoa(i), Filename: f.Name}
	}
	return &atts
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

// pictureFile is the name of the picture file an image URL shows when it
// is one of a message's own files (a CDN URL,
// .../attachments/{channel}/{id}/{name}): every game's pictures are PNG
// files of the message they are shown on.
func pictureFile(raw string) (string, bool) {
	_, name, ok := attachmentOf(raw)
	return name, ok && strings.HasSuffix(name, ".png")
}

func samePicture(a, b *boardPic) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// boardPic names the picture a board message has: the message (it follows
// Board: a picture of another message says nothing about the board) and
// the key of what the picture shows (picture/dix Board.Key).
type boardPic struct {
	Msg string `json:"m"`
	Key string `json:"k"`
}

// Keeping a board's pictures. A presenter names the pictures of a board by what they
// show (present.Board.Picture) without drawing them, and leaves out the
// files of a board whose pictures are the ones the message has
// (present.Table.Kept). Discord keeps a message's files on an edit that
// neither uploads files nor lists "attachments"
// (https://discord.com/developers/docs/resources/message#edit-message: "To
// remove or replace files you will have to supply the attachments
// field"), and an embed of the edit shows a kept file by its name,
// attachment://<name>
// (https://discord.com/developers/docs/reference#uploading-files). So the
// outbox's edit of a board whose pictures did not change (a pause, a
// resume, a clock's line, an absence) neither draws nor uploads them.
//
// The table data records the pictures the board message has
// (tableData.Pic: message and name), only when it is sure:
//   - The outbox records what its own edit put on the board once Discord
//     took it, and what a click's answer put there when the record that
//     answer showed is still the latest (cexec.boardPicture). A request
//     that failed (it may have landed or not), a render left out for a
//     newer one, or a board without pictures leave them unknown.
//   - A click on a public message may change the board's pictures with its
//     answer (an UPDATE_MESSAGE, which carries them again: Discord
//     documents keeping files for the edit endpoints, not for that answer,
//     which is reported to drop files it does not carry,
//     https://github.com/discord/discord-api-docs/issues/6277). Its store
//     update forgets them by naming the click (a boardPic of no message),
//     so an outbox that read the record before and writes after sees that
//     a click came in between (answerPicture).
//   - A click answered with the board as it stands but no change of its
//     own (an outdated click, a redelivered one) forgets them with a write
//     of its own before its answer, unless they are the ones that answer
//     shows (keepPicture).
//   - What the outbox learns from an answer when it records nothing else
//     waits with its effects done (a fold, fold.go) and is recorded with
//     them, if Pic is still what the outbox read.

// Keeping the pictures in a click's answer. A click's answer (an
// UPDATE_MESSAGE) that shows the board with the very pictures its message
// has lists those files in its "attachments" by their ids instead of
// uploading them again: an edit keeps exactly the files its "attachments"
// lists ("When making a PATCH request, only files listed in the
// attachments parameter will be appended to the message. Any
// previously-added files that aren't included will be removed",
// https://discord.com/developers/docs/reference#editing-message-attachments),
// and an interaction's answer carries the same list
// (https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-interaction-callback-data-structure).
// The pictures are the ones the message has when the table data, read by
// the click's own update, records them for the board (known) and owes no
// edit of the board from before (one may be on its way, changing them);
// the files' ids are read from the message clicked (keptAnswerPictures).

// noteBoardPicture runs inside the store update of a game's
// interaction, on the table data as read, before the change: it notes
// the pictures the board message clicked has, when the table data is
// sure of them (boardHad).
func (c *Call) noteBoardPicture(td *tableData) {
	c.boardHad = ""
	if c.I.Message == nil || td.Board == "" || c.I.Message.ID != td.Board || !known(td, td.picKey()) || owesEdit(td.Outbox) {
		return
	}
	c.boardHad = td.Pic.Key
}

// keptAnswerPictures is the "attachments" of a click's answer showing
// files on the message clicked when they are the pictures it has: each
// file of the message by its id; nil when they may not be (the answer
// then uploads them).
func (c *Call) keptAnswerPictures(files []*discordgo.File) *[]*discordgo.MessageAttachment {
	m := c.I.Message
	if len(files) == 0 || c.answerPic == "" || c.answerPic != c.boardHad || m == nil || m.Flags&discordgo.MessageFlagsEphemeral != 0 {
		return nil
	}
	atts := make([]*discordgo.MessageAttachment, 0, len(files))
	for _, f := range files {
		id := fileOf(m, f.Name)
		if id == "" {
			return nil
		}
		atts = append(atts, &discordgo.MessageAttachment{ID: id})
	}
	return &atts
}

// uploadInstead is the answer r with the pictures it listed as kept
// uploaded after all, when Discord refused r for its form (400 50035: a
// file of the message was replaced since the click, so its id is no
// longer one of the message's); nil otherwise.
func (c *Call) uploadInstead(r *discordgo.InteractionResponse, err error) *discordgo.InteractionResponse {
	var re *discordgo.RESTError
	if len(c.keptFiles) == 0 || r.Data == nil || len(r.Data.Files) > 0 ||
		!errors.As(err, &re) || re.Message == nil || re.Message.Code != discordgo.ErrCodeInvalidFormBody {
		return nil
	}
	d := *r.Data
	d.Files, c.keptFiles = c.keptFiles, nil
	d.Attachments = attachmentsFor(d.Files)
	c.B.log.Info("kept pictures refused; uploaded", "interaction", c.I.ID, "err", err)
	return &discordgo.InteractionResponse{Type: r.Type, Data: &d}
}

// fileOf is the id of the file called name on m ("": none): a file its
// embeds show (Discord lists those in no "attachments", see
// orphanedPictures; the image's URL is the file's,
// .../attachments/{channel}/{id}/{name}), or a loose one.
func fileOf(m *discordgo.Message, name string) string {
	for _, e := range m.Embeds {
		if e == nil || e.Image == nil {
			continue
		}
		if id, n, ok := attachmentOf(e.Image.URL); ok && n == name {
			return id
		}
	}
	for _, a := range m.Attachments {
		if a != nil && a.Filename == name {
			return a.ID
		}
	}
	return ""
}

// attachmentOf is the id and name of the file an image URL of a message
// shows (.../attachments/{channel}/{id}/{name}).
func attachmentOf(raw string) (id, name string, ok bool) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", "", false
	}
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	for i := len(parts) - 4; i >= 0; i-- {
		if parts[i] == "attachments" && parts[i+2] != "" && parts[i+3] != "" {
			return parts[i+2], parts[i+3], true
		}
	}
	return "", "", false
}

// answerPicture runs inside the store update of a game's
// interaction: a click on a public message forgets the board's
// pictures, as of this click, since its answer may show others. A command
// or a click on a private prompt leaves them as they are.
func (c *Call) answerPicture(td *tableData) {
	if c.I.Message == nil || c.I.Message.Flags&discordgo.MessageFlagsEphemeral != 0 {
		return
	}
	td.Pic = &boardPic{Key: c.I.ID} // of no message: not known, as of this click
	td.forgot = true
}

// keepPicture runs before an answer that shows the board of td,
// whose pictures are named key, on the message clicked. When the call
// wrote no change that forgot them (an outdated click, a redelivered
// one), and the table data does not say the board has these very
// pictures, it forgets what it says first, naming this click, since the
// answer may replace the board's pictures: an outbox that read the table
// data before then records nothing, and a fold waiting is not applied.
func (c *Call) keepPicture(td *tableData, key string) {
	switch {
	case c.I.Message == nil || td.Board == "" || c.I.Message.ID != td.Board, td.forgot:
		return // not the board; or this call's change forgot them already
	case known(td, key):
		if !owesEdit(td.Outbox) {
			c.boardHad = key // and the message has them (keptAnswerPictures)
		}
		return // the record says what the answer shows
	case key == "" && !known(td, td.picKey()):
		return // a text answer, and the record says nothing
	}
	ctx, cancel := c.storeCtx()
	defer cancel()
	_, err := c.B.update(ctx, c.I.ChannelID, "", c.B.onTable("", func(r *dixbot.Record, _ *present.Game, cur *tableData) error {
		if cur.Board != td.Board || known(cur, key) {
			return ErrNothingToDo
		}
		// Named by the click and the version it replaces: no other
		// forgetting (a first delivery of this click) has that name.
		cur.Pic = &boardPic{Key: c.I.ID + "/" + strconv.FormatUint(r.Version, 10)}
		return nil
	}))
	if err != nil && !errors.Is(err, ErrNothingToDo) {
		c.B.log.Warn("could not forget the board's pictures", "channel", c.I.ChannelID, "err", err)
	}
}

// picKey is the key of the pictures td records ("": none).
func (td *tableData) picKey() string {
	if td.Pic == nil {
		return ""
	}
	return td.Pic.Key
}

// known reports whether td records that its board has the pictures key.
func known(td *tableData, key string) bool {
	p := td.Pic
	return key != "" && p != nil && p.Msg != "" && p.Msg == td.Board && p.Key == key
}

// startPicture is the pictures the board has as the outbox starts on the
// table data td: what td records, or, when the answer of ix put pictures
// on the board and no change was written since (last), those.
func (td *tableData) startPicture(ix *Via, last bool) *boardPic {
	if ix != nil && ix.Orig != "" && ix.Orig == td.Board {
		switch {
		case ix.Pic == "":
			return nil // the answer showed no pictures, or acknowledged the click
		case last:
			return &boardPic{Msg: td.Board, Key: ix.Pic}
		}
	}
	return clonePtr(td.Pic)
}

// keptPicture is the name of the pictures the board message has, if
// known.
func (x *cexec) keptPicture() string {
	if x.pic == nil || x.pic.Msg == "" || x.pic.Msg != x.td.Board {
		return ""
	}
	return x.pic.Key
}

// editedPicture records the outcome of an edit of the board meant to show
// the pictures key ("": none, or not named): the board has them once
// Discord took the edit; after any other outcome (refused, failed, or left
// out for a newer render already there) what it has is not known.
func (x *cexec) editedPicture(key string, done bool) {
	if done && key != "" {
		x.pic = &boardPic{Msg: x.td.Board, Key: key}
		return
	}
	x.pic = nil
}

// boardPicture is the Pic the outbox records in r, whose table data is
// cur, once its effects are done: the pictures it knows the board has,
// unless Pic changed since the outbox read it (a click came in between,
// whose answer may have changed them, or another run of the outbox).
func (x *cexec) boardPicture(r *dixbot.Record, cur *tableData) *boardPic {
	if r.Version != x.rec.Version && !samePicture(cur.Pic, x.pic0) {
		return nil
	}
	if x.pic == nil || x.pic.Msg == "" || x.pic.Msg != cur.Board {
		return nil
	}
	return clonePtr(x.pic)
}

// errNoPicture: the table shows no pictures.
var errNoPicture = errors.New("bot: no pictures at this table")

// promptPictured is the step p of a private prompt as the table td shows
// it: its picture (present.Prompt.Picture) drawn, attached and shown in
// its first embed when the table shows pictures, left out otherwise.
func (b *Bot) promptPictured(td *tableData, p present.Prompt) present.Prompt {
	pic := p.Picture
	p.Picture = nil
	if pic == nil || len(p.Embeds) == 0 {
		return p
	}
	var png []byte
	err := errNoPicture
	if pic.Draw != nil && !b.noPictures && !td.NoPics {
		if png, err = pic.Draw(); err != nil {
			b.log.Warn("a prompt's picture not drawn; text only", "err", err)
		}
	}
	if err != nil {
		if pic.Framed {
			p.Embeds = p.Embeds[1:]
		}
		return p
	}
	e := *p.Embeds[0]
	e.Image = &discordgo.MessageEmbedImage{URL: "attachment://" + pic.File}
	p.Embeds = append([]*discordgo.MessageEmbed{&e}, p.Embeds[1:]...)
	p.Files = append(slices.Clone(p.Files), &discordgo.File{Name: pic.File, ContentType: "image/png", Reader: bytes.NewReader(png)})
	return p
}

// promptStep is seat's step of draft of the private prompt of pr, the
// presenter of a game at table td, in lang, the seats named as the table
// names them.
func (b *Bot) promptStep(pr present.Prompter, td *tableData, lang string, st engine.State, seat int, draft string) (present.Prompt, error) {
	t := td.table(!b.noPictures)
	t.Lang = lang
	for i, s := range td.Seats {
		t.Marks[i] = seatMarkOf(lang, s)
	}
	return pr.Prompt(t, st, seat, draft)
}
