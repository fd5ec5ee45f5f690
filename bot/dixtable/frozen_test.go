package dixtable

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"flag"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/redistest"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/store"
)

// The frozen records: games in mid-play as the bot of commit e5bccf7 writes them, kept in
// testdata so that every later build is shown to read them and play them to
// their end, and the custom ids of the messages they left in Discord to
// route. They are the formats of commit e5bccf7 (envelope format 2, table
// data version 1), made by TestFrozenRecordsGenerate at that commit:
//
//	go test ./bot/ -run TestFrozenRecordsGenerate -freeze
//
// plays each frozenCase on a Redis store and on a file store and
// writes, per case:
//
//	bot/dixtable/testdata/records/<case>.table.json  the table data (Record.Meta) as stored
//	bot/dixtable/testdata/records/<case>.shown.json  the messages with components users see (frozenShown)
//	store/testdata/records/<case>.env2      the Redis value of the record: envelope format 2
//	store/testdata/records/<case>.env1      the same record in envelope format 1 (below)
//
// and store/testdata/records/file.db, the file store holding every case.
//
// Envelope format 1 is format 2 without the due time: byte 4 is 1, the
// flagDue bit is clear, the 8 bytes of the due time are absent and the
// CRC-32C is computed again (store/envelope.go). A format-1 record is made
// from the format-2 one that way, since this build writes only format 2.
//
// Frozen records are never made again: run by a later build, the generator
// would write that build's formats and the tests would no longer show that
// the older ones are read. So it refuses to write over them; a new case is
// frozen by a build of the format it stands for, in files of its own.
var freeze = flag.Bool("freeze", false, "write the frozen records of bot/dixtable/testdata/records and store/testdata/records (never over existing ones)")

const (
	frozenBotDir   = "testdata/records"
	frozenStoreDir = "../../store/testdata/records"
	frozenFileDB   = "file.db"
	// frozenTTL keeps the frozen records of the file store alive whatever
	// their age: its expiry counts from the update time they carry.
	frozenTTL = 200 * 365 * 24 * time.Hour
)

// frozenCase is one game frozen in mid-play. Every case is played, frozen
// and loaded on the fixed clock of harness.clocked: the default pace runs
// a clock too, which a later date would find long run out.
type frozenCase struct {
	name    string
	channel string
	// freeze plays the game to the state to freeze and returns the ids of
	// the messages to freeze besides the board (open prompts), with the
	// user each one was shown to.
	freeze func(h *harness) map[string]string
	// resume is the first move after loading: a click on a frozen message
	// (the board's or a prompt's), before the rest of the game is played
	// with harness.step.
	resume func(t *testing.T, h *harness, shown frozenShown)
	seed   uint64 // of the rest of the game
}

// frozenShown is what users see of a frozen game: the board (or lobby) and
// the open prompts, with their components.
type frozenShown struct {
	// Due is the due time of the record in Unix milliseconds (0: none), as
	// the Redis store indexes it.
	Due  int64       `json:"due,omitempty"`
	Msgs []frozenMsg `json:"messages"` // the board first
	Turn int         `json:"turn,omitempty"`
	Seq  uint32      `json:"seq,omitempty"` // dix.Game.Seq (0: a lobby)
	Case string      `json:"case"`
}

type frozenMsg struct {
	ID        string         `json:"id"`
	Ephemeral bool           `json:"ephemeral,omitempty"`
	User      string         `json:"user,omitempty"` // who an ephemeral prompt was shown to
	Rows      [][]frozenComp `json:"rows"`
}

type frozenComp struct {
	Select  bool     `json:"select,omitempty"`
	ID      string   `json:"id"`
	Options []string `json:"options,omitempty"`
}

// stepUntil plays random decisions (seeded) until done says so; it fails
// when the game ends first.
func stepUntil(h *harness, seed uint64, done func(g *dix.Game) bool) {
	h.T.Helper()
	rng := rand.New(rand.NewPCG(seed, seed))
	for i := 0; ; i++ {
		r, _ := h.Record()
		require.False(h.T, r.Finished, "the game ended before the state to freeze")
		if done(dix.GameOf(r.State)) {
			return
		}
		require.Less(h.T, i, 2000)
		step(h, rng)
	}
}

// openPrompt clicks the board's verb as the player to act and returns the
// prompt shown to them.
func openPrompt(h *harness, verb string) map[string]string {
	h.T.Helper()
	r, m := h.Record()
	user := m.Seats[dix.GameOf(r.State).ToAct()].ID
	board := h.Board()
	prompt := h.ClickOn(user, board, h.MustFind(board, verb)).Shown(board)
	require.NotNil(h.T, prompt)
	require.True(h.T, prompt.Ephemeral)
	return map[string]string{prompt.ID: user}
}

var frozenCases = []frozenCase{
	{
		name: "lobby", channel: "c-lobby", seed: 21,
		freeze: func(h *harness) map[string]string {
			lobby := h.Command("u1", "start").Shown(nil)
			h.ClickOn("u2", lobby, h.MustFind(lobby, verbJoin))
			return nil
		},
		resume: func(t *testing.T, h *harness, shown frozenShown) {
			lobby := h.Board()
			h.ClickOn("u3", lobby, h.MustFind(lobby, verbJoin))
			h.ClickOn("u1", lobby, h.MustFind(lobby, verbGo))
			r, m := h.Record()
			require.NotNil(t, dix.GameOf(r.State), "the frozen lobby starts")
			assert.Len(t, m.Seats, 3)
		},
	},
	{
		name: "auction", channel: "c-auction", seed: 22,
		freeze: func(h *harness) map[string]string {
			startGame(h, "u1", "u2", "u3")
			stepUntil(h, 5, func(g *dix.Game) bool {
				return g.Phase == dix.PhaseAuction && g.ToAct() >= 0 && canBid(h, g)
			})
			return openPrompt(h, verbBid)
		},
		resume: func(t *testing.T, h *harness, shown frozenShown) {
			// The frozen bid prompt still bids.
			p := shown.prompt(t)
			id := p.firstVerb(t, verbBidAmount)
			before, _ := h.Record()
			r := h.ClickOn(p.User, h.Rec.Message(p.ID), id)
			require.NotEqual(t, discordgo.InteractionResponseChannelMessageWithSource, r.Response().Type, "refused: %+v", r.Response().Data)
			after, _ := h.Record()
			assert.NotEqual(t, dix.GameOf(before.State).Seq, dix.GameOf(after.State).Seq, "the frozen bid was not taken")
		},
	},
	{
		name: "solo", channel: "c-solo", seed: 23,
		freeze: func(h *harness) map[string]string {
			h.Command("u1", "solo", bot.OptDifficulty, float64(6))
			stepUntil(h, 6, func(g *dix.Game) bool {
				return g.Phase == dix.PhaseBuy && g.ToAct() == 0 && len(g.Choices(0).Buyable) > 0
			})
			return openPrompt(h, verbBuy)
		},
		resume: func(t *testing.T, h *harness, shown frozenShown) {
			// The frozen market prompt still buys: its menu, then the
			// payment proposed.
			p := shown.prompt(t)
			id := p.firstVerb(t, verbBuySelect)
			var card string
			for _, row := range p.Rows {
				for _, c := range row {
					if c.ID == id {
						card = c.Options[0]
					}
				}
			}
			before, _ := h.Record()
			pay := h.ClickOn(p.User, h.Rec.Message(p.ID), id, card).Shown(h.Rec.Message(p.ID))
			h.ClickOn(p.User, pay, h.MustFind(pay, verbBuyPay))
			after, _ := h.Record()
			assert.NotEqual(t, dix.GameOf(before.State).Seq, dix.GameOf(after.State).Seq, "the frozen market prompt bought nothing")
		},
	},
	{
		name: "clocked", channel: "c-clocked", seed: 24,
		freeze: func(h *harness) map[string]string {
			startGameWith(h, []any{bot.OptPace, "live"}, "u1", "u2")
			stepUntil(h, 7, func(g *dix.Game) bool { return g.Seq >= 12 && g.Phase == dix.PhaseDraw })
			return nil
		},
	},
}

// canBid reports whether the player to act in an auction may bid.
func canBid(h *harness, g *dix.Game) bool {
	for _, a := range g.Choices(g.ToAct()).Actions {
		if a == dix.ActBid {
			return true
		}
	}
	return false
}

func (s frozenShown) prompt(t *testing.T) frozenMsg {
	t.Helper()
	for _, m := range s.Msgs {
		if m.Ephemeral {
			return m
		}
	}
	t.Fatal("no prompt frozen")
	return frozenMsg{}
}

func (m frozenMsg) firstVerb(t *testing.T, verb string) string {
	t.Helper()
	for _, row := range m.Rows {
		for _, c := range row {
			if p, err := bot.ParseID(c.ID); err == nil && p.Verb == verb {
				return c.ID
			}
		}
	}
	t.Fatalf("no %q among the frozen components of %s", verb, m.ID)
	return ""
}

// freezeMsg is the frozen form of a shown message.
func freezeMsg(msg *tabletest.Message, user string) frozenMsg {
	f := frozenMsg{ID: msg.ID, Ephemeral: msg.Ephemeral, User: user}
	for _, c := range msg.Components {
		var fr []frozenComp
		for _, cc := range tabletest.RowComponents(c) {
			switch v := cc.(type) {
			case discordgo.Button:
				if v.CustomID != "" {
					fr = append(fr, frozenComp{ID: v.CustomID})
				}
			case discordgo.SelectMenu:
				fc := frozenComp{Select: true, ID: v.CustomID}
				for _, o := range v.Options {
					fc.Options = append(fc.Options, o.Value)
				}
				fr = append(fr, fc)
			}
		}
		if fr != nil {
			f.Rows = append(f.Rows, fr)
		}
	}
	return f
}

// shownMsg is the message users see of a frozen one.
func (f frozenMsg) shownMsg(channel string) *tabletest.Message {
	m := &tabletest.Message{ID: f.ID, Channel: channel, Ephemeral: f.Ephemeral}
	for _, fr := range f.Rows {
		var row []discordgo.MessageComponent
		for _, c := range fr {
			if c.Select {
				s := discordgo.SelectMenu{CustomID: c.ID}
				for _, o := range c.Options {
					s.Options = append(s.Options, discordgo.SelectMenuOption{Label: o, Value: o})
				}
				row = append(row, s)
			} else {
				row = append(row, discordgo.Button{CustomID: c.ID})
			}
		}
		m.Components = append(m.Components, discordgo.ActionsRow{Components: row})
	}
	return m
}

// TestFrozenRecordsGenerate writes the frozen records (with -freeze only).
func TestFrozenRecordsGenerate(t *testing.T) {
	t.Parallel()
	if !*freeze {
		t.Skip("writes the frozen records: run with -freeze")
	}
	if _, err := os.Stat(filepath.Join(frozenStoreDir, frozenFileDB)); err == nil {
		t.Fatalf("the records are frozen already (%s): they are never written again", filepath.Join(frozenStoreDir, frozenFileDB))
	}
	ctx := context.Background()
	srv := redistest.Start(t)
	const prefix = "frozen:"
	rs, err := store.OpenRedis(ctx, store.Options{URL: srv.URL(), Prefix: prefix})
	require.NoError(t, err)
	defer rs.Close()
	opt, err := redis.ParseURL(srv.URL())
	require.NoError(t, err)
	raw := redis.NewClient(opt)
	defer raw.Close()
	dbPath := filepath.Join(t.TempDir(), frozenFileDB)
	fs, err := store.OpenFile(dbPath, store.Options{GameTTL: frozenTTL})
	require.NoError(t, err)

	require.NoError(t, os.MkdirAll(frozenBotDir, 0o755))
	require.NoError(t, os.MkdirAll(frozenStoreDir, 0o755))
	for _, fc := range frozenCases {
		play := func(db dixbot.Store) (*harness, frozenShown) {
			h := newHarnessOn(t, db)
			h.Channel = fc.channel
			clocked(h)
			prompts := fc.freeze(h)
			r, m := h.Record()
			shown := frozenShown{Msgs: []frozenMsg{freezeMsg(h.Board(), "")}, Turn: m.Turn, Case: fc.name}
			if !r.Due.IsZero() {
				shown.Due = r.Due.UnixMilli()
			}
			if dix.GameOf(r.State) != nil {
				shown.Seq = dix.GameOf(r.State).Seq
			}
			for id, user := range prompts {
				shown.Msgs = append(shown.Msgs, freezeMsg(h.Rec.Message(id), user))
			}
			return h, shown
		}
		hr, shown := play(rs)
		hf, shownFile := play(fs)
		rr, _ := hr.Record()
		rf, _ := hf.Record()
		mr, mf := mustDixTable(rr.Meta), mustDixTable(rf.Meta)
		mr.BoardVia, mf.BoardVia, mr.PingVia, mf.PingVia = nil, nil, nil, nil // dated by the clock of the machine
		require.Equal(t, mr, mf, "%s: both stores hold the same table", fc.name)
		require.Equal(t, shown, shownFile)

		env, err := raw.Get(ctx, prefix+"game:{"+fc.channel+"}").Bytes()
		require.NoError(t, err)
		b, err := json.MarshalIndent(shown, "", "\t")
		require.NoError(t, err)
		for name, data := range map[string][]byte{
			filepath.Join(frozenBotDir, fc.name+".table.json"): rr.Meta,
			filepath.Join(frozenBotDir, fc.name+".shown.json"): append(b, '\n'),
			filepath.Join(frozenStoreDir, fc.name+".env2"):     env,
			filepath.Join(frozenStoreDir, fc.name+".env1"):     envelopeFormat1(t, env),
		} {
			require.NoError(t, os.WriteFile(name, data, 0o644))
		}
	}
	require.NoError(t, fs.Close())
	db, err := os.ReadFile(dbPath)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(frozenStoreDir, frozenFileDB), db, 0o644))
}

// envelopeFormat1 rewrites a format-2 envelope in format 1 (see the
// comment at the top of this file).
func envelopeFormat1(t *testing.T, env []byte) []byte {
	t.Helper()
	const flagDue = 1 << 2
	require.Equal(t, "DIXr", string(env[:4]))
	require.Equal(t, byte(2), env[4])
	body := append([]byte(nil), env[:len(env)-4]...)
	if body[5]&flagDue != 0 {
		body = body[:len(body)-8]
		body[5] &^= flagDue
	}
	body[4] = 1
	return binary.BigEndian.AppendUint32(body, crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)))
}

// loadFrozen reads a frozen case's files.
func loadFrozen(t *testing.T, fc frozenCase, format int) (table []byte, shown frozenShown, env []byte) {
	t.Helper()
	table, err := os.ReadFile(filepath.Join(frozenBotDir, fc.name+".table.json"))
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(frozenBotDir, fc.name+".shown.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &shown))
	env, err = os.ReadFile(filepath.Join(frozenStoreDir, fc.name+".env"+string(rune('0'+format))))
	require.NoError(t, err)
	return table, shown, env
}

// frozenRedis is a Redis store holding the frozen record env of fc, written
// under the keys the Redis store lays out (store/redis.go).
func frozenRedis(t *testing.T, srv *redistest.Server, fc frozenCase, env []byte, due int64) dixbot.Store {
	t.Helper()
	ctx := context.Background()
	prefix := "frozen-" + strings.ReplaceAll(t.Name(), "/", "-") + ":"
	opt, err := redis.ParseURL(srv.URL())
	require.NoError(t, err)
	raw := redis.NewClient(opt)
	defer raw.Close()
	require.NoError(t, raw.Set(ctx, prefix+"game:{"+fc.channel+"}", env, 0).Err())
	require.NoError(t, raw.ZAdd(ctx, prefix+"active:g1", redis.Z{Score: float64(time.Now().UnixMicro()), Member: fc.channel}).Err())
	if due != 0 {
		require.NoError(t, raw.ZAdd(ctx, prefix+"due", redis.Z{Score: float64(due), Member: fc.channel}).Err())
	}
	s, err := store.OpenRedis(ctx, store.Options{URL: srv.URL(), Prefix: prefix})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

// frozenFile is a copy of the frozen file store; in format 1 its record of
// fc is env, without a due entry, as a build writing format 1 left it.
func frozenFile(t *testing.T, fc frozenCase, env []byte, format int) dixbot.Store {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(frozenStoreDir, frozenFileDB))
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), frozenFileDB)
	require.NoError(t, os.WriteFile(path, b, 0o600))
	if format == 1 {
		db, err := bolt.Open(path, 0o600, nil)
		require.NoError(t, err)
		require.NoError(t, db.Update(func(tx *bolt.Tx) error {
			if err := tx.Bucket([]byte("games")).Put([]byte(fc.channel), env); err != nil {
				return err
			}
			return tx.Bucket([]byte("due")).Delete([]byte(fc.channel))
		}))
		require.NoError(t, db.Close())
	}
	s, err := store.OpenFile(path, store.Options{GameTTL: frozenTTL})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

// TestFrozenRecordsPlayToTheEnd loads every frozen record, in both envelope
// formats, through both stores, and plays it to its end by clicks: first
// on the frozen messages (their custom ids still route and act), then on
// what the bot shows.
func TestFrozenRecordsPlayToTheEnd(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	for _, fc := range frozenCases {
		for _, format := range []int{1, 2} {
			for _, kind := range []string{"redis", "file"} {
				t.Run(fc.name+"/format"+string(rune('0'+format))+"/"+kind, func(t *testing.T) {
					table, shown, env := loadFrozen(t, fc, format)
					var db dixbot.Store
					if kind == "redis" {
						due := shown.Due
						if format == 1 {
							due = 0
						}
						db = frozenRedis(t, srv, fc, env, due)
					} else {
						db = frozenFile(t, fc, env, format)
					}
					h := newHarnessOn(t, db)
					h.Channel = fc.channel
					clocked(h)
					// Drawing a picture per click is most of what playing to
					// the end costs: one store and format per case draws them.
					h.b.NoPictures = format != 2 || kind != "redis"
					// Messages and interactions made from here on get ids
					// the frozen ones do not have.
					h.Rec.N, h.N = 1000, 1000

					rec, m := h.Record()
					// The file store's records are those of its own run, whose
					// interactions arrived at other instants (via.At).
					want, got := mustDixTable(table), mustDixTable(rec.Meta)
					for _, v := range []*bot.Via{want.BoardVia, want.PingVia, got.BoardVia, got.PingVia} {
						if v != nil {
							v.At = 0
						}
					}
					assert.Equal(t, want, got, "the table data reads as stored")
					assert.Equal(t, shown.Turn, m.Turn)
					if dix.GameOf(rec.State) != nil {
						assert.Equal(t, shown.Seq, dix.GameOf(rec.State).Seq)
					}
					for _, f := range shown.Msgs {
						h.Rec.Msgs[f.ID] = f.shownMsg(fc.channel)
						for _, row := range f.Rows {
							for _, c := range row {
								p, err := bot.ParseID(c.ID)
								if assert.NoError(t, err, "frozen id %q", c.ID) {
									assert.True(t, strings.HasPrefix(c.ID, "dix:"))
									spec, ok := bot.Verbs[p.Verb]
									assert.True(t, ok && !spec.Modal, "frozen id %q routes to no component", c.ID)
								}
							}
						}
					}
					require.Equal(t, shown.Msgs[0].ID, m.Board, "the first frozen message is the board")
					if dix.GameOf(rec.State) != nil {
						// Every id of the frozen board reaches its handler:
						// clicked by someone outside the game, it is refused
						// as such, and nothing changes. (A prompt is seen by
						// its user alone: its ids are clicked by resume.)
						for _, f := range shown.Msgs {
							if f.Ephemeral {
								continue
							}
							for _, row := range f.Rows {
								for _, c := range row {
									var values []string
									if c.Select {
										values = c.Options[:1]
									}
									txt := h.ClickOn("u9", h.Rec.Message(f.ID), c.ID, values...).EphemeralText()
									if p, _ := bot.ParseID(c.ID); p.Verb == verbBoardText {
										assert.Empty(t, txt, "the board as text is for anyone") // in its embed
									} else {
										assert.Equal(t, enT("err_not_in_game", nil), txt, c.ID)
									}
								}
							}
						}
						after, _ := h.Record()
						require.Equal(t, rec.Version, after.Version, "an outsider's clicks changed the game")
					}

					if fc.resume != nil {
						fc.resume(t, h, shown)
					}
					steps := playToEnd(t, h, fc.seed)
					final, err := db.Get(context.Background(), fc.channel)
					require.NoError(t, err)
					assert.True(t, final.Finished)
					assert.Equal(t, dix.PhaseOver, dix.GameOf(final.State).Phase)
					t.Logf("%d clicks to the end", steps)
				})
			}
		}
	}
}
