package bot

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

func init() {
	tabletest.ParseID = func(id string) (string, error) {
		p, err := ParseID(id)
		return p.Verb, err
	}
}

// harness drives a Bot with simulated interactions in one channel.
type harness struct {
	t        testing.TB
	st       *tabletest.MemStore
	db       dixbot.Store // the bot's store: st, or the one given to newHarnessOn
	rec      *tabletest.Recorder
	b        *Bot
	n        int
	guild    string
	channel  string
	locale   discordgo.Locale // the users' Discord locale
	guildLc  discordgo.Locale // the server's preferred locale
	names    map[string]string
	perms    map[string]int64
	obs      *countObserver
	maxMeta  int    // largest table data seen by step
	reclicks int    // clicks step made again after a store too slow for the answer
	lang     string // the language of games made by seedGame ("en" when unset)
	appPerm  int64  // the bot's permissions in the channel sent with interactions (0: not sent)
	// chType is the type of the channel the interactions come from, sent
	// in their JSON as Discord does (-1: no JSON, 0: a text channel).
	chType discordgo.ChannelType
}

// raw is the JSON of an interaction as far as the bot reads it beyond
// discordgo's Interaction: its channel's type.
func (h *harness) raw() []byte {
	if h.chType < 0 {
		return nil
	}
	return []byte(fmt.Sprintf(`{"channel":{"id":%q,"type":%d}}`, h.channel, h.chType))
}

type countObserver struct {
	mu       sync.Mutex
	outcomes map[string]int
	store    map[string]int
}

func (o *countObserver) Interaction(kind, outcome string, _ time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.outcomes[kind+"/"+outcome]++
}

func (o *countObserver) StoreError(op string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.store[op]++
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	return newHarnessOn(t, nil)
}

// newHarnessOn is newHarness with the bot on the store db (nil: a memStore).
func newHarnessOn(t testing.TB, db dixbot.Store) *harness {
	t.Helper()
	h := &harness{
		t: t, st: tabletest.NewMemStore(), rec: tabletest.NewRecorder(), guild: "g1", channel: "c1",
		locale: discordgo.EnglishUS, guildLc: discordgo.EnglishUS,
		names: map[string]string{"u1": "Alice", "u2": "Bob", "u3": "Chloé", "u4": "Dan", "u5": "Eve", "u9": "Mallory"},
		perms: map[string]int64{},
		obs:   &countObserver{outcomes: map[string]int{}, store: map[string]int{}},
	}
	h.db = db
	if db == nil {
		h.db = h.st
	}
	b, err := New(Options{Store: h.db, DefaultLanguage: "en", Seed: func() int64 { return 7 }, Observer: h.obs})
	require.NoError(t, err)
	// A click's work may take longer than Discord's budget here: the race
	// detector slows the computer players' decisions, made inside the
	// click, tenfold, and a busy machine more. The budget's own tests set
	// theirs (deferral_test.go).
	b.WorkBudget = harnessBudget
	h.b = b
	return h
}

// harnessBudget is the work budget of a harness's clicks.
const harnessBudget = time.Minute

// result is what one interaction produced.
type result struct {
	h     *harness
	calls []tabletest.Call
}

func (h *harness) run(i *discordgo.Interaction) result {
	h.t.Helper()
	start := h.rec.Count()
	h.b.Serve(h.rec, &discordgo.InteractionCreate{Interaction: i}, h.raw())
	return result{h: h, calls: h.rec.Since(start)}
}

func (h *harness) base(user string, typ discordgo.InteractionType) *discordgo.Interaction {
	h.n++
	gl := h.guildLc
	return &discordgo.Interaction{
		ID: fmt.Sprintf("i%d", h.n), AppID: "app", Type: typ, GuildID: h.guild, ChannelID: h.channel,
		Token: fmt.Sprintf("tok%d", h.n), Locale: h.locale, GuildLocale: &gl, AppPermissions: h.appPerm,
		Member: &discordgo.Member{User: &discordgo.User{ID: user, Username: strings.ToLower(h.names[user])}, Nick: h.names[user], Permissions: h.perms[user]},
	}
}

// command runs /dix <sub> with options (name, value pairs).
func (h *harness) command(user, sub string, opts ...any) result {
	h.t.Helper()
	i := h.base(user, discordgo.InteractionApplicationCommand)
	so := &discordgo.ApplicationCommandInteractionDataOption{Name: locales.T("en", "cmd_"+sub+"_name", nil), Type: discordgo.ApplicationCommandOptionSubCommand}
	for k := 0; k+1 < len(opts); k += 2 {
		name := locales.T("en", "opt_"+opts[k].(string)+"_name", nil)
		o := &discordgo.ApplicationCommandInteractionDataOption{Name: name, Value: opts[k+1]}
		switch opts[k+1].(type) {
		case float64:
			o.Type = discordgo.ApplicationCommandOptionInteger
		default:
			o.Type = discordgo.ApplicationCommandOptionString
		}
		so.Options = append(so.Options, o)
	}
	i.Data = discordgo.ApplicationCommandInteractionData{Name: "dix", Options: []*discordgo.ApplicationCommandInteractionDataOption{so}}
	return h.run(i)
}

// clickOn clicks a component of a shown message.
func (h *harness) clickOn(user string, msg *tabletest.Message, customID string, values ...string) result {
	h.t.Helper()
	return h.run(h.clickIx(user, msg, customID, values...))
}

// clickIx is the interaction of a click on a component of a shown message.
func (h *harness) clickIx(user string, msg *tabletest.Message, customID string, values ...string) *discordgo.Interaction {
	i := h.base(user, discordgo.InteractionMessageComponent)
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
		i.Message = &discordgo.Message{ID: msg.ID, ChannelID: h.channel, Flags: flags, Components: msg.Components, Content: msg.Content, Embeds: msg.Embeds}
	}
	return i
}

// submit submits a modal opened from msg.
func (h *harness) submit(user string, msg *tabletest.Message, customID string, fields map[string]string) result {
	h.t.Helper()
	i := h.base(user, discordgo.InteractionModalSubmit)
	var rows []discordgo.MessageComponent
	for k, v := range fields {
		rows = append(rows, &discordgo.ActionsRow{Components: []discordgo.MessageComponent{&discordgo.TextInput{CustomID: k, Value: v}}})
	}
	i.Data = discordgo.ModalSubmitInteractionData{CustomID: customID, Components: rows}
	if msg != nil {
		i.Message = &discordgo.Message{ID: msg.ID, ChannelID: h.channel, Flags: discordgo.MessageFlagsEphemeral}
	}
	return h.run(i)
}

// response is the first answer of the interaction.
func (r result) response() *discordgo.InteractionResponse {
	r.h.t.Helper()
	for _, c := range r.calls {
		if c.Op == "respond" {
			return c.Resp
		}
	}
	r.h.t.Fatalf("no answer among %d calls", len(r.calls))
	return nil
}

// shown returns the message the answer created or updated.
func (r result) shown(clicked *tabletest.Message) *tabletest.Message {
	r.h.t.Helper()
	resp := r.response()
	if resp.Type == discordgo.InteractionResponseUpdateMessage ||
		resp.Type == discordgo.InteractionResponseDeferredMessageUpdate && clicked != nil {
		// Updated in place, at once or, on a slow machine, deferred and
		// then edited (finishDeferred).
		return r.h.rec.Message(clicked.ID)
	}
	for _, c := range r.calls {
		if c.Op == "respond" {
			return r.h.rec.Message("orig-" + c.Interaction)
		}
	}
	return nil
}

// describe lists the calls of the answer, for a failure message.
func (r result) describe() string {
	var b strings.Builder
	for _, c := range r.calls {
		fmt.Fprintf(&b, "[%s", c.Op)
		if c.Resp != nil {
			fmt.Fprintf(&b, " type %d", c.Resp.Type)
		}
		b.WriteString("]")
	}
	return b.String() + " " + r.texts()
}

// ephemeralText returns the text of an ephemeral answer (or fails).
func (r result) ephemeralText() string {
	r.h.t.Helper()
	resp := r.response()
	require.Equal(r.h.t, discordgo.InteractionResponseChannelMessageWithSource, resp.Type, "not a new message")
	require.NotZero(r.h.t, resp.Data.Flags&discordgo.MessageFlagsEphemeral, "not ephemeral: %q", resp.Data.Content)
	return resp.Data.Content
}

func (r result) sends() []*discordgo.MessageSend {
	var out []*discordgo.MessageSend
	for _, c := range r.calls {
		if c.Posted() {
			out = append(out, c.Send)
		}
	}
	return out
}

// mustFind is findID or a test failure.
func (h *harness) mustFind(msg *tabletest.Message, verb string) string {
	h.t.Helper()
	id, ok := tabletest.FindID(msg, verb)
	require.True(h.t, ok, "no %q component among %v", verb, tabletest.ComponentIDs(msg.Components))
	return id
}
