package tabletest

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
)

// CheckMessage asserts Discord's limits on one message and that it shows
// no missing locale string. The characters of all its embeds' titles,
// descriptions, fields, footers and authors count together against 6,000
// (https://discord.com/developers/docs/resources/message#embed-object-embed-limits).
func CheckMessage(t testing.TB, where, content string, embeds []*discordgo.MessageEmbed, comps []discordgo.MessageComponent) {
	t.Helper()
	assert.LessOrEqual(t, utf8.RuneCountInString(content), 2000, "%s: content", where)
	assert.NotContains(t, content, "⟦", "%s: missing string in content", where)
	assert.LessOrEqual(t, len(embeds), 10, "%s: embeds", where)
	total := 0
	for _, e := range embeds {
		total += CheckEmbed(t, where, e)
	}
	assert.LessOrEqual(t, total, 6000, "%s: the embeds' total", where)
	CheckComponents(t, where, comps)
}

// CheckEmbed asserts Discord's limits on one embed and returns its
// characters counted against the message's total.
func CheckEmbed(t testing.TB, where string, e *discordgo.MessageEmbed) int {
	t.Helper()
	n := utf8.RuneCountInString
	total := n(e.Title) + n(e.Description)
	assert.LessOrEqual(t, n(e.Title), 256, "%s: title", where)
	assert.LessOrEqual(t, n(e.Description), 4096, "%s: description", where)
	assert.LessOrEqual(t, len(e.Fields), 25, "%s: fields", where)
	all := e.Title + e.Description
	for _, f := range e.Fields {
		assert.LessOrEqual(t, n(f.Name), 256, "%s: field name", where)
		assert.LessOrEqual(t, n(f.Value), 1024, "%s: field value %q", where, f.Name)
		assert.NotEmpty(t, strings.TrimSpace(f.Name), "%s: empty field name", where)
		assert.NotEmpty(t, strings.TrimSpace(f.Value), "%s: empty field value %q", where, f.Name)
		total += n(f.Name) + n(f.Value)
		all += f.Name + f.Value
	}
	if e.Footer != nil {
		assert.LessOrEqual(t, n(e.Footer.Text), 2048, "%s: footer", where)
		total += n(e.Footer.Text)
		all += e.Footer.Text
	}
	if e.Author != nil {
		assert.LessOrEqual(t, n(e.Author.Name), 256, "%s: author", where)
		total += n(e.Author.Name)
		all += e.Author.Name
	}
	assert.NotContains(t, all, "⟦", "%s: missing string", where)
	assert.NotContains(t, all, "<no value>", "%s: missing placeholder", where)
	return total
}

func CheckComponents(t testing.TB, where string, comps []discordgo.MessageComponent) {
	t.Helper()
	assert.LessOrEqual(t, len(comps), 5, "%s: rows", where)
	seen := map[string]bool{}
	for _, c := range comps {
		row, ok := c.(discordgo.ActionsRow)
		if !assert.True(t, ok, "%s: top-level %T", where, c) {
			continue
		}
		assert.LessOrEqual(t, len(row.Components), 5, "%s: row size", where)
		assert.NotEmpty(t, row.Components, "%s: empty row", where)
		for _, cc := range row.Components {
			var id string
			switch v := cc.(type) {
			case discordgo.Button:
				id = v.CustomID
				assert.LessOrEqual(t, utf8.RuneCountInString(v.Label), 80, "%s: label %q", where, v.Label)
				assert.NotEmpty(t, v.Label, "%s: empty label", where)
				assert.NotContains(t, v.Label, "⟦", "%s: missing label", where)
			case discordgo.SelectMenu:
				id = v.CustomID
				assert.Len(t, row.Components, 1, "%s: a select fills its row", where)
				assert.LessOrEqual(t, len(v.Options), 25, "%s: options", where)
				assert.NotEmpty(t, v.Options, "%s: select without options", where)
				values := map[string]bool{}
				for _, o := range v.Options {
					assert.LessOrEqual(t, utf8.RuneCountInString(o.Label), 100, "%s: option label", where)
					assert.False(t, values[o.Value], "%s: duplicate option %q", where, o.Value)
					values[o.Value] = true
				}
			case discordgo.TextInput:
				id = v.CustomID
				assert.LessOrEqual(t, utf8.RuneCountInString(v.Label), 45, "%s: input label", where)
			default:
				t.Errorf("%s: unexpected component %T", where, cc)
			}
			assert.LessOrEqual(t, len(id), 100, "%s: custom id %q", where, id)
			assert.False(t, seen[id], "%s: custom id %q twice", where, id)
			seen[id] = true
		}
	}
}

// CheckAllCalls checks every recorded message and that pings mention only
// the users allowed.
func CheckAllCalls(t testing.TB, calls []Call) {
	t.Helper()
	for k, c := range calls {
		where := fmt.Sprintf("call %d (%s)", k, c.Op)
		switch {
		case c.Resp != nil && c.Resp.Data != nil:
			d := c.Resp.Data
			if c.Resp.Type == discordgo.InteractionResponseModal {
				assert.LessOrEqual(t, len(d.CustomID), 100, where)
				assert.LessOrEqual(t, utf8.RuneCountInString(d.Title), 45, "%s: modal title", where)
				assert.LessOrEqual(t, len(d.Components), 5, where)
				continue
			}
			CheckMessage(t, where, d.Content, d.Embeds, d.Components)
			CheckMentions(t, where, d.Content, d.AllowedMentions)
		case c.Send != nil:
			CheckMessage(t, where, c.Send.Content, c.Send.Embeds, c.Send.Components)
			CheckMentions(t, where, c.Send.Content, c.Send.AllowedMentions)
		case c.Edit != nil:
			var embeds []*discordgo.MessageEmbed
			var comps []discordgo.MessageComponent
			if c.Edit.Embeds != nil {
				embeds = *c.Edit.Embeds
			}
			if c.Edit.Components != nil {
				comps = *c.Edit.Components
			}
			CheckMessage(t, where, "", embeds, comps)
			assert.NotNil(t, c.Edit.AllowedMentions, where)
		case c.Params != nil:
			CheckMessage(t, where, c.Params.Content, c.Params.Embeds, c.Params.Components)
			CheckMentions(t, where, c.Params.Content, c.Params.AllowedMentions)
		}
	}
}

// userMention is a mention of a user in a message's text, as Discord reads
// one (https://discord.com/developers/docs/reference#message-formatting);
// the tests' people have ids such as "u1". A name escaped by the table
// ("\<@\u200bu1\>") mentions no one.
var userMention = regexp.MustCompile(`<@!?([0-9A-Za-z_]+)>`)

// CheckMentions: never parse everyone or roles; the users mentioned in the
// content are exactly the users allowed.
func CheckMentions(t testing.TB, where, content string, am *discordgo.MessageAllowedMentions) {
	t.Helper()
	if !assert.NotNil(t, am, "%s: allowed mentions unset", where) {
		return
	}
	assert.Empty(t, am.Parse, "%s: parses mentions", where)
	assert.Empty(t, am.Roles, where)
	var ids []string
	for _, m := range userMention.FindAllStringSubmatch(content, -1) {
		ids = append(ids, m[1])
	}
	if len(ids) > 0 {
		assert.Equal(t, ids, am.Users, "%s: mentions", where)
	} else {
		assert.Empty(t, am.Users, "%s: users allowed without a mention", where)
	}
}
