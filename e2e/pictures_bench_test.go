package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"

	dixbot "github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/app"
	"github.com/dixgame/dixbot/internal/fakediscord"
)

// BenchmarkClickAnswer measures the answer to a click on the board (the
// UPDATE_MESSAGE that redraws it, with its picture when pictures are on),
// as the stand-in sees it: from the interaction's creation to the arrival
// of its answer. Two games run side by side in one program, one started
// with pictures on and one with pictures:off, and every iteration makes
// one board click in each, so both see the same machine load. It reports
// the median and the 99th percentile of each (pic-*, text-*).
//
//	go test -run '^$' -bench ClickAnswer -benchtime 400x ./e2e/
func BenchmarkClickAnswer(b *testing.B) {
	fake := fakediscord.Start(b, fakediscord.Options{DisableWeb: true, DisableRateLimits: true})
	ready := make(chan app.Started, 1)
	cfg := app.Config{
		Token: fake.Token(), APIURL: sharedURL(b, fake), DataFile: filepath.Join(b.TempDir(), "dix.db"), Language: "en",
		StoreTimeout: 1500 * time.Millisecond, ShutdownTimeout: 20 * time.Second, GameTTL: time.Hour, ArchiveTTL: time.Hour,
		Ready: func(s app.Started) { ready <- s },
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- app.Run(ctx, cfg, slog.New(slog.DiscardHandler)) }()
	b.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			b.Errorf("app.Run: %v", err)
		}
	})
	var st dixbot.Store
	select {
	case s := <-ready:
		st = s.Store
	case err := <-done:
		b.Fatalf("app.Run: %v", err)
	case <-time.After(waitTimeout):
		b.Fatal("app.Run not ready")
	}

	games := []*benchGame{
		{fake: fake, store: st, start: "/dix start", rng: rand.New(rand.NewPCG(1, 1))},
		{fake: fake, store: st, start: "/dix start pictures:off", rng: rand.New(rand.NewPCG(1, 1))},
	}
	lat := make([][]time.Duration, len(games))
	for b.Loop() {
		for k, g := range games {
			wctx, wcancel := context.WithTimeout(ctx, waitTimeout)
			d, err := g.click(wctx)
			wcancel()
			if err != nil {
				b.Fatalf("%s: %v", g.start, err)
			}
			lat[k] = append(lat[k], d)
		}
	}
	for k, name := range []string{"pic", "text"} {
		l := lat[k]
		slices.Sort(l)
		b.ReportMetric(float64(l[len(l)/2].Microseconds())/1000, name+"-p50-ms")
		b.ReportMetric(float64(l[len(l)*99/100].Microseconds())/1000, name+"-p99-ms")
	}
}

// benchGame plays two-player games in fresh channels by clicks on the
// board only (drawing often, never bidding, paying when asked), starting
// a new game when one ends.
type benchGame struct {
	fake    *fakediscord.Server
	store   dixbot.Store
	start   string
	rng     *rand.Rand
	channel string
	users   []fakediscord.User
	n       int
}

// click makes one click on the board and returns the latency of its answer.
func (g *benchGame) click(ctx context.Context) (time.Duration, error) {
	for range 10 {
		if g.channel == "" {
			if err := g.open(ctx); err != nil {
				return 0, err
			}
		}
		rec, err := getRecord(ctx, g.store, g.channel)
		if err != nil {
			return 0, err
		}
		if rec.Finished || dixOf(rec) == nil || dixOf(rec).Phase == dix.PhaseOver {
			g.channel = "" // over: a new game
			continue
		}
		var m struct {
			Seats []struct {
				ID string `json:"i"`
			} `json:"s"`
			Base uint32 `json:"vb"`
		}
		if err := json.Unmarshal(rec.Meta, &m); err != nil {
			return 0, err
		}
		seq := uint64(dixOf(rec).Seq + m.Base)
		user := m.Seats[dixOf(rec).ToAct()].ID
		buttons := map[string]string{}
		board, err := g.fake.WaitMessage(ctx, g.channel, "", func(msg fakediscord.Message) bool {
			clear(buttons)
			for _, c := range components(msg) {
				if id, ok := parseCustomID(c.CustomID); ok && id.version == seq && slices.Contains(gameVerbs, id.verb) {
					buttons[id.verb] = c.CustomID
				}
			}
			return len(buttons) > 0
		})
		if err != nil {
			return 0, fmt.Errorf("no board for state %d: %w", seq, err)
		}
		verb := ""
		for _, v := range []string{"draw", "stop", "num", "end", "cons", "pass", "pay"} {
			if _, ok := buttons[v]; ok && (v != "draw" || g.rng.IntN(10) < 7 || buttons["stop"] == "") {
				verb = v
				break
			}
		}
		if verb == "" {
			return 0, fmt.Errorf("no button to click among %v", buttons)
		}
		ix, err := g.fake.Click(ctx, user, board.ID, buttons[verb])
		if err != nil {
			return 0, err
		}
		r, err := ix.Wait(ctx)
		if err != nil {
			return 0, err
		}
		if verb == "pay" {
			// The winner's payment prompt: pay as proposed.
			if r.Message == nil {
				return 0, errors.New("no payment prompt")
			}
			for _, c := range components(*r.Message) {
				if id, ok := parseCustomID(c.CustomID); ok && id.verb == "apay" {
					ix, err := g.fake.Click(ctx, user, r.Message.ID, c.CustomID)
					if err != nil {
						return 0, err
					}
					if _, err := ix.Wait(ctx); err != nil {
						return 0, err
					}
					break
				}
			}
			continue // a prompt, not a board: not measured
		}
		return r.Latency, nil
	}
	return 0, errors.New("no board click in 10 tries")
}

// open starts a new game in a new channel.
func (g *benchGame) open(ctx context.Context) error {
	g.n++
	guild := g.fake.AddGuild(fakediscord.GuildSpec{Name: fmt.Sprintf("bench %d", g.n), PreferredLocale: "en-US"})
	ch, err := g.fake.AddChannel(guild.ID, "dix")
	if err != nil {
		return err
	}
	g.users = nil
	for _, name := range []string{"Alice", "Bob"} {
		u := g.fake.AddUser(fakediscord.UserSpec{Name: name, Locale: "en-US"})
		if err := g.fake.AddMember(guild.ID, u.ID, 0); err != nil {
			return err
		}
		g.users = append(g.users, u)
	}
	ix, err := g.fake.RunCommand(ctx, g.users[0].ID, ch.ID, g.start)
	if err != nil {
		return err
	}
	r, err := ix.Wait(ctx)
	if err != nil || r.Message == nil {
		return fmt.Errorf("lobby: %v", err)
	}
	lobby := *r.Message
	for _, step := range []struct {
		user fakediscord.User
		verb string
	}{{g.users[1], "join"}, {g.users[0], "go"}} {
		id := ""
		for _, c := range components(lobby) {
			if p, ok := parseCustomID(c.CustomID); ok && p.verb == step.verb {
				id = c.CustomID
			}
		}
		if id == "" {
			return fmt.Errorf("no %s button on the lobby", step.verb)
		}
		ix, err := g.fake.Click(ctx, step.user.ID, lobby.ID, id)
		if err != nil {
			return err
		}
		if _, err := ix.Wait(ctx); err != nil {
			return err
		}
		lobby, _ = g.fake.Message(lobby.ID)
	}
	g.channel = ch.ID
	return nil
}
