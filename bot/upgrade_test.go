package bot

import (
	"context"
	"encoding/json"
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
	botdix "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/redistest"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
	"github.com/dixgame/dixbot/store"
)

// The frozen records of DIX's own table: games kept as that table kept
// them (its table data in Record.Meta, DIX's state in the envelope), in the
// envelope formats 1 and 2, with the messages it left in Discord.
//
//	testdata/records/<case>.table.json   the table data (Record.Meta) as stored
//	testdata/records/<case>.shown.json   the messages with components users see
//	../store/testdata/records/<case>.env1, .env2   the Redis value of the record
//	../store/testdata/records/file.db    the file store holding every case
//
// They were made once and are never made again: they stand for the
// records an upgrade finds.
const (
	frozenBotDir   = "testdata/records"
	frozenStoreDir = "../store/testdata/records"
	frozenFileDB   = "file.db"
	// frozenTTL keeps the frozen records of the file store alive whatever
	// their age: its expiry counts from the update time they carry.
	frozenTTL = 200 * 365 * 24 * time.Hour
)

// frozenNow is the time the frozen games were played at: their clocks
// count from it.
var frozenNow = time.Date(2026, 11, 23, 20, 0, 0, 0, time.UTC)

// frozenCase is one frozen record: its channel, the people by seat of its
// old table, and the clicks on the frozen messages that resume it.
type frozenCase struct {
	name    string
	channel string
	users   []string
	resume  func(t *testing.T, h *harness, shown frozenShown)
}

// frozenShown is what users see of a frozen game: the board (or lobby)
// first, then the open prompts, with their components.
type frozenShown struct {
	Due  int64       `json:"due,omitempty"`
	Msgs []frozenMsg `json:"messages"`
	Turn int         `json:"turn,omitempty"`
	Seq  uint32      `json:"seq,omitempty"`
	Case string      `json:"case"`
}

type frozenMsg struct {
	ID        string         `json:"id"`
	Ephemeral bool           `json:"ephemeral,omitempty"`
	User      string         `json:"user,omitempty"`
	Rows      [][]frozenComp `json:"rows"`
}

type frozenComp struct {
	Select  bool     `json:"select,omitempty"`
	ID      string   `json:"id"`
	Options []string `json:"options,omitempty"`
}

// message is the frozen message as the recorder holds it.
func (f frozenMsg) message(channel string) *tabletest.Message {
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
	require.NoError(t, raw.ZAdd(ctx, prefix+"active:g1", redis.Z{Score: float64(frozenNow.UnixMicro()), Member: fc.channel}).Err())
	if due != 0 {
		require.NoError(t, raw.ZAdd(ctx, prefix+"due", redis.Z{Score: float64(due), Member: fc.channel}).Err())
	}
	s, err := store.OpenRedis(ctx, store.Options{URL: srv.URL(), Prefix: prefix, Timeout: testRedisTimeout})
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

// stale is the "outdated" answer's first line.
var stale = locales.T("en", "err_stale", nil)

var frozenCases = []frozenCase{
	{
		name: "lobby", channel: "c-lobby", users: []string{"u1", "u2"},
		resume: func(t *testing.T, h *harness, shown frozenShown) {
			lobby := h.Rec.Message(shown.Msgs[0].ID)
			// The lobby's buttons apply while the lobby has not moved:
			// a join, then a computer player seated from the old menu.
			joined := h.ClickOn("u3", lobby, "dix:join:2").Shown(lobby)
			require.NotNil(t, joined)
			_, td, _, _ := h.dixNow()
			require.Len(t, td.Seats, 3)
			assert.Equal(t, "u3", td.Seats[2].User)
			// The old lobby moved on: its start button is outdated, and
			// the lobby is shown as it stands.
			res := h.ClickOn("u1", lobby, "dix:go:2")
			assert.Contains(t, res.Texts(), stale)
			lobby = res.Shown(lobby)
			require.NotNil(t, lobby)
			// An old computer menu of the current counter seats one.
			lobby = h.ClickOn("u1", lobby, "dix:addcpu:3", "normal").Shown(lobby)
			require.NotNil(t, lobby)
			_, td, _, _ = h.dixNow()
			require.Len(t, td.Seats, 4)
			assert.Equal(t, "normal", td.Seats[3].Level)
			assert.Equal(t, "Robot 4", td.Seats[3].Name)
			board := h.ClickOn("u1", lobby, h.dixMust(lobby, verbGo, "")).Shown(lobby)
			require.NotNil(t, board)
			g, _, _, _ := h.dixNow()
			require.NotNil(t, g, "the frozen lobby starts")
			assert.Len(t, g.Players, 4)
		},
	},
	{
		name: "auction", channel: "c-auction", users: []string{"u1", "u2", "u3"},
		resume: func(t *testing.T, h *harness, shown frozenShown) {
			// The frozen bid prompt still bids.
			p := shown.prompt(t)
			prompt := h.Rec.Message(p.ID)
			before, _, _, _ := h.dixNow()
			res := h.ClickOn(p.User, prompt, "dix:bidn:7:1")
			assert.Equal(t, discordgo.InteractionResponseUpdateMessage, res.Response().Type, res.Describe())
			after, _, _, _ := h.dixNow()
			assert.Greater(t, after.Seq, before.Seq, "the frozen bid was not taken")
			// Its other bids are answered, and change nothing now.
			assert.NotEmpty(t, h.ClickOn(p.User, prompt, "dix:bidn:7:2").EphemeralText())
			again, _, _, _ := h.dixNow()
			assert.Equal(t, after.Seq, again.Seq)
		},
	},
	{
		name: "solo", channel: "c-solo", users: []string{"u1"},
		resume: func(t *testing.T, h *harness, shown frozenShown) {
			// The frozen market menu shows the card's payment step, and
			// writes nothing.
			p := shown.prompt(t)
			prompt := h.Rec.Message(p.ID)
			before, err := h.Db.Get(context.Background(), h.Channel)
			require.NoError(t, err)
			res := h.ClickOn(p.User, prompt, "dix:bsel:6", "b7")
			step := res.Shown(prompt)
			require.NotNil(t, step, res.Describe())
			_, ok := dixID(step, verbStep, "p "+botdix.Pick{Target: "b7"}.Arg())
			assert.True(t, ok, "the payment step of the card chosen: %v", tabletest.ComponentIDs(step.Components))
			after, err := h.Db.Get(context.Background(), h.Channel)
			require.NoError(t, err)
			assert.Equal(t, before.Version, after.Version)
			// The payment the step proposes buys the card.
			var pay string
			for _, id := range tabletest.ComponentIDs(step.Components) {
				if cp, err := parseID(id, gameVerbs); err == nil && cp.Verb == verbMove {
					pay = id
				}
			}
			require.NotEmpty(t, pay, "no payment proposed: %v", tabletest.ComponentIDs(step.Components))
			g, _, _, _ := h.dixNow()
			h.ClickOn(p.User, step, pay)
			bought, _, _, _ := h.dixNow()
			assert.Greater(t, bought.Seq, g.Seq)
			assert.Len(t, bought.Players[0].Collection, len(g.Players[0].Collection)+1)
		},
	},
	{
		name: "clocked", channel: "c-clocked", users: []string{"u1", "u2"},
		resume: func(t *testing.T, h *harness, shown frozenShown) {
			// The frozen board's draw draws; clicked again, it is outdated
			// and the board is shown as it stands, in the shared table's
			// buttons.
			board := h.Rec.Message(shown.Msgs[0].ID)
			g, _, _, _ := h.dixNow()
			user := h.dixUsers()[g.ToAct()]
			res := h.ClickOn(user, board, "dix:draw:14")
			require.Equal(t, discordgo.InteractionResponseUpdateMessage, res.Response().Type, res.Describe())
			after, _, _, _ := h.dixNow()
			assert.Greater(t, after.Seq, g.Seq)
			res = h.ClickOn(user, board, "dix:draw:14")
			assert.Contains(t, res.Texts(), stale)
			shownNow := res.Shown(board)
			require.NotNil(t, shownNow, res.Describe())
			for _, id := range tabletest.ComponentIDs(shownNow.Components) {
				_, err := parseID(id, gameVerbs)
				assert.NoError(t, err, "an id of the old table: %s", id)
			}
		},
	},
}

// dixUsers are the people of the channel's DIX game by seat ("" for a
// computer seat).
func (h *harness) dixUsers() []string {
	_, td, _, _ := h.dixNow()
	var out []string
	for _, s := range td.Seats {
		if s.Level != "" {
			out = append(out, "")
		} else {
			out = append(out, s.User)
		}
	}
	return out
}

// Every frozen record of DIX's own table, in both envelope formats,
// through both stores, is converted when the shared table first reads it
// (and stored so by its first write), its old messages' clicks are
// answered (applied while their state stands, outdated otherwise), and it
// plays to its end on the shared table.
func TestFrozenDixRecordsPlayOnTheSharedTable(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	for _, fc := range frozenCases {
		for _, format := range []int{1, 2} {
			for _, kind := range []string{"redis", "file"} {
				t.Run(fc.name+"/format"+string(rune('0'+format))+"/"+kind, func(t *testing.T) {
					t.Parallel()
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
					ctx := context.Background()
					raw, err := db.Get(ctx, fc.channel)
					require.NoError(t, err)
					// The envelope of DIX's own table names no game, and the
					// store reads none: the table finds whose it is.
					require.Empty(t, raw.Game)
					if kind == "redis" {
						// (The file store's records are those of its own
						// run, whose interactions arrived at other instants.)
						require.JSONEq(t, string(table), string(raw.Meta))
					}

					h := newDixHarnessOn(t, db, botdix.Game(), 31, format == 2 && kind == "redis")
					h.Channel = fc.channel
					now := frozenNow
					h.b.now = func() time.Time { return now }
					h.Rec.N, h.N = 1000, 1000
					for _, f := range shown.Msgs {
						h.Rec.Msgs[f.ID] = f.message(fc.channel)
					}

					// The table reads it converted; the store keeps it as
					// it was until the table writes.
					r, err := h.b.get(ctx, fc.channel)
					require.NoError(t, err)
					assert.Equal(t, "dix", r.Game)
					td, err := decodeTableData(r.Meta)
					require.NoError(t, err)
					checkConverted(t, fc, shown, r, td)
					again, err := db.Get(ctx, fc.channel)
					require.NoError(t, err)
					assert.Equal(t, raw.Version, again.Version)
					assert.Equal(t, raw.Meta, again.Meta, "not written")

					if r.Data != nil {
						// Every id of the frozen board is answered, for
						// someone outside the game too, and changes nothing.
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
									res := h.ClickOn("u9", h.Rec.Message(f.ID), c.ID, values...)
									require.NotNil(t, res.Response(), "%s unanswered", c.ID)
									assert.NotContains(t, res.Texts(), locales.T("en", "err_bad_custom_id", nil), c.ID)
								}
							}
						}
						after, err := db.Get(ctx, fc.channel)
						require.NoError(t, err)
						require.Equal(t, raw.Version, after.Version, "an outsider's clicks changed the game")
					}

					fc.resume(t, h, shown)
					written, err := db.Get(ctx, fc.channel)
					require.NoError(t, err)
					assert.Equal(t, "dix", written.Game, "the first write stores the shared table's shape")

					d := &dixDriver{h: h, users: h.dixUsers(), rng: rand.New(rand.NewPCG(uint64(len(fc.name)), uint64(format))),
						seen: map[string]int{}, follow: true}
					d.play(2000)
					final, err := db.Get(ctx, fc.channel)
					require.NoError(t, err)
					for i := 0; !final.Finished && !final.Due.IsZero() && i < 5; i++ {
						// An archive a slow store call left owed is done
						// by the due work's next run, as the schedule does.
						assert.NoError(t, h.b.runDueOn(ctx, h.Rec, fc.channel, final.Due.Add(outboxLease)))
						final, err = db.Get(ctx, fc.channel)
						require.NoError(t, err)
					}
					assert.True(t, final.Finished)
					st, err := dix.Rules{}.Decode(final.Data)
					require.NoError(t, err)
					assert.True(t, st.Over())
				})
			}
		}
	}
}

// checkConverted checks the table data converted from a frozen record.
func checkConverted(t *testing.T, fc frozenCase, shown frozenShown, r *dixbot.Record, td *tableData) {
	t.Helper()
	assert.Equal(t, "u1", td.Creator)
	assert.Equal(t, "en", td.Lang)
	assert.Equal(t, shown.Msgs[0].ID, td.Board)
	var users []string
	for _, s := range td.Seats {
		users = append(users, s.User)
	}
	assert.Equal(t, fc.users, users)
	assert.Equal(t, "Alice", td.Seats[0].Name)
	assert.Equal(t, "ti1", td.logOrigin(), "the game's log is the old table's")
	if r.Data == nil {
		assert.Equal(t, uint32(2), td.Lobby)
		assert.Equal(t, "evening", td.Pace)
		assert.True(t, r.Due.IsZero())
		return
	}
	st, err := dix.Rules{}.Decode(r.Data)
	require.NoError(t, err)
	g := st.(dix.State).Game()
	assert.Equal(t, shown.Seq, g.Seq)
	assert.Equal(t, g.Opts.Seed, td.Seed)
	assert.NotEmpty(t, td.Log)
	seat := g.ToAct()
	require.GreaterOrEqual(t, seat, 0)
	assert.Equal(t, uint64(g.Seq), td.Open[seat], "the decision open is the one shown")
	// The decision runs on the clock from where the old table started it.
	assert.Equal(t, frozenNow.UnixMilli(), td.OpenAt[seat])
	// The board is owed at once, shown as it stands in the shared
	// table's buttons.
	assert.True(t, frozenNow.Equal(r.Due), "due %v", r.Due)
	require.Len(t, td.Outbox, 1)
	assert.Equal(t, effEdit, td.Outbox[0].Kind)
	switch fc.name {
	case "solo":
		assert.True(t, g.Solo())
		assert.Equal(t, "6", td.Opts[dix.OptDifficulty])
		assert.Equal(t, "evening", td.Pace)
	case "clocked":
		assert.Equal(t, "live", td.Pace)
		assert.Equal(t, []int64{100_000, 100_000}, td.Banks)
		game := botdix.Game()
		assert.True(t, frozenNow.Add(100*time.Second).Equal(td.deadline(&game, st, seat)), "the deadline of the person deciding")
	case "auction":
		assert.Equal(t, "off", td.Opts[dix.OptBust])
	}
}

// A frozen game whose first reader is the due work (its deadline passed
// before anyone clicked) is converted there: the computer decides for the
// person out of time, on the bank the old table's clock left, and the
// record is stored in the shared table's shape.
func TestFrozenDixRecordRunsDueOnTheSharedTable(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	fc := frozenCases[3]
	require.Equal(t, "clocked", fc.name)
	_, shown, env := loadFrozen(t, fc, 2)
	db := frozenRedis(t, srv, fc, env, shown.Due)
	h := newDixHarnessOn(t, db, botdix.Game(), 31, false)
	h.Channel = fc.channel
	h.Rec.N, h.N = 1000, 1000
	for _, f := range shown.Msgs {
		h.Rec.Msgs[f.ID] = f.message(fc.channel)
	}
	ctx := context.Background()
	early := frozenNow.Add(99 * time.Second)
	h.b.now = func() time.Time { return early }
	require.NoError(t, h.b.runDueOn(ctx, h.Rec, fc.channel, early))
	r, err := db.Get(ctx, fc.channel)
	require.NoError(t, err)
	assert.Equal(t, "dix", r.Game, "the due work stores the shared table's shape")
	st, err := dix.Rules{}.Decode(r.Data)
	require.NoError(t, err)
	assert.Equal(t, uint64(shown.Seq), st.Seq(), "no decision was out of time yet")
	assert.True(t, frozenNow.Add(100*time.Second).Equal(r.Due), "the deadline is due next: %v", r.Due)
	// The board shows the shared table's buttons.
	board := h.Rec.Message(shown.Msgs[0].ID)
	_, ok := dixID(board, verbMove, "draw")
	assert.True(t, ok, "the board is drawn again: %v", tabletest.ComponentIDs(board.Components))

	late := frozenNow.Add(101 * time.Second)
	h.b.now = func() time.Time { return late }
	require.NoError(t, h.b.runDueOn(ctx, h.Rec, fc.channel, late))
	r, err = db.Get(ctx, fc.channel)
	require.NoError(t, err)
	st, err = dix.Rules{}.Decode(r.Data)
	require.NoError(t, err)
	assert.Greater(t, st.Seq(), uint64(shown.Seq), "the decision out of time was taken")
	td, err := decodeTableData(r.Meta)
	require.NoError(t, err)
	assert.Equal(t, 1, td.Seats[1].Late, "Bob's decision was late")
}

// A game of DIX's own table archived before the upgrade stays readable:
// /dix log shows the log that table kept, and the old game's board is
// not brought back.
func TestFrozenDixRecordArchivedKeepsItsLog(t *testing.T) {
	t.Parallel()
	fc := frozenCases[1]
	require.Equal(t, "auction", fc.name)
	_, shown, env := loadFrozen(t, fc, 2)
	db := frozenFile(t, fc, env, 2)
	ctx := context.Background()
	logRec, err := db.Get(ctx, logChannel(fc.channel))
	require.NoError(t, err, "the old table kept a log")
	var kept gameLogRecord
	require.NoError(t, json.Unmarshal(logRec.Meta, &kept))
	require.Equal(t, "i1", kept.Origin)
	require.NotEmpty(t, kept.Lines)
	require.NoError(t, db.Finish(ctx, fc.channel))

	h := newDixHarnessOn(t, db, botdix.Game(), 31, false)
	h.Channel = fc.channel
	h.b.now = func() time.Time { return frozenNow }
	r, err := h.b.get(ctx, fc.channel)
	require.NoError(t, err)
	assert.True(t, r.Finished)
	assert.Equal(t, "dix", r.Game)
	text := h.Run(h.GameCommandIx("dix", "u1", "log")).EphemeralText()
	assert.Contains(t, text, kept.Lines[len(kept.Lines)-1])

	// A click on the old game's board says it was abandoned and links
	// its last board.
	td, err := decodeTableData(r.Meta)
	require.NoError(t, err)
	h.Rec.N, h.N = 1000, 1000
	clicked := 0
	for _, f := range shown.Msgs {
		if f.Ephemeral || f.ID != td.Board || len(f.Rows) == 0 {
			continue
		}
		h.Rec.Msgs[f.ID] = f.message(fc.channel)
		res := h.ClickOn("u1", h.Rec.Message(f.ID), f.Rows[0][0].ID)
		want := locales.T("en", "err_over_abandoned", map[string]any{"URL": messageURL(r.Guild, r.Channel, td.Board)})
		assert.Equal(t, want, res.EphemeralText())
		clicked++
	}
	assert.Equal(t, 1, clicked, "the old game's board was clicked")
}
