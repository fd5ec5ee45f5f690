package bot

import (
	"errors"
	"net/url"
	"path"
	"strings"

	"github.com/bwmarrin/discordgo"
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
		atts[i] = &discordgo.MessageAttachment{ID: Itoa(i), Filename: f.Name}
	}
	return &atts
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
	if strings.HasPrefix(raw, "attachment://") {
		return "", false
	}
	u, err := url.Parse(raw)
	if err != nil || !strings.Contains(u.Path, "/attachments/") {
		return "", false
	}
	name := path.Base(u.Path)
	return name, strings.HasSuffix(name, ".png")
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
