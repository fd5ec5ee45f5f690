// Package fakediscord is a local stand-in for Discord: the REST API
// (/api/v9, as discordgo calls it), the gateway over a real websocket, and
// Discord's documented rules, with a scripting API for end-to-end tests and
// a web view for trying the bot by hand (cmd/fakediscord).
//
// It is a development tool, never used by the bot in production. It
// depends on nothing of the project; the bot reaches it only through
// discordgo pointed at Server.URL (internal/discordapi.SetBaseURL, or
// DISCORD_API_URL for cmd/dixbot).
//
// # What it does
//
//   - REST: GET /gateway, /gateway/bot, /users/@me, /oauth2/applications/@me;
//     application commands (bulk overwrite, create, get, edit, delete;
//     global and per guild); interaction callbacks (types 4, 5, 6, 7, 9;
//     flag 64 ephemeral); @original get/edit/delete; follow-ups; channel
//     messages. Answers are shaped like Discord's, errors too
//     ({"code", "message", "errors"}). Authorization must be
//     "Bot <token>", else 401.
//   - Rate limits (ratelimit.go), on by default: per-route buckets with
//     X-RateLimit-Limit/Remaining/Reset/Reset-After/Bucket headers, 429
//     answers {message, retry_after, global} with Retry-After and
//     X-RateLimit-Scope (user, global, shared); the global limit of 50
//     bot-token requests per second, which the interaction callback and
//     the webhook routes with the interaction token do not count against;
//     5 messages per 5 s per channel and the other observed route values;
//     30046 (as a 429) past 3 edits per hour of messages older than an hour.
//     SetRateLimits(false) / Options.DisableRateLimits switch them off for
//     a test that measures something else, never to make a bot pass.
//   - For load runs: Options.APILatency delays every REST answer (not the
//     moment a request takes effect), as the network to Discord does;
//     Options.DropPayloads, DropFileData and DropHistory keep the memory
//     of a long run small (no interaction payloads, no attachment bytes,
//     no earlier versions' embeds and components).
//   - Counters: Stats / ResetStats, also GET and DELETE /_test/stats:
//     requests per token class (bot, interaction), per route template
//     ("POST /channels/{id}/messages"), 429s, HTTP deliveries, failovers.
//   - Permissions (channels.go): each channel and thread has the bot's
//     permission bits (ChannelSpec.BotPermissions, SetBotPermissions),
//     sent as app_permissions; writing without View Channel answers 50001,
//     without Send Messages (Send Messages in Threads in a thread), Embed
//     Links for embeds, Attach Files for files, 50013. Interaction answers
//     need no Send Messages but do need Embed Links and Attach Files.
//   - Threads: AddThread (public or private), ArchiveThread; a thread is a
//     channel with a parent, interactions from it carry its id, an
//     archived thread refuses writes with 50083.
//   - Guilds: only a Community guild (GuildSpec.Community) has its own
//     preferred locale and guild_locale, and features ["COMMUNITY"];
//     others report "en-US".
//   - The bot user's id differs from the application id (Options.BotUserID);
//     commands under the bot user's id get 404 10002 Unknown Application,
//     under another id 403 50001.
//   - Attachments (files.go): multipart/form-data with payload_json and
//     files[n] on message create and edit, interaction callbacks, follow-ups
//     and @original edits; at most 10 files (30015), 10 MiB each and 25 MiB
//     per request (413 40005); "attachments" keeps or drops files on an
//     edit; attachment://name in embeds resolved; files served at
//     /attachments/...; File reads them back (Options.DropFileData keeps
//     no bytes, for load runs). A file of 0 bytes is taken, as Discord
//     takes it, and recorded as a Violation. A message's "attachments"
//     lists only the files no embed shows by reference (attachment://name,
//     as the embeds were last set), as Discord lists them; Message.Loose
//     gives them, Message.Attachments every file the message holds.
//   - HTTP interactions (httpix.go): SetInteractionsEndpoints(ctx, urls...)
//     checks each URL as Discord does (signed PING answered {"type":1}, a
//     bad signature answered 401), then delivers interactions by signed
//     POST (Ed25519 over timestamp+body, X-Signature-Ed25519 and
//     X-Signature-Timestamp; PublicKey gives the key in hex) round robin,
//     instead of the gateway; the HTTP reply is the initial response (or
//     202 and the callback route); a connection failure goes to the next
//     URL, as a load balancer would (Discord itself does not retry).
//   - Gateway: HELLO, IDENTIFY → READY (+ GUILD_CREATE per guild),
//     sharding (IDENTIFY's shard [id, count]: guild events and interactions
//     go to the shard with (guild_id >> 22) % count == id, DMs to shard 0;
//     GET /gateway/bot recommends Options.RecommendedShards),
//     heartbeats, RESUME with replay of missed dispatches, sequence
//     numbers; INTERACTION_CREATE for slash commands, buttons, selects and
//     modal submits; MESSAGE_CREATE, MESSAGE_UPDATE and MESSAGE_DELETE
//     only to a session whose IDENTIFY intents ask for them
//     (GUILD_MESSAGES, DIRECT_MESSAGES; every event when it gives no
//     intents). JSON text frames only (compression is declined).
//     Close codes where Discord sends them: 4004 bad token, 4010 invalid
//     shard, 4011 fewer shards than RequireShards asks, 4012 a "v" other
//     than 9 or 10, 4013 an undefined intent bit, 4014 a privileged intent
//     not in Options.PrivilegedIntents; CloseGateway(code) closes every
//     connection with any code (forgetting the sessions after those that
//     end them), RefuseGateway(code) closes them and every later IDENTIFY
//     and RESUME, SilenceGateway(true) greets new connections with
//     nothing, GatewayConnects counts the connections.
//   - Rules: 3-second initial response, answered once; 15-minute tokens;
//     component, modal, content and embed limits; only the author edits;
//     ephemeral messages visible to their user only; allowed_mentions
//     decides who is pinged. Every refused request and every interaction
//     left unanswered is recorded as a Violation.
//   - Transcript: every message per channel with embeds, components,
//     flags, edit history, ephemeral recipient and pinged users.
//   - Capture: with Options.CaptureDir, each request the bot sent is
//     written as one JSON file (sequence-numbered), without the token.
//
// # Scripting from a test
//
//	func TestLobby(t *testing.T) {
//		srv := fakediscord.Start(t) // 127.0.0.1, closed at the end of the test
//		guild := srv.AddGuild(fakediscord.GuildSpec{Name: "Board games", PreferredLocale: "fr", Community: true})
//		channel, _ := srv.AddChannel(guild.ID, "dix")
//		alice := srv.AddUser(fakediscord.UserSpec{Name: "alice", Locale: "en-US"})
//		_ = srv.AddMember(guild.ID, alice.ID, fakediscord.DefaultPermissions|fakediscord.PermManageChannels)
//
//		// Point discordgo at the fake and start the bot under test.
//		_ = discordapi.SetBaseURL(srv.URL())
//		startBot(t, "Bot "+srv.Token()) // registers its commands under srv.ApplicationID() and opens the gateway
//		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
//		defer cancel()
//		_ = srv.WaitFor(ctx, func() bool { return len(srv.Commands(guild.ID)) > 0 })
//
//		ix, err := srv.RunCommand(ctx, alice.ID, channel.ID, "/dix start language:fr")
//		require.NoError(t, err)
//		resp, err := ix.Wait(ctx) // the initial response: type, data, message or modal
//		require.NoError(t, err)
//		board := resp.Message
//
//		click, _ := srv.Click(ctx, alice.ID, board.ID, board.Buttons()[0].CustomID)
//		_, _ = click.Wait(ctx)
//		now, _ := srv.LatestPublic(channel.ID) // the board as everyone sees it
//		_ = now.History                        // its earlier versions
//		_ = srv.Ephemerals(channel.ID, alice.ID)
//		require.Empty(t, srv.Violations())
//	}
//
// Select menus use Select(ctx, user, message, customID, values...), modals
// SubmitModal(ctx, user, interactionThatOpenedIt, values); Command takes a
// CommandInput instead of a typed line. Options are typed with the
// registered definitions (choices by value or name, integer ranges, users
// as ids or mentions); a command the user could not use in Discord
// (contexts, default_member_permissions) is refused with a typed error, and
// so is a click on a missing or disabled component. A command registered
// with the deprecated dm_permission is taken but recorded as a violation.
//
// Interaction.Wait returns the initial response, or ErrNoResponse as soon as
// the 3-second deadline passes without one; Response, Followups and Payload
// read it without waiting. Server.Interactions reports latency and
// timeliness of every interaction, Violations every breach of the rules.
//
// Reading the channel: LatestPublic (the current board), VisibleMessages
// (what one user sees), Ephemerals, Message (with History, Mentions and
// Pinged), Transcript (everything). WaitFor and WaitMessage wait on state
// changes (no sleeps); Changes gives the raw notification channel. With
// many channels at once (internal/loadtest), ChannelChanges wakes only at
// a change in one channel and RecentMessages copies only its last few
// messages.
// Post writes a message as a user, DMChannel opens a DM. DropGateway cuts
// the websocket to exercise RESUME; Advance moves the fake clock (token
// expiry).
//
// Faults: Interaction.Redeliver dispatches the same interaction (same id
// and token) again, as Discord may after a RESUME; a second initial answer
// then gets 40060 and is recorded as a Violation. HoldCallbacks holds up a
// user's initial answers until released, to keep an interaction in flight
// in the bot at a known point (for shutdown tests). RateLimitNext answers
// the next requests of a route with a 429 no header announced;
// RateLimitGlobal answers every bot-token request, for a while, with
// Discord's documented global 429 (no X-RateLimit-Reset-After);
// RateLimitAfterBoards refuses the requests that follow a board.
//
// # Web view
//
// Unless Options.DisableWeb is set, "/" serves a page (plain HTML, CSS and
// JS embedded in the binary) that shows a channel as Discord would for a
// chosen user: embeds, buttons, select menus, modals, ephemeral messages
// for that user only, "(edited)" marks, highlighted mentions, who was
// pinged, and the protocol violations. Its command box parses slash
// commands against the registered commands. It long-polls /ui/state and
// acts through the scripting API.
//
// All methods of Server are safe for concurrent use.
//
// discordgo's Endpoint variables are globals: every test of one process
// that opens a session must point them at a fake (SetBaseURL before
// creating the session), and such tests must not run in parallel with
// tests pointing elsewhere.
package fakediscord
