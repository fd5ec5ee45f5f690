package bot

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/locales"
)

// A board Discord refuses for good.
//
// The board and the final scoreboard are the two messages a game cannot
// do without. When Discord refuses to post one of them for good (a client
// error other than a rate limit: a permission removed from the bot
// mid-game, the thread archived, the channel deleted), the effect is not
// dropped as other refused effects are (outbox.go): it stays first in the
// outbox, holding back the effects after it, and the table data records
// why (missing). While it is missing:
//   - the game's clock is held, so nobody runs out of time, and no
//     computer plays their seat, on a board nobody can see;
//   - the bot token tries again by itself, at growing intervals
//     (missingRetry): eleven tries (a request or two each) over two and a
//     half hours, then only a click or a command in the game tries again;
//   - every click or command in the game tries again at once, through its
//     own interaction (a follow-up needs no Send Messages), after its
//     answer; the click itself works as usual where it can (game state is
//     never lost), and if the board is still missing its user is told
//     privately, in their language, what is missing, why (the permissions
//     the bot lacks, read from the interaction's app_permissions), what to
//     do about it, and that the game waits for it or can be abandoned.
//
// Once a post goes through, the mark goes, the clock runs again and nobody
// is told anything more. A channel that no longer exists (10003 Unknown
// Channel) is not tried again: nobody can click there any more, so the
// game stays in the store untouched until it expires (GameTTL), and the
// log says so.
//
// An answer Discord refuses for what it carries (embeds without Embed
// Links, files without Attach Files) is replaced by a private text saying
// why (answerRefused), so that a permission removed mid-game never shows
// as "This interaction failed".

// Missing is why the board (or the final scoreboard) a game owes is not
// in its channel: Discord refused it for good.
type Missing struct {
	Kind   string    `json:"k"`           // effBoard or effScores
	Status int       `json:"s,omitempty"` // HTTP status of the last refusal
	Code   int       `json:"c,omitempty"` // Discord's JSON error code of the last refusal (0: none)
	Since  time.Time `json:"t"`           // the first refusal
	Tries  int       `json:"n"`           // refusals so far
	// Next is when the bot token tries again by itself (zero: only a
	// click or a command in the game does).
	Next time.Time `json:"nx,omitzero"`
}

// Tries of a refused board with the bot token: after the n-th refusal the
// next try comes missingFirst·2ⁿ⁻¹ later, at most missingMax, and there
// are fewer than missingTries of them in all (about two and a half hours).
// A try is one or two requests (two with a picture): a game whose channel
// stays closed to the bot costs Discord a few dozen requests, not a loop.
const (
	MissingFirst = 15 * time.Second
	missingMax   = 30 * time.Minute
	MissingTries = 12
)

// MissingRetry is how long after the tries-th refusal the bot token tries
// again (zero: it does not).
func MissingRetry(tries int) time.Duration {
	if tries < 1 || tries >= MissingTries {
		return 0
	}
	d := MissingFirst
	for i := 1; i < tries && d < missingMax; i++ {
		d *= 2
	}
	return min(d, missingMax)
}

// Held reports whether an effect of kind stays owed when Discord refuses
// it for good: the board and the final scoreboard.
func Held(kind string) bool { return kind == EffBoard || kind == EffScores }

// Holds reports whether effs owe a board or a scoreboard.
func Holds(effs []Effect) bool {
	for _, e := range effs {
		if Held(e.Kind) {
			return true
		}
	}
	return false
}

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

// SupersededBoard reports whether the effects after a board post owe
// another board or the scoreboard, which show the game as it stands: a
// board missing for several turns comes back as one post.
func SupersededBoard(after []Effect) bool { return Holds(after) }

// Near reports whether two stored times are the same moment, to the
// precision of any store.
func Near(a, b time.Time) bool {
	d := a.Sub(b)
	return d > -time.Second && d < time.Second
}

// notice is what a call knows about its game's board being missing.
type notice struct {
	Seen  *dixbot.Record // the game as the call last read or wrote it
	Ran   bool           // the call did its game's outbox (settle)
	After *Missing       // the mark as that run left it
	told  string         // what the answer itself told the user ("": nothing)
}

// What an answer refused by Discord told its user instead (notice.told).
const (
	toldAnswer = "answer" // why the answer could not be shown
	toldBoard  = "board"  // that the board is missing, and why
)

// MissingKey is how the mark starts in the table data (dixTable.Missing).
var MissingKey = []byte(`"bm":{`)

// tellMissing queues what a call in a game whose board is missing owes
// after its answer: a try at once through its interaction (unless the
// call did the outbox already) and, if the board is still missing, a
// private notice to its user.
func (c *Call) tellMissing() {
	c.Then(func(ctx context.Context) {
		v := c.Via()
		if v == nil {
			return // not answered: no follow-up possible
		}
		mk := c.Notice.After
		if !c.Notice.Ran {
			if c.seenMissing() == nil {
				return
			}
			var err error
			mk, err = c.retryMissing(ctx, v)
			if err != nil {
				c.B.Log.Warn("the missing board was not tried again", "channel", c.I.ChannelID, "err", err)
			}
		}
		if mk == nil || c.Notice.told == toldBoard {
			return
		}
		text := c.missingNotice(c.Lang, mk)
		if c.Notice.told == toldAnswer {
			// The answer said why it could not be shown: it says that
			// the board is missing too, in one message rather than two.
			ectx, cancel := context.WithTimeout(ctx, RespondTimeout)
			defer cancel()
			err := c.D.FollowupEdit(ectx, c.I, "@original", &discordgo.WebhookEdit{Content: &text, AllowedMentions: NoMentions()})
			if err == nil {
				return
			}
			c.B.Log.Warn("could not edit the answer into the missing board's notice", "interaction", c.I.ID, "err", err)
		}
		c.Ephemeral(text, nil)
	})
}

// answerRefused answers with a private text when Discord refused the
// answer r for good for what it carries (embeds or files, which need
// permissions the channel may have lost mid-game): the user is told why
// rather than shown "This interaction failed". It reports whether that
// answer went through.
func (c *Call) answerRefused(ctx context.Context, r *discordgo.InteractionResponse, err error) bool {
	d := r.Data
	if d == nil || !Permanent(err) || (len(d.Embeds) == 0 && len(d.Files) == 0) {
		return false
	}
	if _, code := Refusal(err); code != discordgo.ErrCodeMissingPermissions {
		return false
	}
	var text string
	told := toldAnswer
	if mk := c.seenMissing(); mk != nil {
		text, told = c.missingNotice(c.Lang, mk), toldBoard
	} else {
		reason, fix := RefusalText(c.Lang, discordgo.ErrCodeMissingPermissions, 0, c.I.AppPermissions, len(d.Files) > 0)
		text = locales.T(c.Lang, "answer_refused", map[string]any{"Reason": reason, "Fix": fix})
	}
	alt := &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: text, Flags: discordgo.MessageFlagsEphemeral,
			Components: []discordgo.MessageComponent{}, AllowedMentions: NoMentions()},
	}
	if rerr := c.D.Respond(ctx, c.I, alt); rerr != nil {
		c.B.Log.Warn("answer refused, and its text alone too", "interaction", c.I.ID, "err", err, "then", rerr)
		return false
	}
	c.B.Log.Info("answer refused by Discord; the user was told why", "interaction", c.I.ID, "channel", c.I.ChannelID, "err", err)
	c.Notice.told = told
	return true
}

// MissingText is the notice of mk in lang: what is missing, why, what to
// do, and that the game waits. perms are the bot's permissions in the
// channel as an interaction tells them (0: unknown).
func MissingText(lang string, mk *Missing, perms int64) string {
	key := "board_missing"
	if mk.Kind == EffScores {
		key = "scores_missing"
	}
	reason, fix := RefusalText(lang, mk.Code, mk.Status, perms, false)
	return locales.T(lang, key, map[string]any{"Reason": reason, "Fix": fix})
}

// RefusalText says in lang why Discord refused a message (code and status
// of its answer), and what to do about it. perms are the bot's permissions
// in the channel (0: unknown); files: the message carried files.
func RefusalText(lang string, code, status int, perms int64, files bool) (reason, fix string) {
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
