package bot

import (
	"context"
	"errors"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot/locales"
)

// An answer Discord refuses for what it carries (embeds without Embed
// Links, files without Attach Files) is replaced by a private text saying
// why (answerRefused), so that a permission removed mid-game never shows
// as "This interaction failed".

// Refusal is the HTTP status and Discord's JSON error code of a refused
// request (zeros when err is not an answer of Discord's).
func Refusal(err error) (status, code int) {
	var rerr *discordgo.RESTError
	if !errors.As(err, &rerr) {
		return 0, 0
	}
	if rerr.Response != nil {
		status = rerr.Response.StatusCode
	}
	if rerr.Message != nil {
		code = rerr.Message.Code
	}
	return status, code
}

// answerRefused answers with a private text when Discord refused the
// answer r for good for what it carries (embeds or files, which need
// permissions the channel may have lost mid-game): the user is told why
// rather than shown "This interaction failed". It reports whether that
// answer went through.
func (c *Call) answerRefused(ctx context.Context, r *discordgo.InteractionResponse, err error) bool {
	d := r.Data
	if d == nil || !permanent(err) || (len(d.Embeds) == 0 && len(d.Files) == 0) {
		return false
	}
	if _, code := Refusal(err); code != discordgo.ErrCodeMissingPermissions {
		return false
	}
	text, told := c.refusedText(len(d.Files) > 0)
	alt := &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: text, Flags: discordgo.MessageFlagsEphemeral,
			Components: []discordgo.MessageComponent{}, AllowedMentions: noMentions()},
	}
	if rerr := c.D.Respond(ctx, c.I, alt); rerr != nil {
		c.B.log.Warn("answer refused, and its text alone too", "interaction", c.I.ID, "err", err, "then", rerr)
		return false
	}
	c.B.log.Info("answer refused by Discord; the user was told why", "interaction", c.I.ID, "channel", c.I.ChannelID, "err", err)
	c.notice.told = told
	return true
}

// refusalText says in lang why Discord refused a message (code and status
// of its answer), and what to do about it. perms are the bot's permissions
// in the channel (0: unknown); files: the message carried files.
func refusalText(lang string, code, status int, perms int64, files bool) (reason, fix string) {
	switch code {
	case discordgo.ErrCodePerformedOperationOnArchivedThread:
		return locales.T(lang, "missing_archived", nil), locales.T(lang, "missing_fix_archived", nil)
	case discordgo.ErrCodeUnknownChannel:
		return locales.T(lang, "missing_gone", nil), locales.T(lang, "missing_fix_gone", nil)
	}
	if keys := lacking(perms, code, files); len(keys) > 0 {
		names := make([]string, len(keys))
		for i, k := range keys {
			names[i] = "**" + locales.T(lang, k, nil) + "**"
		}
		return locales.N(lang, "missing_perms", len(names), map[string]any{"Perms": listText(lang, names)}),
			locales.N(lang, "missing_fix_perms", len(names), nil)
	}
	if code == discordgo.ErrCodeMissingPermissions || code == discordgo.ErrCodeMissingAccess {
		return locales.T(lang, "missing_some_perm", nil), locales.T(lang, "missing_fix_some_perm", nil)
	}
	if code == 0 {
		code = status
	}
	return locales.T(lang, "missing_other", map[string]any{"Code": code}), locales.T(lang, "missing_fix_other", nil)
}

// lacking are the locale keys of the permissions a game needs in its
// channel that perms lacks (see neededPermissions), Attach Files too when
// the message carried files. With perms unknown (0), only what the refusal
// says for sure: 50001 Missing Access is no View Channel.
func lacking(perms int64, code int, files bool) []string {
	if perms == 0 {
		if code == discordgo.ErrCodeMissingAccess {
			return []string{"perm_view_channel"}
		}
		return nil
	}
	if perms&discordgo.PermissionAdministrator != 0 {
		return nil
	}
	const send, inThreads = discordgo.PermissionSendMessages, discordgo.PermissionSendMessagesInThreads
	var keys []string
	if perms&discordgo.PermissionViewChannel == 0 {
		keys = append(keys, "perm_view_channel")
	}
	if perms&send == 0 {
		// In a thread Send Messages in Threads is the one that counts,
		// but the interaction does not say which kind of channel this
		// is: a channel is the common case, and naming Send Messages
		// where it is not needed costs nothing.
		keys = append(keys, "perm_send_messages")
	}
	if perms&discordgo.PermissionEmbedLinks == 0 {
		keys = append(keys, "perm_embed_links")
	}
	if files && perms&discordgo.PermissionAttachFiles == 0 {
		keys = append(keys, "perm_attach_files")
	}
	if len(keys) == 0 && code == discordgo.ErrCodeMissingPermissions && perms&inThreads == 0 {
		// Nothing else explains the refusal: this is a thread.
		keys = append(keys, "perm_send_threads")
	}
	return keys
}

// listText joins names in lang: "A", "A and B", "A, B and C".
func listText(lang string, names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return locales.T(lang, "list_and", map[string]any{"List": strings.Join(names[:len(names)-1], ", "), "Last": names[len(names)-1]})
}
