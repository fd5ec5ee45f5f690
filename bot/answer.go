package bot

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
)

// Ephemeral answers (or follows up) with a message only the user sees.
func (c *Call) Ephemeral(text string, comps []discordgo.MessageComponent, embeds ...*discordgo.MessageEmbed) {
	c.ephemeralFiles(text, comps, nil, embeds...)
}

// ephemeralFiles is ephemeral with files attached (pictures).
func (c *Call) ephemeralFiles(text string, comps []discordgo.MessageComponent, files []*discordgo.File, embeds ...*discordgo.MessageEmbed) {
	if comps == nil {
		comps = []discordgo.MessageComponent{}
	}
	if c.Responded {
		ctx, cancel := context.WithTimeout(context.Background(), respondTimeout)
		defer cancel()
		_, err := c.D.Followup(ctx, c.I, &discordgo.WebhookParams{
			Content: text, Components: comps, Embeds: embeds, Flags: discordgo.MessageFlagsEphemeral,
			AllowedMentions: noMentions(), Files: files,
		})
		if err != nil {
			c.B.log.Warn("follow-up failed", "interaction", c.I.ID, "err", err)
		}
		return
	}
	c.Respond(&discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{
			Content: text, Components: comps, Embeds: embeds, Flags: discordgo.MessageFlagsEphemeral,
			AllowedMentions: noMentions(), Files: files,
		},
	})
}

// Respond sends the first answer, or, when the interaction was deferred,
// finishes it through the interaction's token (finishDeferred). A failure
// is logged: there is nobody left to tell.
func (c *Call) Respond(r *discordgo.InteractionResponse) {
	if s := c.Shows; s != nil && r.Type == discordgo.InteractionResponseUpdateMessage && c.I.Message != nil {
		// The board's fence is passed without ansMu: while an earlier
		// request on the board is in flight, the deferral can still go.
		left := false
		sent, _ := c.B.boardFences.Send(c.I.Message.ID, *s, c.B.now(), func() error {
			if left = c.overtaken(); left {
				return ErrNotShown
			}
			c.sendLocked(r)
			if !c.Answered || c.updated != c.I.Message.ID {
				return ErrNotShown
			}
			c.racedShown = c.raced
			return nil
		})
		if !sent || left {
			// The board already shows a newer state, which holds this
			// click's change: the click is acknowledged, the board kept.
			c.B.log.Debug("board answer left out: the board shows a newer state", "interaction", c.I.ID,
				"message", c.I.Message.ID, "seq", s.Seq)
			c.sendLocked(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
		}
		return
	}
	c.sendLocked(r)
}

// overtaken reports whether the game moved on since the change the
// call's answer shows (raced): the fences order the answers of one
// process, but another process's answer of a later change may land
// before this one, which would then put the older state back on the
// board, and that process leaves the board's edit to its own answer
// (cexec.do). The answer is then left out, as one the fence stops: the
// later change shows itself. An archived game counts as moved on (its
// scoreboard is the board); a store that does not answer in time leaves
// the answer as it is. A channel that, as far as the store knows, this
// process alone writes is not read: should another process have written
// there all the same, the write that records this answer's effects finds
// it and shows the board again (settleAnswer).
func (c *Call) overtaken() bool {
	if c.raced == nil {
		return false
	}
	if s, ok := c.B.store.(soleWriter); ok && s.Alone(c.I.ChannelID) {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), overtakenTimeout)
	defer cancel()
	r, err := c.B.store.Get(ctx, c.I.ChannelID)
	switch {
	case errors.Is(err, dixbot.ErrNotFound):
		return true
	case err != nil:
		return false
	}
	return !bytes.Equal(r.Data, c.raced)
}

// soleWriter is a store that knows, without a round trip, whether this
// process alone writes a channel's record (store.Redis).
type soleWriter interface {
	Alone(channel string) bool
}

// overtakenTimeout bounds overtaken's read of the store, within the time
// the answer has.
const overtakenTimeout = 250 * time.Millisecond

// sendLocked is send under ansMu, with its own time limit: Discord's 3 s
// for a first answer; for the answer of a deferred interaction, which goes
// through the interaction's token (valid 15 minutes), deferredTimeout, so
// that an upload slowed by a busy machine still lands.
func (c *Call) sendLocked(r *discordgo.InteractionResponse) {
	c.ansMu.Lock()
	defer c.ansMu.Unlock()
	limit := respondTimeout
	if c.deferred != 0 || c.unsure != 0 {
		limit = deferredTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	c.Send(ctx, r)
}

// Send is respond without the board's fence.
func (c *Call) Send(ctx context.Context, r *discordgo.InteractionResponse) {
	if c.deferred == 0 && c.unsure != 0 && c.deferralTaken(ctx) {
		c.deferred = c.unsure
	}
	if c.deferred != 0 {
		c.Responded = true
		if r.Type == discordgo.InteractionResponseDeferredMessageUpdate {
			c.Answered = true // acknowledged already: nothing to change
			return
		}
		sent := r
		err := c.finishDeferred(ctx, r)
		if up := c.uploadInstead(r, err); up != nil {
			sent, err = up, c.finishDeferred(ctx, up)
		}
		if alt := c.elsewhere(r, err); alt != nil {
			sent, err = alt, c.finishDeferred(ctx, alt)
		}
		if sent.Type != discordgo.InteractionResponseUpdateMessage {
			// A message of its own (a follow-up): the message clicked,
			// though still the interaction's "@original", does not show
			// the answer.
			c.updated = ""
		}
		c.Answered = err == nil
		return
	}
	c.Responded = true
	err := c.D.Respond(ctx, c.I, r)
	if up := c.uploadInstead(r, err); up != nil {
		r, err = up, c.D.Respond(ctx, c.I, up)
	}
	if alt := c.elsewhere(r, err); alt != nil {
		r, err = alt, c.D.Respond(ctx, c.I, alt)
	}
	if err != nil {
		if c.unsure != 0 && acknowledged(err) {
			// The deferral whose reply was lost had been taken.
			c.deferred = c.unsure
			c.Answered = r.Type == discordgo.InteractionResponseDeferredMessageUpdate || c.finishDeferred(ctx, r) == nil
			return
		}
		if c.Answered = c.answerRefused(ctx, r, err); !c.Answered {
			c.B.log.Warn("answer failed", "interaction", c.I.ID, "err", err)
		}
		return
	}
	c.Answered = true
	if r.Type == discordgo.InteractionResponseUpdateMessage && c.I.Message != nil {
		c.updated = c.I.Message.ID
	}
	c.acked = r.Type == discordgo.InteractionResponseDeferredMessageUpdate
}

// elsewhere is r, an update of the private prompt clicked, as a private
// message of its own when Discord no longer has that prompt (10008
// Unknown Message: removed once its decision was taken, by a click
// answered just before this one); nil otherwise. The update refused, the
// interaction is still to be answered.
func (c *Call) elsewhere(r *discordgo.InteractionResponse, err error) *discordgo.InteractionResponse {
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Message == nil || re.Message.Code != discordgo.ErrCodeUnknownMessage {
		return nil
	}
	return c.apart(r)
}

// apart is r, an update of the private prompt clicked, as a private
// message of its own (nil: r is no such update): files r kept by
// reference are uploaded with it, and an image of the prompt's own files
// it would not carry is left out.
func (c *Call) apart(r *discordgo.InteractionResponse) *discordgo.InteractionResponse {
	m := c.I.Message
	if r.Type != discordgo.InteractionResponseUpdateMessage || r.Data == nil || m == nil || m.Flags&discordgo.MessageFlagsEphemeral == 0 {
		return nil
	}
	d := *r.Data
	d.Flags |= discordgo.MessageFlagsEphemeral
	if len(d.Files) == 0 {
		d.Files, c.keptFiles = c.keptFiles, nil
	}
	d.Attachments = nil
	if len(d.Files) == 0 {
		d.Embeds = withoutFiles(d.Embeds)
	}
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &d}
}

// withoutFiles is embeds without the images they show from files of the
// message they were on (attachment://name), which a new message without
// those files cannot show.
func withoutFiles(embeds []*discordgo.MessageEmbed) []*discordgo.MessageEmbed {
	out := make([]*discordgo.MessageEmbed, 0, len(embeds))
	for _, e := range embeds {
		if e != nil && e.Image != nil && strings.HasPrefix(e.Image.URL, "attachment://") {
			c := *e
			c.Image = nil
			e = &c
		}
		out = append(out, e)
	}
	return out
}

// Update answers by editing the message the component sits on (type 7).
// With files, they are uploaded and the message keeps no other attachment:
// its old picture is replaced. Without, the message keeps those of its
// pictures the new embeds still show and loses the others
// (orphanedPictures); embeds read from that message may be given back:
// their pictures stay shown once (byReference).
func (c *Call) Update(content string, embeds []*discordgo.MessageEmbed, comps []discordgo.MessageComponent, files ...*discordgo.File) {
	if comps == nil {
		comps = []discordgo.MessageComponent{}
	}
	if embeds == nil {
		embeds = []*discordgo.MessageEmbed{}
	}
	var atts *[]*discordgo.MessageAttachment
	if kept := c.keptAnswerPictures(files); kept != nil {
		// The message has these pictures: kept, not uploaded again
		// (pictures.go).
		c.keptFiles, files, atts = files, nil, kept
	} else if len(files) > 0 {
		atts = attachmentsFor(files)
	} else {
		embeds = byReference(embeds)
		atts = orphanedPictures(c.I.Message, embeds)
	}
	r := &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseUpdateMessage,
		Data: &discordgo.InteractionResponseData{Content: content, Embeds: embeds, Components: comps, AllowedMentions: noMentions(),
			Files: files, Attachments: atts},
	}
	if m := c.I.Message; m != nil && m.Flags&discordgo.MessageFlagsEphemeral != 0 {
		// A private prompt: its removal (dismissPrompt) waits for this
		// answer; once removed, there is no message to update.
		unlock := c.B.dismissed.lock(m.ID)
		defer unlock()
		if c.B.dismissed.has(m.ID) {
			r = c.apart(r)
		}
	}
	c.Respond(r)
}

func noMentions() *discordgo.MessageAllowedMentions {
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}
}

func messageURL(guild, channel, message string) string {
	if guild == "" {
		guild = "@me"
	}
	return "https://discord.com/channels/" + guild + "/" + channel + "/" + message
}

// updateOrReply replaces the ephemeral prompt the user clicked on with text
// (or answers with an ephemeral message when there is no such message: a
// public one is never replaced by a private answer's text).
func (c *Call) updateOrReply(text string, comps []discordgo.MessageComponent) {
	if !clickedEphemeral(c.I) {
		c.Ephemeral(text, comps)
		return
	}
	c.Update(text, nil, comps)
}

// clickedEphemeral reports whether i is a click on an ephemeral message:
// one the clicker alone sees, which an answer may replace in place.
func clickedEphemeral(i *discordgo.Interaction) bool {
	return i.Type == discordgo.InteractionMessageComponent && i.Message != nil && i.Message.Flags&discordgo.MessageFlagsEphemeral != 0
}

// Modal answers with a modal of text inputs.
func (c *Call) Modal(id, title string, inputs []discordgo.TextInput) {
	rows := make([]discordgo.MessageComponent, len(inputs))
	for i, in := range inputs {
		rows[i] = discordgo.ActionsRow{Components: []discordgo.MessageComponent{in}}
	}
	c.Respond(&discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseModal,
		Data: &discordgo.InteractionResponseData{CustomID: id, Title: present.Truncate(title, present.MaxModalTitle), Components: rows},
	})
}
