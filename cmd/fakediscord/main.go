// Command fakediscord runs the local Discord stand-in with its web view, for
// trying the bot by hand. It is a development tool, not part of the bot.
//
//	go run ./cmd/fakediscord [-addr 127.0.0.1:8765] [-token T] [-capture DIR]
//	    [-guild-locale fr] [-shards N] [-interactions-url URL,...] [-no-rate-limits]
//
// Then start the bot with the printed DISCORD_TOKEN and DISCORD_API_URL and
// open the printed address in a browser.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/dixgame/dixbot/internal/fakediscord"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Getenv); err != nil {
		fmt.Fprintln(os.Stderr, "fakediscord:", err)
		os.Exit(1)
	}
}

// demo is what the stand-in starts with.
type demo struct {
	Guild   fakediscord.Guild
	Channel fakediscord.Channel
	Users   []fakediscord.User
}

// run serves until ctx ends.
func run(ctx context.Context, args []string, out io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("fakediscord", flag.ContinueOnError)
	fs.SetOutput(out)
	addr := fs.String("addr", "127.0.0.1:8765", "listen address (loopback only)")
	token := fs.String("token", "fake-bot-token", "bot token the bot must use")
	capture := fs.String("capture", getenv("FAKEDISCORD_CAPTURE"), "directory receiving one JSON file per request the bot sends (env FAKEDISCORD_CAPTURE)")
	guildLocale := fs.String("guild-locale", "en-US", "preferred locale of the demo guild (a Community server, so the locale shows in guild_locale)")
	shards := fs.Int("shards", 1, "shard count recommended by GET /gateway/bot")
	endpoints := fs.String("interactions-url", "", "comma-separated interactions endpoint URLs: deliver interactions by signed HTTP POST (round robin) instead of the gateway")
	noLimits := fs.Bool("no-rate-limits", false, "switch Discord's rate limits off (only to measure something else)")
	verbose := fs.Bool("v", false, "log protocol violations and diagnostics to stderr")
	quiet := fs.Bool("quiet", false, "print only the web view's address (for scripts that start the bot themselves)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	logger := slog.New(slog.DiscardHandler)
	if *verbose {
		logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	srv, err := fakediscord.New(fakediscord.Options{Addr: *addr, Token: *token, CaptureDir: *capture, Logger: logger,
		RecommendedShards: *shards, DisableRateLimits: *noLimits})
	if err != nil {
		return err
	}
	defer srv.Close()
	if *endpoints != "" {
		if err := srv.SetInteractionsEndpoints(ctx, strings.Split(*endpoints, ",")...); err != nil {
			return err
		}
	}
	d, err := setupDemo(srv, *guildLocale)
	if err != nil {
		return err
	}
	if *quiet {
		fmt.Fprintf(out, "Web view: %s?channel=%s\n", srv.URL(), d.Channel.ID)
	} else {
		printHelp(out, srv, d, *capture)
	}

	<-ctx.Done()
	fmt.Fprintln(out, "stopping")
	return nil
}

// setupDemo creates the demo guild, its channel and three users (one
// French, one with Manage Channels).
func setupDemo(srv *fakediscord.Server, guildLocale string) (demo, error) {
	var d demo
	d.Guild = srv.AddGuild(fakediscord.GuildSpec{Name: "DIX demo", PreferredLocale: guildLocale, Community: true})
	ch, err := srv.AddChannel(d.Guild.ID, "dix")
	if err != nil {
		return d, err
	}
	d.Channel = ch
	specs := []struct {
		spec  fakediscord.UserSpec
		perms int64
	}{
		{fakediscord.UserSpec{Name: "alice", Locale: "en-US"}, fakediscord.DefaultPermissions | fakediscord.PermManageChannels},
		{fakediscord.UserSpec{Name: "bruno", Locale: "fr"}, fakediscord.DefaultPermissions},
		{fakediscord.UserSpec{Name: "carol", Locale: "en-GB"}, fakediscord.DefaultPermissions},
	}
	for _, s := range specs {
		u := srv.AddUser(s.spec)
		if err := srv.AddMember(d.Guild.ID, u.ID, s.perms); err != nil {
			return d, err
		}
		d.Users = append(d.Users, u)
	}
	return d, nil
}

// printHelp writes the whole help in one write, so a reader never sees
// half of it.
func printHelp(out io.Writer, srv *fakediscord.Server, d demo, capture string) {
	var b strings.Builder
	fmt.Fprintf(&b, "fakediscord is listening on %s\n\n", srv.URL())
	fmt.Fprintf(&b, "Point the bot at it:\n\n")
	fmt.Fprintf(&b, "  DISCORD_TOKEN=%s DISCORD_API_URL=%s go run ./cmd/dixbot\n\n", srv.Token(), srv.URL())
	fmt.Fprintf(&b, "Web view: %s?channel=%s\n", srv.URL(), d.Channel.ID)
	fmt.Fprintf(&b, "Application id: %s (bot user %s)\n", srv.ApplicationID(), srv.BotUser().ID)
	fmt.Fprintf(&b, "Public key: %s (DISCORD_PUBLIC_KEY for HTTP interactions)\n", srv.PublicKey())
	fmt.Fprintf(&b, "Request counters: %s_test/stats\n", srv.URL())
	fmt.Fprintf(&b, "Guild %q (%s, locale %s), channel #%s (%s)\n", d.Guild.Name, d.Guild.ID, d.Guild.PreferredLocale, d.Channel.Name, d.Channel.ID)
	for _, u := range d.Users {
		fmt.Fprintf(&b, "User %-6s %s locale %s\n", u.Username, u.ID, u.Locale)
	}
	if capture != "" {
		fmt.Fprintf(&b, "Capturing requests to %s\n", capture)
	}
	io.WriteString(out, b.String())
}
