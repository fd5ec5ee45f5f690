package bot

import (
	"context"

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
func (c *call) deferNow() {
	c.ansMu.Lock()
	defer c.ansMu.Unlock()
	if c.responded || c.closed || c.deferred != 0 {
		return
	}
	r := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}
	if c.i.Message == nil {
		// A command (or a modal not sent from a message): "thinking…",
		// with the visibility its answer will have.
		r.Type = discordgo.InteractionResponseDeferredChannelMessageWithSource
		r.Data = &discordgo.InteractionResponseData{}
		if !c.publicAnswer() {
			r.Data.Flags = discordgo.MessageFlagsEphemeral
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), respondTimeout)
	defer cancel()
	if err := c.d.Respond(ctx, c.i, r); err != nil {
		c.b.log.Warn("deferral failed", "interaction", c.i.ID, "err", err)
		return
	}
	c.b.log.Info("answer deferred", "interaction", c.i.ID, "channel", c.i.ChannelID, "kind", c.kind)
	c.deferred, c.answered = r.Type, true
	if r.Type == discordgo.InteractionResponseDeferredMessageUpdate {
		c.updated = c.i.Message.ID // "@original" is the message clicked on
	}
}

// publicAnswer reports whether the command's answer is a public message
// (the lobby of /dix start, the start of /dix solo); every other answer is
// ephemeral, but for the final scoreboard /dix board shows after a game:
// that one, deferred, is shown to its asker alone.
func (c *call) publicAnswer() bool {
	d, ok := c.i.Data.(discordgo.ApplicationCommandInteractionData)
	if ok && d.Name == en("leaderboard_cmd_name") {
		return true
	}
	if !ok || len(d.Options) == 0 || d.Options[0] == nil {
		return false
	}
	switch c.b.cmdIDs[d.Options[0].Name] {
	case "start", "solo":
		return true
	}
	return false
}

// close ends the answering: a deferral no longer goes out, and a deferred
// command that got no answer loses its "thinking…" message.
func (c *call) close() {
	c.ansMu.Lock()
	defer c.ansMu.Unlock()
	c.closed = true
	if c.deferred == discordgo.InteractionResponseDeferredChannelMessageWithSource && !c.responded {
		ctx, cancel := context.WithTimeout(context.Background(), respondTimeout)
		defer cancel()
		if err := c.d.DeleteOriginal(ctx, c.i); err != nil {
			c.b.log.Warn("could not remove the deferred answer", "interaction", c.i.ID, "err", err)
		}
	}
}

// finishDeferred sends r, the answer of a deferred interaction, through
// the interaction's token: an update of the message clicked on edits it
// ("@original"), a message edits the "thinking…" message of a command
// (the first follow-up would do the same) or is a follow-up of a
// component, and a modal, which can only be a first answer, becomes a
// private note asking to click again. It returns Discord's error.
func (c *call) finishDeferred(ctx context.Context, r *discordgo.InteractionResponse) error {
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
		if err := c.d.DeleteOriginal(ctx, c.i); err != nil {
			c.b.log.Warn("could not remove the deferred answer", "interaction", c.i.ID, "err", err)
		}
		editThinking = false
	}
	var err error
	switch {
	case r.Type == discordgo.InteractionResponseModal:
		_, err = c.d.Followup(ctx, c.i, &discordgo.WebhookParams{
			Content: locales.T(c.lang, "slow_modal", nil), Flags: discordgo.MessageFlagsEphemeral, AllowedMentions: noMentions(),
		})
	case r.Type == discordgo.InteractionResponseUpdateMessage, editThinking:
		err = c.d.EditOriginal(ctx, c.i, &discordgo.WebhookEdit{
			Content: &d.Content, Embeds: &d.Embeds, Components: &d.Components,
			Files: d.Files, Attachments: d.Attachments, AllowedMentions: d.AllowedMentions,
		})
	default:
		_, err = c.d.Followup(ctx, c.i, &discordgo.WebhookParams{
			Content: d.Content, Embeds: d.Embeds, Components: d.Components, Flags: d.Flags,
			Files: d.Files, AllowedMentions: d.AllowedMentions,
		})
	}
	if err != nil {
		c.b.log.Warn("deferred answer failed", "interaction", c.i.ID, "err", err)
	}
	return err
}
