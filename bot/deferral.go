package bot

import (
	"context"
	"errors"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot/locales"
)

// An interaction whose answer is not ready within deferAfter of its
// arrival (a slow store, a store call tried again) is deferred, so that
// Discord's 3 s deadline never turns a click into "This interaction
// failed": a component with DEFERRED_UPDATE_MESSAGE (type 6: no loading
// state, the message it sits on is edited later as "@original"), a command
// with DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE (type 5: "thinking…", ephemeral
// when its answer will be). The answer then goes through the interaction's
// token, valid for 15 minutes: the edit of "@original" or a follow-up
// (https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-interaction-callback-type,
// https://discord.com/developers/docs/interactions/receiving-and-responding#followup-messages).

// deferNow defers the interaction unless it was answered already. It runs
// on a timer, concurrently with the handler.
func (c *Call) deferNow() {
	c.ansMu.Lock()
	defer c.ansMu.Unlock()
	if c.Responded || c.closed || c.deferred != 0 {
		return
	}
	r := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}
	if c.I.Message == nil || c.rematch() {
		// A command (or a modal not sent from a message), or a Rematch,
		// whose answer is a new message: "thinking…", with the
		// visibility its answer will have, and the answer's place, its
		// "@original".
		r.Type = discordgo.InteractionResponseDeferredChannelMessageWithSource
		r.Data = &discordgo.InteractionResponseData{AllowedMentions: noMentions()}
		if !c.publicAnswer() {
			r.Data.Flags = discordgo.MessageFlagsEphemeral
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), respondTimeout)
	defer cancel()
	if err := c.D.Respond(ctx, c.I, r); err != nil {
		var re *discordgo.RESTError
		if !errors.As(err, &re) {
			// No reply from Discord: the deferral may have been taken
			// (the answer finds out which, deferralTaken).
			c.unsure = r.Type
		}
		c.B.log.Warn("deferral failed", "interaction", c.I.ID, "err", err)
		return
	}
	c.B.log.Info("answer deferred", "interaction", c.I.ID, "channel", c.I.ChannelID, "kind", c.kind)
	c.deferred, c.Answered = r.Type, true
	if r.Type == discordgo.InteractionResponseDeferredMessageUpdate {
		c.updated = c.I.Message.ID // "@original" is the message clicked on
	}
}

// deferralTaken reports whether Discord took the deferral whose reply
// never came back (c.unsure): the interaction then has its "@original"
// (the "thinking…" message, or the message clicked on), and a second
// callback would be refused (40060), so the answer goes as a deferred
// one. A deferral not taken (or no way to tell) leaves the callback.
func (c *Call) deferralTaken(ctx context.Context) bool {
	if c.unsure == discordgo.InteractionResponseDeferredMessageUpdate {
		// "@original" of a component is the message clicked on, which
		// exists either way: a callback is tried, and a refusal says the
		// deferral was taken.
		return false
	}
	msg, err := c.D.Original(ctx, c.I)
	return err == nil && msg != nil
}

// acknowledged reports whether err is Discord's refusal of a second
// callback to one interaction (40060 Interaction has already been
// acknowledged).
func acknowledged(err error) bool {
	var re *discordgo.RESTError
	return errors.As(err, &re) && re.Message != nil && re.Message.Code == discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged
}

// publicAnswer reports whether the command's answer is a public message:
// the lobby of /<game> start, the start of /<game> solo, the board /<game>
// board posts again (and makes the table's), the leaderboard. Every other
// answer is ephemeral. A deferred answer keeps the visibility of its
// "thinking…" message, which an edit cannot change
// (https://discord.com/developers/docs/interactions/receiving-and-responding#followup-messages),
// so a private answer to one of these (a refusal) replaces it with a
// private follow-up (finishDeferred).
func (c *Call) publicAnswer() bool {
	if c.rematch() {
		return true // the new game's lobby or board
	}
	d, ok := c.I.Data.(discordgo.ApplicationCommandInteractionData)
	if ok && d.Name == En("leaderboard_cmd_name") {
		return true
	}
	if !ok || len(d.Options) == 0 || d.Options[0] == nil {
		return false
	}
	switch c.B.cmdIDs[d.Options[0].Name] {
	case "start", "solo", "board":
		return true
	}
	return false
}

// rematch reports whether the interaction is a click on a final
// scoreboard's Rematch, whose answer is the new game's lobby or board.
func (c *Call) rematch() bool {
	d, ok := c.I.Data.(discordgo.MessageComponentInteractionData)
	if !ok {
		return false
	}
	p, err := parseID(d.CustomID, gameVerbs)
	return err == nil && p.Verb == verbAgain
}

// close ends the answering: a deferral no longer goes out, and a deferred
// command that got no answer, or whose answer Discord refused, loses its
// "thinking…" message, which would otherwise stay empty (and, the answer
// of /<game> board, be taken for the table's board).
func (c *Call) close() {
	c.ansMu.Lock()
	defer c.ansMu.Unlock()
	c.closed = true
	if c.deferred == discordgo.InteractionResponseDeferredChannelMessageWithSource && (!c.Responded || !c.Answered) {
		ctx, cancel := context.WithTimeout(context.Background(), respondTimeout)
		defer cancel()
		if err := c.D.DeleteOriginal(ctx, c.I); err != nil {
			c.B.log.Warn("could not remove the deferred answer", "interaction", c.I.ID, "err", err)
		}
	}
}

// editRetryPause is the pause before a deferred answer's edit whose reply
// did not come is sent again.
const editRetryPause = 250 * time.Millisecond

// finishDeferred sends r, the answer of a deferred interaction, through
// the interaction's token: an update of the message clicked on edits it
// ("@original"), a message edits the "thinking…" message of a command
// (the first follow-up would do the same) or is a follow-up of a
// component, and a modal, which can only be a first answer, becomes a
// private note asking to click again. It returns Discord's error.
func (c *Call) finishDeferred(ctx context.Context, r *discordgo.InteractionResponse) error {
	d := r.Data
	if d == nil {
		d = &discordgo.InteractionResponseData{}
	}
	if d.Embeds == nil {
		d.Embeds = []*discordgo.MessageEmbed{}
	}
	if d.Components == nil {
		d.Components = []discordgo.MessageComponent{}
	}
	// The "thinking…" message of a command becomes its answer.
	editThinking := c.deferred == discordgo.InteractionResponseDeferredChannelMessageWithSource
	if ephemeral := d.Flags&discordgo.MessageFlagsEphemeral != 0; editThinking && ephemeral && c.publicAnswer() {
		// Except a private answer (a refusal of /dix start) after a public
		// "thinking…": that one goes, and the answer follows privately.
		if err := c.D.DeleteOriginal(ctx, c.I); err != nil {
			c.B.log.Warn("could not remove the deferred answer", "interaction", c.I.ID, "err", err)
		}
		editThinking = false
	}
	var err error
	switch {
	case r.Type == discordgo.InteractionResponseModal:
		_, err = c.D.Followup(ctx, c.I, &discordgo.WebhookParams{
			Content: locales.T(c.Lang, "slow_modal", nil), Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions(),
		})
	case r.Type == discordgo.InteractionResponseUpdateMessage, editThinking:
		atts := d.Attachments
		if len(d.Files) > 0 && atts == nil {
			// An edit that uploads files says which files stay: without
			// "attachments" Discord keeps the message's old files beside
			// the new ones
			// (https://discord.com/developers/docs/resources/webhook#edit-webhook-message).
			atts = attachmentsFor(d.Files)
		}
		edit := func() error {
			return c.D.EditOriginal(ctx, c.I, &discordgo.WebhookEdit{
				Content: &d.Content, Embeds: &d.Embeds, Components: &d.Components,
				Files: d.Files, Attachments: atts, AllowedMentions: d.AllowedMentions,
			})
		}
		// An edit is the same whenever it lands: one whose reply did not
		// come (a slow upload, a connection cut) is sent again while the
		// answer has time, so the click is not left unanswered.
		var re *discordgo.RESTError
		for err = edit(); err != nil && !errors.As(err, &re); err = edit() {
			c.B.log.Info("deferred answer's edit to be tried again", "interaction", c.I.ID, "err", err)
			select {
			case <-ctx.Done():
				return err
			case <-time.After(editRetryPause):
			}
		}
	default:
		_, err = c.D.Followup(ctx, c.I, &discordgo.WebhookParams{
			Content: d.Content, Embeds: d.Embeds, Components: d.Components, Flags: d.Flags,
			Files: d.Files, AllowedMentions: d.AllowedMentions,
		})
	}
	if err != nil {
		c.B.log.Warn("deferred answer failed", "interaction", c.I.ID, "err", err)
	}
	return err
}
