package bot

import (
	"context"
	"fmt"
	"hash/fnv"
	"strconv"

	"github.com/bwmarrin/discordgo"
)

// The requests the outbox's effects make on Discord: the board's edit and
// retirement, the pings posted.

// editBoard shows the game as it stands on the board, through the board's
// fence, by the best interaction's token (editVia). Pictures the board has
// already are neither drawn nor uploaded: the edit then carries no files
// and no "attachments", and Discord keeps the message's files
// (pictures.go). An edit again (the game shown again after an answer of
// another process, or after a change during an edit) is left out where
// this process showed the game's state already.
func (x *cexec) editBoard(ctx context.Context, again bool) error {
	if again && x.showsAlready() {
		x.shown, x.unchecked = x.rec.Data, false
		return nil
	}
	kept := x.keptPicture()
	pb, st, err := x.b.drawBoard(x.g, x.rec, x.td, kept)
	if err != nil {
		return err
	}
	comps := tableComponents(x.g, st, x.td, pb)
	embeds := pb.Embeds
	if embeds == nil {
		embeds = []*discordgo.MessageEmbed{}
	}
	we := &discordgo.WebhookEdit{Content: &pb.Content, Embeds: &embeds, Components: &comps, AllowedMentions: noMentions()}
	if len(pb.Files) > 0 {
		we.Files, we.Attachments = pb.Files, attachmentsFor(pb.Files)
	}
	sent, err := x.b.boardFences.Send(x.td.Board, shows{Seq: boardSeq(x.td, st), Newer: again}, x.b.now(), func() error {
		return x.editVia(ctx, x.td.Board, we)
	})
	if err != nil && refusedFiles(err, pb.Files) {
		// No Attach Files in the channel, though no interaction said so:
		// the board as text, and text boards there from now on
		// (mayAttach) rather than a refused request each time. Once
		// only: a board refused as text too is missing (missing.go).
		if _, known := x.b.noFiles.LoadOrStore(x.rec.Channel, struct{}{}); !known {
			x.b.log.Info("the board's picture refused: text boards in this channel", "channel", x.rec.Channel)
			return x.editBoard(ctx, again)
		}
	}
	x.editedPicture(pb.Picture, sent && err == nil)
	if sent && err == nil {
		x.shown, x.unchecked = x.rec.Data, false
	}
	return err
}

// showsAlready reports whether this process's last render on the board
// showed the record's game.
func (x *cexec) showsAlready() bool {
	st, err := x.g.Rules.Decode(x.rec.Data)
	if err != nil {
		return false
	}
	seq, ok := x.b.boardFences.Shown(x.td.Board)
	return ok && seq == boardSeq(x.td, st)
}

// editVia edits the board message: as "@original" of the clicking
// interaction when its answer updated the board, else of the interaction
// recorded as the board's (tableData.BoardVia) while its token is valid,
// else (or when Discord refuses those) with the bot token.
func (x *cexec) editVia(ctx context.Context, message string, we *discordgo.WebhookEdit) error {
	v := x.td.BoardVia
	if x.ix.usable(x.now) && x.ix.Orig == message {
		v = x.ix
	}
	if v.usable(x.now) && v.Token != x.lost && (v.Orig == "" || v.Orig == message) {
		err := x.d.FollowupEdit(ctx, v.Interaction(), "@original", we)
		if err == nil || ctx.Err() != nil {
			return err
		}
		x.b.log.Info("board edit through the interaction refused; editing with the bot token", "channel", x.rec.Channel, "err", err)
	}
	ed := &discordgo.MessageEdit{Channel: x.rec.Channel, ID: message, Content: we.Content, Embeds: we.Embeds, Components: we.Components,
		AllowedMentions: we.AllowedMentions, Files: we.Files, Attachments: we.Attachments}
	return x.d.Edit(ctx, ed)
}

// retire strips the buttons of message, a board that is no longer the
// board, through v while its token is valid (as "@original" when its
// answer is that message), else with the bot token. Past its fence's
// retirement no older render of that board lands.
func (x *cexec) retire(ctx context.Context, message string, v *Via) error {
	none := []discordgo.MessageComponent{}
	edit := func() error {
		if v.usable(x.now) && v.Token != x.lost {
			id := message
			if v.Orig == "" || v.Orig == message {
				id = "@original"
			}
			err := x.d.FollowupEdit(ctx, v.Interaction(), id, &discordgo.WebhookEdit{Components: &none, AllowedMentions: noMentions()})
			if err == nil || ctx.Err() != nil || message == "" {
				return err
			}
			x.b.log.Info("board retirement through the interaction refused; editing with the bot token", "channel", x.rec.Channel, "err", err)
		}
		if message == "" {
			return nil // the answer of v, whose id is not known (a lobby nobody clicked), out of reach
		}
		return x.d.Edit(ctx, &discordgo.MessageEdit{Channel: x.rec.Channel, ID: message, Components: &none, AllowedMentions: noMentions()})
	}
	if message == "" {
		return edit()
	}
	_, err := x.b.boardFences.Send(message, shows{Retire: true}, x.b.now(), edit)
	return err
}

// post posts a ping: as a follow-up of the clicking interaction, else of
// the board's recorded interaction, while its token is valid, else with
// the bot token and the effect's nonce. A ping another try may have posted
// is looked for among the channel's latest messages first. It returns the
// interaction the message can be edited with (nil: the bot token).
func (x *cexec) post(ctx context.Context, e effect, ms *discordgo.MessageSend) (*discordgo.Message, *Via, error) {
	if err := x.b.Keep(ctx, x.hold); err != nil {
		return nil, nil, err
	}
	if e.ID <= x.tried {
		if !x.read {
			x.read = true
			msgs, err := x.d.Recent(ctx, x.rec.Channel, 20)
			if err != nil {
				x.b.log.Info("could not read the channel's latest messages", "channel", x.rec.Channel, "err", err)
			}
			x.recent = msgs
		}
		for _, m := range x.recent {
			if laterID(m.ID, x.td.Board) && m.Content == ms.Content {
				x.b.log.Info("message posted by an earlier try found; not posted again", "channel", x.rec.Channel, "effect", e.Kind, "message", m.ID)
				return m, nil, nil
			}
		}
	}
	for _, v := range []*Via{x.ix, x.td.BoardVia} {
		if !v.usable(x.now) {
			continue
		}
		msg, err := x.d.Followup(ctx, v.Interaction(), &discordgo.WebhookParams{Content: ms.Content, AllowedMentions: ms.AllowedMentions})
		if err == nil {
			w := *v
			w.Orig = ""
			return msg, &w, nil
		}
		if ctx.Err() != nil {
			return nil, nil, err
		}
		x.b.log.Info("follow-up refused; posting otherwise", "channel", x.rec.Channel, "effect", e.Kind, "err", err)
	}
	msg, err := x.d.Send(ctx, x.rec.Channel, ms, x.nonce(e))
	return msg, nil, err
}

// nonce is the idempotency key of the message effect e posts.
func (x *cexec) nonce(e effect) string {
	return nonceOf("%s/%s/%d", x.rec.Channel, x.td.Board, e.ID)
}

// nonceOf is the idempotency key of a message the bot token posts, a hash
// of what names it (format and args, as fmt's): Discord keeps at most 25
// characters of a nonce
// (https://discord.com/developers/docs/resources/message#create-message-jsonform-params).
func nonceOf(format string, args ...any) string {
	h := fnv.New64a()
	fmt.Fprintf(h, format, args...)
	return "dix" + strconv.FormatUint(h.Sum64(), 36)
}
