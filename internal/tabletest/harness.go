package tabletest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/locales"
	"github.com/stretchr/testify/require"
)

// Harness drives a table with simulated interactions in one channel:
// Serve hands it each one.
type Harness struct {
	Serve    func(ic *discordgo.InteractionCreate, raw []byte)
	T        testing.TB
	St       *MemStore
	Db       dixbot.Store // the bot's store: st, or the one given to newHarnessOn
	Rec      *Recorder
	N        int
	Guild    string
	Channel  string
	Locale   discordgo.Locale // the users' Discord locale
	GuildLc  discordgo.Locale // the server's preferred locale
	Names    map[string]string
	Perms    map[string]int64
	Obs      *CountObserver
	MaxMeta  int    // largest table data seen by step
	Reclicks int    // clicks step made again after a store too slow for the answer
	Lang     string // the language of games made by seedGame ("en" when unset)
	AppPerm  int64  // the bot's permissions in the channel sent with interactions (0: not sent)
	// chType is the type of the channel the interactions come from, sent
	// in their JSON as Discord does (-1: no JSON, 0: a text channel).
	ChType discordgo.ChannelType
}

// raw is the JSON of an interaction as far as the bot reads it beyond
// discordgo's Interaction: its channel's type.
func (h *Harness) Raw() []byte {
	if h.ChType < 0 {
		return nil
	}
	return []byte(fmt.Sprintf(`{"channel":{"id":%q,"type":%d}}`, h.Channel, h.ChType))
}

type CountObserver struct {
	Mu       sync.Mutex
	Outcomes map[string]int
	Store    map[string]int
}

func (o *CountObserver) Interaction(kind, outcome string, _ time.Duration) {
	o.Mu.Lock()
	defer o.Mu.Unlock()
	o.Outcomes[kind+"/"+outcome]++
}

func (o *CountObserver) StoreError(op string) {
	o.Mu.Lock()
	defer o.Mu.Unlock()
	o.Store[op]++
}

// Result is what one interaction produced.
type Result struct {
	H     *Harness
	Calls []Call
}

func (h *Harness) Run(i *discordgo.Interaction) Result {
	h.T.Helper()
	start := h.Rec.Count()
	h.Serve(&discordgo.InteractionCreate{Interaction: i}, h.Raw())
	return Result{H: h, Calls: h.Rec.Since(start)}
}

func (h *Harness) Base(user string, typ discordgo.InteractionType) *discordgo.Interaction {
	h.N++
	gl := h.GuildLc
	return &discordgo.Interaction{
		ID: fmt.Sprintf("i%d", h.N), AppID: "app", Type: typ, GuildID: h.Guild, ChannelID: h.Channel,
		Token: fmt.Sprintf("tok%d", h.N), Locale: h.Locale, GuildLocale: &gl, AppPermissions: h.AppPerm,
		Member: &discordgo.Member{User: &discordgo.User{ID: user, Username: strings.ToLower(h.Names[user])}, Nick: h.Names[user], Permissions: h.Perms[user]},
	}
}

// clickOn clicks a component of a shown message.
func (h *Harness) ClickOn(user string, msg *Message, customID string, values ...string) Result {
	h.T.Helper()
	return h.Run(h.ClickIx(user, msg, customID, values...))
}

// clickIx is the interaction of a click on a component of a shown message.
func (h *Harness) ClickIx(user string, msg *Message, customID string, values ...string) *discordgo.Interaction {
	i := h.Base(user, discordgo.InteractionMessageComponent)
	typ := discordgo.ButtonComponent
	if len(values) > 0 {
		typ = discordgo.SelectMenuComponent
	}
	i.Data = discordgo.MessageComponentInteractionData{CustomID: customID, ComponentType: typ, Values: values}
	if msg != nil {
		var flags discordgo.MessageFlags
		if msg.Ephemeral {
			flags = discordgo.MessageFlagsEphemeral
		}
		i.Message = &discordgo.Message{ID: msg.ID, ChannelID: h.Channel, Flags: flags, Components: msg.Components, Content: msg.Content, Embeds: msg.Embeds}
	}
	return i
}

// submit submits a modal opened from msg.
func (h *Harness) Submit(user string, msg *Message, customID string, fields map[string]string) Result {
	h.T.Helper()
	i := h.Base(user, discordgo.InteractionModalSubmit)
	var rows []discordgo.MessageComponent
	for k, v := range fields {
		rows = append(rows, &discordgo.ActionsRow{Components: []discordgo.MessageComponent{&discordgo.TextInput{CustomID: k, Value: v}}})
	}
	i.Data = discordgo.ModalSubmitInteractionData{CustomID: customID, Components: rows}
	if msg != nil {
		i.Message = &discordgo.Message{ID: msg.ID, ChannelID: h.Channel, Flags: discordgo.MessageFlagsEphemeral}
	}
	return h.Run(i)
}

// response is the first answer of the interaction.
func (r Result) Response() *discordgo.InteractionResponse {
	r.H.T.Helper()
	for _, c := range r.Calls {
		if c.Op == "respond" {
			return c.Resp
		}
	}
	r.H.T.Fatalf("no answer among %d calls", len(r.Calls))
	return nil
}

// Taken is the answer of the interaction Discord took (nil: none): the
// first one it did not refuse.
func (r Result) Taken() *discordgo.InteractionResponse {
	for _, c := range r.Calls {
		if c.Op == "respond" && !c.Refused {
			return c.Resp
		}
	}
	return nil
}

// Dismissed reports whether the answer removed the message clicked (a
// private prompt whose decision is taken).
func (r Result) Dismissed(clicked *Message) bool {
	for _, c := range r.Calls {
		if c.Op == "deleteOriginal" {
			return r.H.Rec.Message(clicked.ID) == nil
		}
	}
	return false
}

// AnsweredText is the text the click's answer gave the message clicked:
// its response's, or that of the edit that finished a deferred one.
func (r Result) AnsweredText(clicked *Message) string {
	text := ""
	for _, c := range r.Calls {
		switch {
		case c.Op == "respond" && c.Resp != nil && c.Resp.Data != nil:
			text = c.Resp.Data.Content
		case c.Op == "followupEdit" && c.Edit != nil && c.Edit.ID == clicked.ID && c.Edit.Content != nil:
			text = *c.Edit.Content
		}
	}
	return text
}

// Shown is the message the click's answer shows: the message clicked,
// updated in place, or the answer's own message.
func (r Result) Shown(clicked *Message) *Message {
	r.H.T.Helper()
	resp := r.Response()
	if resp.Type == discordgo.InteractionResponseUpdateMessage ||
		resp.Type == discordgo.InteractionResponseDeferredMessageUpdate && clicked != nil {
		// Updated in place, at once or, on a slow machine, deferred and
		// then edited (finishDeferred).
		return r.H.Rec.Message(clicked.ID)
	}
	for _, c := range r.Calls {
		if c.Op == "respond" {
			return r.H.Rec.Message("orig-" + c.Interaction)
		}
	}
	return nil
}

// describe lists the calls of the answer, for a failure message.
func (r Result) Describe() string {
	var b strings.Builder
	for _, c := range r.Calls {
		fmt.Fprintf(&b, "[%s", c.Op)
		if c.Resp != nil {
			fmt.Fprintf(&b, " type %d", c.Resp.Type)
		}
		b.WriteString("]")
	}
	return b.String() + " " + r.Texts()
}

// ephemeralText returns the text of an ephemeral answer (or fails).
func (r Result) EphemeralText() string {
	r.H.T.Helper()
	resp := r.Response()
	require.Equal(r.H.T, discordgo.InteractionResponseChannelMessageWithSource, resp.Type, "not a new message")
	require.NotZero(r.H.T, resp.Data.Flags&discordgo.MessageFlagsEphemeral, "not ephemeral: %q", resp.Data.Content)
	return resp.Data.Content
}

func (r Result) Sends() []*discordgo.MessageSend {
	var out []*discordgo.MessageSend
	for _, c := range r.Calls {
		if c.Posted() {
			out = append(out, c.Send)
		}
	}
	return out
}

// texts are every text the calls showed a user.
func (r Result) Texts() string {
	var sb strings.Builder
	for _, c := range r.Calls {
		switch {
		case c.Resp != nil && c.Resp.Data != nil:
			sb.WriteString(c.Resp.Data.Content + "\n")
		case c.Params != nil:
			sb.WriteString(c.Params.Content + "\n")
		case c.Edit != nil && c.Edit.Content != nil:
			sb.WriteString(*c.Edit.Content + "\n")
		}
	}
	return sb.String()
}

// NewHarness is a harness in channel c1 of server g1, whose people u1…u5
// and u9 speak English, on the store db (nil: a new MemStore, St). Its
// caller sets Serve.
func NewHarness(t testing.TB, db dixbot.Store) *Harness {
	h := &Harness{
		T: t, St: NewMemStore(), Rec: NewRecorder(), Guild: "g1", Channel: "c1",
		Locale: discordgo.EnglishUS, GuildLc: discordgo.EnglishUS,
		Names: map[string]string{"u1": "Alice", "u2": "Bob", "u3": "Chloé", "u4": "Dan", "u5": "Eve", "u9": "Mallory"},
		Perms: map[string]int64{},
		Obs:   &CountObserver{Outcomes: map[string]int{}, Store: map[string]int{}},
	}
	h.Db = db
	if db == nil {
		h.Db = h.St
	}
	// Every message the test made the bot send keeps within Discord's
	// limits, as Discord would refuse it otherwise.
	t.Cleanup(func() {
		h.Rec.Mu.Lock()
		calls := slices.Clone(h.Rec.Calls)
		h.Rec.Mu.Unlock()
		CheckAllCalls(t, calls)
	})
	return h
}

// GameCommandIx is the interaction of /<game> <sub> with options (name,
// value pairs, sent as strings).
func (h *Harness) GameCommandIx(game, user, sub string, opts ...any) *discordgo.Interaction {
	i := h.Base(user, discordgo.InteractionApplicationCommand)
	so := &discordgo.ApplicationCommandInteractionDataOption{Name: locales.T("en", "cmd_"+sub+"_name", nil), Type: discordgo.ApplicationCommandOptionSubCommand}
	for k := 0; k+1 < len(opts); k += 2 {
		so.Options = append(so.Options, &discordgo.ApplicationCommandInteractionDataOption{
			Name: locales.T("en", "opt_"+opts[k].(string)+"_name", nil), Value: opts[k+1], Type: discordgo.ApplicationCommandOptionString})
	}
	i.Data = discordgo.ApplicationCommandInteractionData{Name: game, Options: []*discordgo.ApplicationCommandInteractionDataOption{so}}
	return i
}

// SnowflakeNow is the harness's snowflake clock: every interaction one
// millisecond after the previous.
func (h *Harness) SnowflakeNow() string { return Snowflake(uint64(1_000_000+h.N), 0) }

// Snowflake is an interaction id received at millisecond ms (since the
// Discord epoch) with the increment inc.
func Snowflake(ms, inc uint64) string { return strconv.FormatUint(ms<<22|inc&0xfff, 10) }
