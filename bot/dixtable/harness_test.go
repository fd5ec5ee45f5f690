package dixtable

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

// recorder is a discordAPI that records every call and keeps the last
// content of every message, so tests can click the buttons the bot drew.
type recorder struct {
	mu    sync.Mutex
	calls []recorded
	msgs  map[string]*shownMessage
	n     int
	fail  error // when set, Send and Edit fail (Discord down)
	// refuse, when set, is asked about every call that posts, edits or
	// answers, once recorded: a call it returns an error for is refused
	// with it and changes nothing (Discord refusing it).
	refuse func(c recorded) error

	deleted []string          // ids of deleted messages
	nonces  map[string]string // nonce -> message created with it
	origs   map[string]string // interaction token -> its @original message
	made    map[string]string // message -> token of the interaction that made it
}

type recorded struct {
	op          string // respond|original|editOriginal|deleteOriginal|followup|send|edit
	interaction string
	channel     string
	resp        *discordgo.InteractionResponse
	send        *discordgo.MessageSend
	edit        *discordgo.MessageEdit
	params      *discordgo.WebhookParams
	message     string // delete: the deleted message
	nonce       string // send: its nonce
	refused     bool   // refuse refused it
}

// shownMessage is a message as users see it now.
type shownMessage struct {
	id         string
	channel    string
	content    string
	embeds     []*discordgo.MessageEmbed
	components []discordgo.MessageComponent
	ephemeral  bool
	mentions   *discordgo.MessageAllowedMentions
}

func newRecorder() *recorder {
	return &recorder{msgs: map[string]*shownMessage{}, nonces: map[string]string{}, origs: map[string]string{}, made: map[string]string{}}
}

func (r *recorder) add(c recorded) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, c)
}

// Record adds c, refused when refuse says so: it returns the refusal.
func (r *recorder) Record(c recorded) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	var err error
	if r.refuse != nil {
		err = r.refuse(c)
	}
	c.refused = err != nil
	r.calls = append(r.calls, c)
	return err
}

func (r *recorder) Respond(ctx context.Context, i *discordgo.Interaction, resp *discordgo.InteractionResponse) error {
	refusal := r.Record(recorded{op: "respond", interaction: i.ID, channel: i.ChannelID, resp: resp})
	r.mu.Lock()
	defer r.mu.Unlock()
	if refusal != nil {
		return refusal
	}
	switch resp.Type {
	case discordgo.InteractionResponseChannelMessageWithSource:
		d := resp.Data
		r.msgs["orig-"+i.ID] = &shownMessage{id: "orig-" + i.ID, channel: i.ChannelID, content: d.Content, embeds: d.Embeds,
			components: d.Components, ephemeral: d.Flags&discordgo.MessageFlagsEphemeral != 0, mentions: d.AllowedMentions}
		r.origs[i.Token] = "orig-" + i.ID
	case discordgo.InteractionResponseUpdateMessage:
		if i.Message != nil {
			r.origs[i.Token] = i.Message.ID
			if m, ok := r.msgs[i.Message.ID]; ok {
				m.content, m.embeds, m.components = resp.Data.Content, resp.Data.Embeds, resp.Data.Components
			}
		}
	case discordgo.InteractionResponseDeferredMessageUpdate:
		// "@original" is the message the component sits on.
		if i.Message != nil {
			r.origs[i.Token] = i.Message.ID
		}
	case discordgo.InteractionResponseDeferredChannelMessageWithSource:
		// A "thinking…" message, the answer's place.
		eph := resp.Data != nil && resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0
		r.msgs["orig-"+i.ID] = &shownMessage{id: "orig-" + i.ID, channel: i.ChannelID, ephemeral: eph}
		r.origs[i.Token] = "orig-" + i.ID
	}
	return nil
}

// Original returns the interaction's original response; as on Discord,
// 404 before the interaction is answered.
func (r *recorder) Original(ctx context.Context, i *discordgo.Interaction) (*discordgo.Message, error) {
	r.add(recorded{op: "original", interaction: i.ID, channel: i.ChannelID})
	r.mu.Lock()
	defer r.mu.Unlock()
	id, ok := r.origs[i.Token]
	if !ok {
		return nil, unknownMessage("@original")
	}
	return &discordgo.Message{ID: id, ChannelID: i.ChannelID}, nil
}

// EditOriginal records op "editOriginal", with edit naming the message
// edited, and shows the edit on the interaction's "@original" message.
func (r *recorder) EditOriginal(ctx context.Context, i *discordgo.Interaction, e *discordgo.WebhookEdit) error {
	r.mu.Lock()
	message := r.origs[i.Token]
	r.mu.Unlock()
	ed := &discordgo.MessageEdit{ID: message, Content: e.Content, Components: e.Components, Embeds: e.Embeds, AllowedMentions: e.AllowedMentions,
		Files: e.Files, Attachments: e.Attachments}
	refusal := r.Record(recorded{op: "editOriginal", interaction: i.ID, channel: i.ChannelID, edit: ed})
	r.mu.Lock()
	defer r.mu.Unlock()
	if refusal != nil {
		return refusal
	}
	m, ok := r.msgs[message]
	if !ok {
		return unknownMessage(message)
	}
	m.apply(ed)
	return nil
}

func (r *recorder) DeleteOriginal(ctx context.Context, i *discordgo.Interaction) error {
	r.add(recorded{op: "deleteOriginal", interaction: i.ID, channel: i.ChannelID})
	r.mu.Lock()
	defer r.mu.Unlock()
	if id := r.origs[i.Token]; id != "" {
		delete(r.msgs, id)
		r.deleted = append(r.deleted, id)
	}
	return nil
}

// Followup records a follow-up as op "followup", with send holding the
// same message, and with the interaction's token in nonce.
func (r *recorder) Followup(ctx context.Context, i *discordgo.Interaction, p *discordgo.WebhookParams) (*discordgo.Message, error) {
	send := &discordgo.MessageSend{Content: p.Content, Embeds: p.Embeds, Components: p.Components, AllowedMentions: p.AllowedMentions, Files: p.Files}
	refusal := r.Record(recorded{op: "followup", interaction: i.ID, channel: i.ChannelID, params: p, send: send, nonce: i.Token})
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fail != nil {
		return nil, r.fail
	}
	if refusal != nil {
		return nil, refusal
	}
	r.n++
	id := fmt.Sprintf("f%d", r.n)
	r.msgs[id] = &shownMessage{id: id, channel: i.ChannelID, content: p.Content, embeds: p.Embeds, components: p.Components,
		ephemeral: p.Flags&discordgo.MessageFlagsEphemeral != 0, mentions: p.AllowedMentions}
	r.made[id] = i.Token
	return &discordgo.Message{ID: id, ChannelID: i.ChannelID}, nil
}

// FollowupEdit records an edit through an interaction as op
// "followupEdit", with edit naming the message edited. As Discord does, it
// refuses a message the interaction did not make nor answer on.
func (r *recorder) FollowupEdit(ctx context.Context, i *discordgo.Interaction, message string, e *discordgo.WebhookEdit) error {
	r.mu.Lock()
	if message == "@original" {
		message = r.origs[i.Token]
	}
	r.mu.Unlock()
	ed := &discordgo.MessageEdit{ID: message, Content: e.Content, Components: e.Components, Embeds: e.Embeds, AllowedMentions: e.AllowedMentions,
		Files: e.Files, Attachments: e.Attachments}
	refusal := r.Record(recorded{op: "followupEdit", edit: ed, nonce: i.Token})
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fail != nil {
		return r.fail
	}
	if refusal != nil {
		return refusal
	}
	m, ok := r.msgs[message]
	if !ok || (r.made[message] != i.Token && r.origs[i.Token] != message) {
		return unknownMessage(message)
	}
	ed.Channel = m.channel
	m.apply(ed)
	return nil
}

// unknownMessage is Discord's answer about a message it does not know:
// 404 Unknown Message.
func unknownMessage(id string) error {
	return &discordgo.RESTError{
		Response: &http.Response{StatusCode: http.StatusNotFound},
		Message:  &discordgo.APIErrorMessage{Code: discordgo.ErrCodeUnknownMessage, Message: "Unknown Message " + id},
	}
}

// apply shows the edit e on m.
func (m *shownMessage) apply(e *discordgo.MessageEdit) {
	if e.Content != nil {
		m.content = *e.Content
	}
	if e.Embeds != nil {
		m.embeds = *e.Embeds
	}
	if e.Components != nil {
		m.components = *e.Components
	}
}

// Recent lists the channel's public messages, newest first. A follow-up
// made through a stored interaction (which does not carry its channel) is
// in the harness's one channel.
func (r *recorder) Recent(ctx context.Context, channel string, limit int) ([]*discordgo.Message, error) {
	r.add(recorded{op: "recent", channel: channel})
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*discordgo.Message
	for _, m := range r.msgs {
		if (m.channel == channel || m.channel == "") && !m.ephemeral {
			out = append(out, &discordgo.Message{ID: m.id, ChannelID: channel, Content: m.content, Embeds: m.embeds, Components: m.components})
		}
	}
	sort.Slice(out, func(i, j int) bool { return msgSeq(out[i].ID) > msgSeq(out[j].ID) })
	return out[:min(limit, len(out))], nil
}

// msgSeq is the order of a message id the recorder made ("m3", "f4").
func msgSeq(id string) int {
	n, _ := strconv.Atoi(strings.TrimLeft(id, "mfortig-"))
	return n
}

// posted reports whether c posted a message (with the bot token or as a
// follow-up).
func (c recorded) posted() bool { return c.op == "send" || c.op == "followup" }

func (r *recorder) Send(ctx context.Context, channel string, m *discordgo.MessageSend, nonce string) (*discordgo.Message, error) {
	refusal := r.Record(recorded{op: "send", channel: channel, send: m, nonce: nonce})
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fail != nil {
		return nil, r.fail
	}
	if refusal != nil {
		return nil, refusal
	}
	if id, ok := r.nonces[nonce]; ok && nonce != "" {
		// As Discord does with enforce_nonce: the message already created.
		return &discordgo.Message{ID: id, ChannelID: channel}, nil
	}
	r.n++
	id := fmt.Sprintf("m%d", r.n)
	if nonce != "" {
		r.nonces[nonce] = id
	}
	r.msgs[id] = &shownMessage{id: id, channel: channel, content: m.Content, embeds: m.Embeds, components: m.Components, mentions: m.AllowedMentions}
	return &discordgo.Message{ID: id, ChannelID: channel}, nil
}

func (r *recorder) Edit(ctx context.Context, e *discordgo.MessageEdit) error {
	refusal := r.Record(recorded{op: "edit", channel: e.Channel, edit: e})
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fail != nil {
		return r.fail
	}
	if refusal != nil {
		return refusal
	}
	m, ok := r.msgs[e.ID]
	if !ok {
		return unknownMessage(e.ID)
	}
	m.apply(e)
	return nil
}

func (r *recorder) Delete(ctx context.Context, channel, message string) error {
	r.add(recorded{op: "delete", channel: channel, message: message})
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fail != nil {
		return r.fail
	}
	if _, ok := r.msgs[message]; !ok {
		return fmt.Errorf("delete of unknown message %s", message)
	}
	delete(r.msgs, message)
	r.deleted = append(r.deleted, message)
	return nil
}

func (r *recorder) since(n int) []recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]recorded(nil), r.calls[n:]...)
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.calls)
}

func (r *recorder) message(id string) *shownMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.msgs[id]
}

// messages are the messages shown, in no order.
func (r *recorder) messages() []*shownMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]*shownMessage, 0, len(r.msgs))
	for _, m := range r.msgs {
		out = append(out, m)
	}
	return out
}

// harness drives a Bot with simulated interactions in one channel.
type harness struct {
	t        testing.TB
	st       *memStore
	db       dixbot.Store // the bot's store: st, or the one given to newHarnessOn
	rec      *recorder
	b        *bot.Bot
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
		t: t, st: newMemStore(), rec: newRecorder(), guild: "g1", channel: "c1",
		locale: discordgo.EnglishUS, guildLc: discordgo.EnglishUS,
		names: map[string]string{"u1": "Alice", "u2": "Bob", "u3": "Chloé", "u4": "Dan", "u5": "Eve", "u9": "Mallory"},
		perms: map[string]int64{},
		obs:   &countObserver{outcomes: map[string]int{}, store: map[string]int{}},
	}
	h.db = db
	if db == nil {
		h.db = h.st
	}
	b, err := bot.New(bot.Options{Store: h.db, DefaultLanguage: "en", Seed: func() int64 { return 7 }, Observer: h.obs})
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
	calls []recorded
}

func (h *harness) run(i *discordgo.Interaction) result {
	h.t.Helper()
	start := h.rec.count()
	h.b.Serve(h.rec, &discordgo.InteractionCreate{Interaction: i}, h.raw())
	return result{h: h, calls: h.rec.since(start)}
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
func (h *harness) clickOn(user string, msg *shownMessage, customID string, values ...string) result {
	h.t.Helper()
	return h.run(h.clickIx(user, msg, customID, values...))
}

// clickIx is the interaction of a click on a component of a shown message.
func (h *harness) clickIx(user string, msg *shownMessage, customID string, values ...string) *discordgo.Interaction {
	i := h.base(user, discordgo.InteractionMessageComponent)
	typ := discordgo.ButtonComponent
	if len(values) > 0 {
		typ = discordgo.SelectMenuComponent
	}
	i.Data = discordgo.MessageComponentInteractionData{CustomID: customID, ComponentType: typ, Values: values}
	if msg != nil {
		var flags discordgo.MessageFlags
		if msg.ephemeral {
			flags = discordgo.MessageFlagsEphemeral
		}
		i.Message = &discordgo.Message{ID: msg.id, ChannelID: h.channel, Flags: flags, Components: msg.components, Content: msg.content, Embeds: msg.embeds}
	}
	return i
}

// submit submits a modal opened from msg.
func (h *harness) submit(user string, msg *shownMessage, customID string, fields map[string]string) result {
	h.t.Helper()
	i := h.base(user, discordgo.InteractionModalSubmit)
	var rows []discordgo.MessageComponent
	for k, v := range fields {
		rows = append(rows, &discordgo.ActionsRow{Components: []discordgo.MessageComponent{&discordgo.TextInput{CustomID: k, Value: v}}})
	}
	i.Data = discordgo.ModalSubmitInteractionData{CustomID: customID, Components: rows}
	if msg != nil {
		i.Message = &discordgo.Message{ID: msg.id, ChannelID: h.channel, Flags: discordgo.MessageFlagsEphemeral}
	}
	return h.run(i)
}

// Record returns the channel's active record.
func (h *harness) Record() (*dixbot.Record, *dixTable) {
	h.t.Helper()
	r, err := h.db.Get(context.Background(), h.channel)
	require.NoError(h.t, err)
	m, err := decodeDixTable(r.Meta)
	require.NoError(h.t, err)
	return r, m
}

// board returns the current board message as shown.
func (h *harness) board() *shownMessage {
	h.t.Helper()
	_, m := h.Record()
	require.NotEmpty(h.t, m.Board, "no board message recorded")
	msg := h.rec.message(m.Board)
	require.NotNil(h.t, msg, "board message %s was never sent", m.Board)
	return msg
}

// response is the first answer of the interaction.
func (r result) response() *discordgo.InteractionResponse {
	r.h.t.Helper()
	for _, c := range r.calls {
		if c.op == "respond" {
			return c.resp
		}
	}
	r.h.t.Fatalf("no answer among %d calls", len(r.calls))
	return nil
}

// shown returns the message the answer created or updated.
func (r result) shown(clicked *shownMessage) *shownMessage {
	r.h.t.Helper()
	resp := r.response()
	if resp.Type == discordgo.InteractionResponseUpdateMessage ||
		resp.Type == discordgo.InteractionResponseDeferredMessageUpdate && clicked != nil {
		// Updated in place, at once or, on a slow machine, deferred and
		// then edited (finishDeferred).
		return r.h.rec.message(clicked.id)
	}
	for _, c := range r.calls {
		if c.op == "respond" {
			return r.h.rec.message("orig-" + c.interaction)
		}
	}
	return nil
}

// describe lists the calls of the answer, for a failure message.
func (r result) describe() string {
	var b strings.Builder
	for _, c := range r.calls {
		fmt.Fprintf(&b, "[%s", c.op)
		if c.resp != nil {
			fmt.Fprintf(&b, " type %d", c.resp.Type)
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
		if c.posted() {
			out = append(out, c.send)
		}
	}
	return out
}

// findID returns the custom id of the component of msg with the verb.
func findID(msg *shownMessage, verb string) (string, bool) {
	if msg == nil {
		return "", false
	}
	for _, id := range componentIDs(msg.components) {
		p, err := bot.ParseID(id)
		if err == nil && p.Verb == verb {
			return id, true
		}
	}
	return "", false
}

// findIDs returns all custom ids of msg with the verb.
func findIDs(msg *shownMessage, verb string) []string {
	var out []string
	for _, id := range componentIDs(msg.components) {
		if p, err := bot.ParseID(id); err == nil && p.Verb == verb {
			out = append(out, id)
		}
	}
	return out
}

// rowComponents are the components of an action row (none for another
// component).
func rowComponents(c discordgo.MessageComponent) []discordgo.MessageComponent {
	switch v := c.(type) {
	case discordgo.ActionsRow:
		return v.Components
	case *discordgo.ActionsRow:
		return v.Components
	}
	return nil
}

func componentIDs(cs []discordgo.MessageComponent) []string {
	var out []string
	for _, c := range cs {
		switch v := c.(type) {
		case discordgo.ActionsRow:
			out = append(out, componentIDs(v.Components)...)
		case *discordgo.ActionsRow:
			out = append(out, componentIDs(v.Components)...)
		case discordgo.Button:
			out = append(out, v.CustomID)
		case discordgo.SelectMenu:
			out = append(out, v.CustomID)
		}
	}
	return out
}

// selectOptions returns the option values of the select with custom id.
func selectOptions(msg *shownMessage, id string) []string {
	var out []string
	for _, c := range msg.components {
		row, ok := c.(discordgo.ActionsRow)
		if !ok {
			continue
		}
		for _, cc := range row.Components {
			if s, ok := cc.(discordgo.SelectMenu); ok && s.CustomID == id {
				for _, o := range s.Options {
					out = append(out, o.Value)
				}
			}
		}
	}
	return out
}

// mustFind is findID or a test failure.
func (h *harness) mustFind(msg *shownMessage, verb string) string {
	h.t.Helper()
	id, ok := findID(msg, verb)
	require.True(h.t, ok, "no %q component among %v", verb, componentIDs(msg.components))
	return id
}

// gameOf returns the record's game (nil for a lobby).
func gameOf(r *dixbot.Record) *dix.Game { return dix.GameOf(r.State) }

func mustDixTable(b []byte) *dixTable {
	m, err := decodeDixTable(b)
	if err != nil {
		panic(err)
	}
	return m
}
