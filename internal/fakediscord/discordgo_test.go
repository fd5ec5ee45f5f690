package fakediscord_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/discordapi"
	"github.com/dixgame/dixbot/internal/fakediscord"
)

// world is a fake Discord with one guild, one channel and three users.
type world struct {
	srv          *fakediscord.Server
	guild        fakediscord.Guild
	channel      fakediscord.Channel
	alice, bruno fakediscord.User
	carol        fakediscord.User
}

func newWorld(t *testing.T, opts ...fakediscord.Options) *world {
	t.Helper()
	srv := fakediscord.Start(t, opts...)
	w := &world{srv: srv}
	w.guild = srv.AddGuild(fakediscord.GuildSpec{Name: "Board games", PreferredLocale: "en-US"})
	var err error
	w.channel, err = srv.AddChannel(w.guild.ID, "dix")
	require.NoError(t, err)
	w.alice = srv.AddUser(fakediscord.UserSpec{Name: "alice", Locale: "en-US"})
	w.bruno = srv.AddUser(fakediscord.UserSpec{Name: "bruno", Locale: "fr"})
	w.carol = srv.AddUser(fakediscord.UserSpec{Name: "carol", Locale: "en-GB"})
	require.NoError(t, srv.AddMember(w.guild.ID, w.alice.ID, 0))
	require.NoError(t, srv.AddMember(w.guild.ID, w.bruno.ID, fakediscord.DefaultPermissions|fakediscord.PermManageChannels))
	require.NoError(t, srv.AddMember(w.guild.ID, w.carol.ID, 0))
	return w
}

// connect opens a real discordgo session against the fake.
// readyInfo is copied out of READY inside the handler: discordgo's state
// keeps mutating the Ready structs afterwards.
type readyInfo struct {
	UserID    string
	Bot       bool
	GuildIDs  []string
	SessionID string
}

func connect(t *testing.T, srv *fakediscord.Server, setup func(s *discordgo.Session)) (*discordgo.Session, readyInfo) {
	t.Helper()
	// discordgo's endpoints are process-wide: every test's session talks
	// to the stand-ins' shared front, which hands its requests to srv.
	base, err := srv.SharedURL()
	require.NoError(t, err)
	require.NoError(t, discordapi.SetBaseURL(base))
	s, err := discordgo.New("Bot " + srv.Token())
	require.NoError(t, err)
	s.LogLevel = discordgo.LogError
	// A session that reconnected after a read error would keep trying,
	// with backoff, after its test has ended.
	s.ShouldReconnectOnError = false
	ready := make(chan readyInfo, 1)
	s.AddHandlerOnce(func(_ *discordgo.Session, r *discordgo.Ready) {
		// r.Guilds is overwritten by discordgo's state on GUILD_CREATE:
		// read the ids from the state under its lock.
		info := readyInfo{UserID: r.User.ID, Bot: r.User.Bot, SessionID: r.SessionID}
		s.State.RLock()
		for _, g := range s.State.Guilds {
			info.GuildIDs = append(info.GuildIDs, g.ID)
		}
		s.State.RUnlock()
		ready <- info
	})
	if setup != nil {
		setup(s)
	}
	require.NoError(t, s.Open())
	t.Cleanup(func() { _ = s.Close() })
	select {
	case r := <-ready:
		return s, r
	case <-time.After(30 * time.Second):
		t.Fatal("no READY")
		return nil, readyInfo{}
	}
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

var dixCommand = &discordgo.ApplicationCommand{
	Name:                     "dix",
	Description:              "Play DIX",
	NameLocalizations:        &map[discordgo.Locale]string{discordgo.French: "dix"},
	DescriptionLocalizations: &map[discordgo.Locale]string{discordgo.French: "Jouer à DIX"},
	Options: []*discordgo.ApplicationCommandOption{
		{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "start", Description: "Open a lobby", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "language", Description: "Game language", Choices: []*discordgo.ApplicationCommandOptionChoice{
				{Name: "English", Value: "en"}, {Name: "Français", Value: "fr"},
			}},
		}},
		{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "solo", Description: "Solo game", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "difficulty", Description: "4 to 10", MinValue: ptr(4.0), MaxValue: 10},
		}},
		{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "bid", Description: "Bid"},
	},
}

func ptr[T any](v T) *T { return &v }

// testBot answers like a small bot would; errs collects REST failures.
type testBot struct {
	mu   sync.Mutex
	errs []error
	last map[string]*discordgo.InteractionCreate // by command/custom id
}

func (b *testBot) fail(err error) {
	if err != nil {
		b.mu.Lock()
		b.errs = append(b.errs, err)
		b.mu.Unlock()
	}
}

func (b *testBot) errors() []error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]error(nil), b.errs...)
}

func (b *testBot) handle(s *discordgo.Session, i *discordgo.InteractionCreate) {
	b.mu.Lock()
	if b.last == nil {
		b.last = map[string]*discordgo.InteractionCreate{}
	}
	b.mu.Unlock()
	switch i.Type {
	case discordgo.InteractionApplicationCommand:
		d := i.ApplicationCommandData()
		sub := d.Options[0]
		b.mu.Lock()
		b.last[sub.Name] = i
		b.mu.Unlock()
		switch sub.Name {
		case "start":
			lang := "en"
			if len(sub.Options) > 0 {
				lang = sub.Options[0].StringValue()
			}
			b.fail(s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{
					Content:         "<@" + i.Member.User.ID + "> opened a lobby (" + lang + ", " + string(i.Locale) + ")",
					AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{i.Member.User.ID}},
					Embeds:          []*discordgo.MessageEmbed{{Title: "Lobby", Color: 0x2ecc71, Fields: []*discordgo.MessageEmbedField{{Name: "Players", Value: "1"}}}},
					Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
						discordgo.Button{Label: "Join", Style: discordgo.SuccessButton, CustomID: "dix:join:1"},
						discordgo.Button{Label: "Bid", Style: discordgo.PrimaryButton, CustomID: "dix:bid:1"},
					}}, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
						discordgo.SelectMenu{CustomID: "dix:pick:1", Placeholder: "Pick", Options: []discordgo.SelectMenuOption{{Label: "Green 7", Value: "g7"}, {Label: "Blue 3", Value: "b3"}}},
					}}},
				},
			}))
		case "solo":
			b.fail(s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}))
			_, err := s.InteractionResponseEdit(i.Interaction, &discordgo.WebhookEdit{Content: ptr("solo at " + strconv.FormatInt(sub.Options[0].IntValue(), 10))})
			b.fail(err)
			_, err = s.FollowupMessageCreate(i.Interaction, true, &discordgo.WebhookParams{Content: "your hand: nothing yet", Flags: discordgo.MessageFlagsEphemeral})
			b.fail(err)
		}
	case discordgo.InteractionMessageComponent:
		d := i.MessageComponentData()
		b.mu.Lock()
		b.last[d.CustomID] = i
		b.mu.Unlock()
		switch d.CustomID {
		case "dix:join:1":
			b.fail(s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseUpdateMessage,
				Data: &discordgo.InteractionResponseData{Content: i.Member.User.Username + " joined", Components: []discordgo.MessageComponent{}},
			}))
		case "dix:bid:1":
			b.fail(s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseModal,
				Data: &discordgo.InteractionResponseData{CustomID: "dix:bidmodal:1", Title: "Your bid", Components: []discordgo.MessageComponent{
					discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.TextInput{CustomID: "amount", Label: "Amount", Style: discordgo.TextInputShort, Required: true, MaxLength: 3}}},
				}},
			}))
		case "dix:pick:1":
			b.fail(s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: "picked " + strings.Join(d.Values, ","), Flags: discordgo.MessageFlagsEphemeral},
			}))
		}
	case discordgo.InteractionModalSubmit:
		d := i.ModalSubmitData()
		b.mu.Lock()
		b.last[d.CustomID] = i
		b.mu.Unlock()
		v := d.Components[0].(*discordgo.ActionsRow).Components[0].(*discordgo.TextInput).Value
		b.fail(s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "bid " + v, Flags: discordgo.MessageFlagsEphemeral},
		}))
	}
}

func (b *testBot) interaction(key string) *discordgo.InteractionCreate {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.last[key]
}

func TestDiscordgoEndToEnd(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	srv := w.srv
	bot := &testBot{}
	type guildCreate struct {
		Name, PreferredLocale string
		ChannelIDs            []string
	}
	guildCreates := make(chan guildCreate, 4)
	s, ready := connect(t, srv, func(s *discordgo.Session) {
		s.AddHandler(bot.handle)
		s.AddHandler(func(_ *discordgo.Session, g *discordgo.GuildCreate) {
			gc := guildCreate{Name: g.Name, PreferredLocale: g.PreferredLocale}
			for _, c := range g.Channels {
				gc.ChannelIDs = append(gc.ChannelIDs, c.ID)
			}
			guildCreates <- gc
		})
	})
	ctx := ctxT(t)

	// READY and GUILD_CREATE.
	assert.Equal(t, srv.BotUser().ID, ready.UserID)
	assert.NotEqual(t, srv.ApplicationID(), ready.UserID, "the bot user's id is not the application's")
	assert.True(t, ready.Bot)
	assert.Equal(t, []string{w.guild.ID}, ready.GuildIDs)
	assert.NotEmpty(t, ready.SessionID)
	select {
	case g := <-guildCreates:
		assert.Equal(t, "Board games", g.Name)
		assert.Equal(t, "en-US", g.PreferredLocale)
		assert.Equal(t, []string{w.channel.ID}, g.ChannelIDs)
	case <-ctx.Done():
		t.Fatal("no GUILD_CREATE")
	}

	// REST at start-up.
	me, err := s.User("@me")
	require.NoError(t, err)
	assert.Equal(t, srv.BotUser().ID, me.ID)
	app, err := s.Application("@me")
	require.NoError(t, err)
	assert.Equal(t, srv.ApplicationID(), app.ID)
	_, err = s.GatewayBot()
	require.NoError(t, err)

	// Command registration: under the application's id only, never the
	// bot user's (Discord answers 404 Unknown Application).
	_, err = s.ApplicationCommandBulkOverwrite(srv.BotUser().ID, w.guild.ID, []*discordgo.ApplicationCommand{dixCommand})
	var rerr *discordgo.RESTError
	require.ErrorAs(t, err, &rerr)
	assert.Equal(t, http.StatusNotFound, rerr.Response.StatusCode)
	cmds, err := s.ApplicationCommandBulkOverwrite(srv.ApplicationID(), w.guild.ID, []*discordgo.ApplicationCommand{dixCommand})
	require.NoError(t, err)
	require.Len(t, cmds, 1)
	assert.NotEmpty(t, cmds[0].ID)
	got, err := s.ApplicationCommands(srv.ApplicationID(), w.guild.ID)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, "dix", got[0].Name)
	ping, err := s.ApplicationCommandCreate(srv.ApplicationID(), "", &discordgo.ApplicationCommand{Name: "ping", Description: "Ping"})
	require.NoError(t, err)
	require.NoError(t, s.ApplicationCommandDelete(srv.ApplicationID(), "", ping.ID))
	assert.Len(t, srv.Commands(""), 0)

	// A slash command, answered with a public message that pings alice.
	ix, err := srv.RunCommand(ctx, w.alice.ID, w.channel.ID, "/dix start language:Français")
	require.NoError(t, err)
	resp, err := ix.Wait(ctx)
	require.NoError(t, err)
	assert.Equal(t, fakediscord.CallbackChannelMessage, resp.Type)
	require.NotNil(t, resp.Message)
	board := *resp.Message
	assert.Equal(t, "<@"+w.alice.ID+"> opened a lobby (fr, en-US)", board.Content)
	assert.Equal(t, []string{w.alice.ID}, board.Pinged)
	require.Len(t, board.Embeds, 1)
	assert.Equal(t, 0x2ecc71, board.Embeds[0].Color)
	in := bot.interaction("start")
	require.NotNil(t, in)
	assert.Equal(t, w.guild.ID, in.GuildID)
	assert.Equal(t, discordgo.EnglishUS, *in.GuildLocale)
	assert.Equal(t, w.alice.ID, in.Member.User.ID)
	assert.Equal(t, "start", in.ApplicationCommandData().Options[0].Name)
	assert.Equal(t, discordgo.ApplicationCommandOptionSubCommand, in.ApplicationCommandData().Options[0].Type)

	// The French user's locale comes through.
	ix2, err := srv.RunCommand(ctx, w.bruno.ID, w.channel.ID, "dix start")
	require.NoError(t, err)
	resp2, err := ix2.Wait(ctx)
	require.NoError(t, err)
	assert.Contains(t, resp2.Message.Content, "(en, fr)")
	assert.Equal(t, int64(fakediscord.PermManageChannels), bot.interaction("start").Member.Permissions&discordgo.PermissionManageChannels)

	// A select menu pick gets an ephemeral answer only carol sees.
	pick, err := srv.Select(ctx, w.carol.ID, board.ID, "dix:pick:1", "b3")
	require.NoError(t, err)
	pr, err := pick.Wait(ctx)
	require.NoError(t, err)
	assert.True(t, pr.Ephemeral())
	assert.Equal(t, "picked b3", pr.Message.Content)
	assert.Len(t, srv.Ephemerals(w.channel.ID, w.carol.ID), 1)
	assert.Empty(t, srv.Ephemerals(w.channel.ID, w.alice.ID))
	assert.Equal(t, []string{"b3"}, bot.interaction("dix:pick:1").MessageComponentData().Values)

	// A button opens a modal; submitting it answers ephemerally.
	bid, err := srv.Click(ctx, w.bruno.ID, board.ID, "dix:bid:1")
	require.NoError(t, err)
	br, err := bid.Wait(ctx)
	require.NoError(t, err)
	require.Equal(t, fakediscord.CallbackModal, br.Type)
	require.NotNil(t, br.Modal)
	assert.Equal(t, "Your bid", br.Modal.Title)
	_, err = srv.SubmitModal(ctx, w.bruno.ID, bid, map[string]string{"amount": "1234"})
	require.ErrorIs(t, err, fakediscord.ErrBadModalInput, "max_length 3")
	sub, err := srv.SubmitModal(ctx, w.bruno.ID, bid, map[string]string{"amount": "12"})
	require.NoError(t, err)
	sr, err := sub.Wait(ctx)
	require.NoError(t, err)
	assert.Equal(t, "bid 12", sr.Message.Content)
	assert.Equal(t, w.bruno.ID, sr.Message.VisibleTo)
	assert.Equal(t, board.ID, bot.interaction("dix:bidmodal:1").Message.ID)

	// A button click updates the board in place.
	join, err := srv.Click(ctx, w.carol.ID, board.ID, "dix:join:1")
	require.NoError(t, err)
	jr, err := join.Wait(ctx)
	require.NoError(t, err)
	assert.Equal(t, fakediscord.CallbackUpdateMessage, jr.Type)
	updated, ok := srv.Message(board.ID)
	require.True(t, ok)
	assert.Equal(t, "carol joined", updated.Content)
	assert.Empty(t, updated.Components)
	assert.True(t, updated.Edited())
	require.Len(t, updated.History, 1)
	assert.Equal(t, board.Content, updated.History[0].Content)
	_, err = srv.Click(ctx, w.carol.ID, board.ID, "dix:join:1")
	require.ErrorIs(t, err, fakediscord.ErrUnknownComponent, "the button is gone")

	// Deferred answer, edit of @original, ephemeral follow-up.
	solo, err := srv.RunCommand(ctx, w.alice.ID, w.channel.ID, "/dix solo difficulty:7")
	require.NoError(t, err)
	_, err = solo.Wait(ctx)
	require.NoError(t, err)
	require.NoError(t, srv.WaitFor(ctx, func() bool { return len(solo.Followups()) == 1 }))
	sr2, _ := solo.Response()
	assert.Equal(t, fakediscord.CallbackDeferredChannelMessage, sr2.Type)
	assert.Equal(t, "solo at 7", sr2.Message.Content)
	assert.False(t, sr2.Message.Loading())
	assert.False(t, sr2.Message.Edited(), "a deferred message gets its content without (edited)")
	fu := solo.Followups()[0]
	assert.True(t, fu.Ephemeral())
	assert.Equal(t, w.alice.ID, fu.VisibleTo)
	_, err = srv.RunCommand(ctx, w.alice.ID, w.channel.ID, "/dix solo difficulty:11")
	require.ErrorIs(t, err, fakediscord.ErrBadCommand, "max_value 10")

	// Channel messages through REST.
	m, err := s.ChannelMessageSend(w.channel.ID, "hello <@"+w.carol.ID+">")
	require.NoError(t, err)
	assert.Equal(t, []string{w.carol.ID}, srv.Pinged(m.ID))
	_, err = s.ChannelMessageEdit(w.channel.ID, m.ID, "hello again")
	require.NoError(t, err)
	last, ok := srv.LatestPublic(w.channel.ID)
	require.True(t, ok)
	assert.Equal(t, "hello again", last.Content)
	require.NoError(t, s.ChannelMessageDelete(w.channel.ID, m.ID))
	_, err = s.ChannelMessage(w.channel.ID, m.ID)
	var rest *discordgo.RESTError
	require.ErrorAs(t, err, &rest)
	assert.Equal(t, discordgo.ErrCodeUnknownMessage, rest.Message.Code)

	assert.Empty(t, bot.errors())
	violations := srv.Violations()
	require.Len(t, violations, 2, "the registration under the bot user id and the GET of the deleted message")
	for _, r := range srv.Interactions() {
		assert.True(t, r.InTime, "interaction %s answered in time", r.ID)
	}
}

func TestDiscordgoResumeAfterDroppedWebsocket(t *testing.T) {
	t.Parallel()
	// A generous deadline keeps this test about replay, not about timing.
	w := newWorld(t, fakediscord.Options{ResponseDeadline: 15 * time.Second})
	srv := w.srv
	bot := &testBot{}
	readies := make(chan struct{}, 4)
	gone := make(chan struct{}, 4)
	// The session reconnects as discordgo's own reconnection does (Open
	// again, which resumes a session it knows), but from the test:
	// ShouldReconnectOnError stays off, as connect sets it, since discordgo
	// reads it without a lock from its heartbeat goroutine.
	s, _ := connect(t, srv, func(s *discordgo.Session) {
		s.AddHandler(bot.handle)
		s.AddHandler(func(*discordgo.Session, *discordgo.Resumed) { readies <- struct{}{} })
		s.AddHandler(func(*discordgo.Session, *discordgo.Disconnect) { gone <- struct{}{} })
	})
	ctx := ctxT(t)
	_, err := s.ApplicationCommandBulkOverwrite(srv.ApplicationID(), w.guild.ID, []*discordgo.ApplicationCommand{dixCommand})
	require.NoError(t, err)

	srv.DropGateway()
	select {
	case <-gone:
	case <-ctx.Done():
		t.Fatal("the session did not see its websocket dropped")
	}
	// Dispatched while the bot is away: replayed on RESUME.
	ix, err := srv.RunCommand(ctx, w.alice.ID, w.channel.ID, "/dix start")
	require.NoError(t, err)
	require.NoError(t, s.Open())
	resp, err := ix.Wait(ctx)
	require.NoError(t, err)
	assert.Equal(t, fakediscord.CallbackChannelMessage, resp.Type)
	select {
	case <-readies:
	case <-ctx.Done():
		t.Fatal("no RESUMED")
	}
	assert.Equal(t, 1, srv.Resumes(), "one RESUME replayed the command")
	assert.Empty(t, srv.Violations())
	assert.Empty(t, bot.errors())
}

func TestDiscordgoProtocolViolations(t *testing.T) {
	t.Parallel()
	// A deadline no busy machine misses: the late answer below is made late
	// by moving the fake's clock, not by waiting.
	w := newWorld(t, fakediscord.Options{ResponseDeadline: time.Minute})
	srv := w.srv
	got := make(chan *discordgo.InteractionCreate, 4)
	s, _ := connect(t, srv, func(s *discordgo.Session) {
		s.AddHandler(func(_ *discordgo.Session, i *discordgo.InteractionCreate) { got <- i })
	})
	ctx := ctxT(t)
	_, err := s.ApplicationCommandBulkOverwrite(srv.ApplicationID(), w.guild.ID, []*discordgo.ApplicationCommand{dixCommand})
	require.NoError(t, err)
	respond := func(i *discordgo.InteractionCreate) error {
		return s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "ok"},
		})
	}
	restCode := func(err error) int {
		t.Helper()
		var re *discordgo.RESTError
		require.ErrorAs(t, err, &re)
		return re.Message.Code
	}

	// Double acknowledge.
	_, err = srv.RunCommand(ctx, w.alice.ID, w.channel.ID, "/dix start")
	require.NoError(t, err)
	i := <-got
	require.NoError(t, respond(i))
	assert.Equal(t, discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged, restCode(respond(i)))

	// Late answer: the deadline passes, then the bot answers.
	_, err = srv.RunCommand(ctx, w.alice.ID, w.channel.ID, "/dix start")
	require.NoError(t, err)
	i = <-got
	srv.Advance(2 * time.Minute)
	assert.Equal(t, discordgo.ErrCodeUnknownInteraction, restCode(respond(i)))

	// An invalid update on a slash command (no message to update).
	_, err = srv.RunCommand(ctx, w.alice.ID, w.channel.ID, "/dix start")
	require.NoError(t, err)
	i = <-got
	err = s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{Content: "x"}})
	assert.Equal(t, discordgo.ErrCodeInvalidFormBody, restCode(err))

	// A follow-up on a token past 15 minutes.
	srv.Advance(16 * time.Minute)
	_, err = s.FollowupMessageCreate(i.Interaction, true, &discordgo.WebhookParams{Content: "late"})
	assert.Equal(t, discordgo.ErrCodeInvalidWebhookTokenProvided, restCode(err))

	// Wrong token, sent to the stand-in itself: the shared front refuses a
	// token no stand-in has before any of them sees it.
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL()+"api/v9/users/@me", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bot wrong")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)

	require.NoError(t, srv.WaitFor(ctx, func() bool { return len(srv.Violations()) == 6 }))
	v := srv.Violations()
	codes := make([]int, 0, len(v))
	for _, e := range v {
		var viol *fakediscord.Violation
		require.ErrorAs(t, e, &viol)
		codes = append(codes, viol.Code)
	}
	// The late answer is refused (10062, as a REST error and as a missed
	// deadline); the third interaction is never answered, but its deadline
	// runs on real time and does not pass during the test.
	assert.ElementsMatch(t, []int{40060, 10062, 10062, 50035, 50027, 0}, codes)
}
