package bot

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	botqwixx "github.com/dixgame/dixbot/bot/qwixx"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

// The table's answers to what goes wrong, the same for every game: shown
// here on Qwixx.

// unchanged checks that the channel's record is still the one snapshot
// was taken of.
func unchanged(h *harness, before tabletest.Stored) {
	h.T.Helper()
	now, ok := h.St.Snapshot(h.Channel)
	require.True(h.T, ok)
	assert.Equal(h.T, before, now, "the game changed")
}

func snapshot(h *harness) tabletest.Stored {
	h.T.Helper()
	s, ok := h.St.Snapshot(h.Channel)
	require.True(h.T, ok)
	return s
}

// A full lobby refuses one more person; only its creator cancels it, which
// frees the channel.
func TestLobbyFullAndCancel(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	lobby := h.qcommand("u1", "start").Shown(nil)
	for _, u := range []string{"u2", "u3", "u4", "u5"} {
		lobby = h.ClickOn(u, lobby, h.qmust(lobby, verbJoin, "")).Shown(lobby)
	}
	assert.Equal(t, locales.T("en", "err_lobby_full", nil), h.ClickOn("u9", lobby, h.qmust(lobby, verbJoin, "")).EphemeralText())
	assert.Equal(t, locales.T("en", "err_not_creator", nil), h.ClickOn("u2", lobby, h.qmust(lobby, verbCancel, "")).EphemeralText())
	r := h.ClickOn("u1", lobby, h.qmust(lobby, verbCancel, ""))
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type)
	rec, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	assert.True(t, rec.Finished, "the lobby is archived")
	assert.NotNil(t, h.qcommand("u2", "start").Shown(nil), "the channel is free")
}

// A person who is not seated is told so privately and changes nothing; a
// button of the board as it stood before is outdated: the board is shown
// as it stands and the clicker told that nothing changed.
func TestWrongUserOutsiderStale(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	board := h.openQwixx([]string{"u1", "u2"})
	g, _, _ := h.qstate()
	active := []string{"u1", "u2"}[g.Active]
	prompt := h.qmust(board, verbPrompt, "")
	before := snapshot(h)
	assert.Equal(t, locales.T("en", "table_err_not_seated", nil), h.ClickOn("u9", board, prompt).EphemeralText())
	unchanged(h, before)

	var pass string
	for _, id := range tabletest.ComponentIDs(board.Components) {
		if p, err := parseID(id, gameVerbs); err == nil && p.Verb == verbMove && p.Arg == "w -" {
			pass = id
			break
		}
	}
	require.NotEmpty(t, pass, "a pass button among %v", tabletest.ComponentIDs(board.Components))
	// Both pass the white sum: the active player's colour decision opens.
	h.ClickOn("u1", board, pass)
	h.ClickOn("u2", board, pass)
	g2, _, _ := h.qstate()
	require.True(t, g2.Deciding(g.Active) && g2.Seq > g.Seq, "the colour decision is open")
	before = snapshot(h)
	// The board clicked is the board, and this process drew it as the
	// game stands: the clicker is told privately that nothing changed,
	// and that is the whole answer.
	res := h.ClickOn(active, board, pass)
	assert.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, res.Response().Type)
	assert.Equal(t, locales.T("en", "err_stale", nil), res.EphemeralText())
	unchanged(h, before)
}

// Custom ids no component of the table carries are refused as such and
// change nothing.
func TestForgedCustomIDs(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	board := h.openQwixx([]string{"u1", "u2"})
	before := snapshot(h)
	for _, id := range []string{
		"", "garbage", "qwixx", "qwixx:mv", "qwixx:mv:abc", "qwixx:mv:-1", "qwixx:nope:0", "xx:mv:0",
		"qwixx:kick:0:lots", "qwixx:mv:99999999999999999999999", strings.Repeat("qwixx:", 40),
		"table:set:1:lang", "table:set:0", "table:fgyes:0:x", "table:nope:0", "dix:set:1:lang", "qwixx:set:0:lang",
		"qwixx:join:00", "qwixx:join:0:x", "qwixx:mv:1:", "table:mv:1:x",
	} {
		t.Run(id, func(t *testing.T) {
			assert.Equal(t, locales.T("en", "err_bad_custom_id", nil), h.ClickOn("u1", board, id).EphemeralText())
		})
	}
	unchanged(h, before)
}

// The one parser reads back every id its builder makes, for the verbs
// of the table and of the games alike, and nothing else.
func TestParseIDReadsWhatCustomIDBuilds(t *testing.T) {
	t.Parallel()
	for prefix, verbs := range map[string]map[string]idVerb{tablePrefix: tableVerbs, "qwixx": gameVerbs} {
		for verb, v := range verbs {
			var n uint64
			if v.run == nil {
				n = 17
			}
			arg := ""
			if v.arg {
				arg = "a:b c"
			}
			id := buttonID(prefix, verb, n, arg)
			p, err := parseID(id, verbs)
			require.NoError(t, err, id)
			assert.Equal(t, parsedID{Prefix: prefix, Verb: verb, n: n, Arg: arg}, p, id)
			if v.arg {
				_, err = parseID(buttonID(prefix, verb, n, ""), verbs)
			} else {
				_, err = parseID(buttonID(prefix, verb, n, "x"), verbs)
			}
			assert.ErrorIs(t, err, ErrBadCustomID, "%s with the argument's presence turned", id)
		}
	}
}

// A store that stays down past the answer's budget is told, in the
// clicker's language, for a click, a command and a start alike.
func TestStoreUnavailable(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	board := h.openQwixx([]string{"u1", "u2"})
	before := snapshot(h)
	h.b.workBudget = 300 * time.Millisecond // the store stays down longer: tried again, then told
	h.St.SetFail(dixbot.ErrUnavailable)
	for _, lc := range []discordgo.Locale{discordgo.EnglishUS, discordgo.French} {
		h.Locale = lc
		lang := locales.For(string(lc))
		want := locales.T(lang, "err_store_unavailable", nil)
		assert.Equal(t, want, h.ClickOn("u1", board, h.qmust(board, verbPrompt, "")).EphemeralText())
		assert.Equal(t, want, h.qcommand("u1", "hint").EphemeralText())
		assert.Equal(t, want, h.qcommand("u3", "start").EphemeralText())
	}
	h.St.SetFail(nil)
	unchanged(h, before)
	assert.Equal(t, 6, h.Obs.Outcomes["button/error"]+h.Obs.Outcomes["command/error"])
	assert.Positive(t, h.Obs.Store["get"])
}

// slowStore blocks every update until its context ends.
type slowStore struct{ *tabletest.MemStore }

func (s slowStore) Update(ctx context.Context, channel, id string, fn func(*dixbot.Record) error) (*dixbot.Record, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// A store call that runs out of its time is an unreachable store.
func TestStoreTimeout(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	board := h.openQwixx([]string{"u1", "u2"})
	b, err := New(Options{Store: slowStore{h.St}, StoreTimeout: 50 * time.Millisecond, Games: []present.Game{botqwixx.Game()}})
	require.NoError(t, err)
	b.workBudget = 300 * time.Millisecond
	h.b = b
	g, _, _ := h.qstate()
	before := snapshot(h)
	var move string
	for _, id := range tabletest.ComponentIDs(board.Components) {
		if p, err := parseID(id, gameVerbs); err == nil && p.Verb == verbMove {
			move = id
			break
		}
	}
	require.NotEmpty(t, move)
	assert.Equal(t, locales.T("en", "err_store_unavailable", nil), h.ClickOn([]string{"u1", "u2"}[g.Active], board, move).EphemeralText())
	unchanged(h, before)
}

// panicStore panics on Get.
type panicStore struct{ *tabletest.MemStore }

func (s panicStore) Get(ctx context.Context, channel string) (*dixbot.Record, error) { panic("boom") }

// A panic while answering is answered, and counted.
func TestPanicIsAnswered(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	b, err := New(Options{Store: panicStore{h.St}, Observer: h.Obs, Games: []present.Game{botqwixx.Game()}})
	require.NoError(t, err)
	h.b = b
	assert.Equal(t, locales.T("en", "err_internal", nil), h.qcommand("u1", "board").EphemeralText())
	assert.Equal(t, 1, h.Obs.Outcomes["command/panic"])
}

// A bot that is stopping turns new interactions away, in their language,
// and does nothing for them.
func TestCloseAnswersRestarting(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	require.NoError(t, h.b.Close(context.Background()))
	h.Locale = discordgo.French
	assert.Equal(t, locales.T("fr", "err_restarting", nil), h.qcommand("u1", "start").EphemeralText())
	_, err := h.Db.Get(context.Background(), h.Channel)
	assert.ErrorIs(t, err, dixbot.ErrNotFound, "nothing was created")
}

// blockingStore blocks every Get until release is closed, telling entered
// of each.
type blockingStore struct {
	*tabletest.MemStore
	entered chan struct{}
	release chan struct{}
}

func (s blockingStore) Get(ctx context.Context, channel string) (*dixbot.Record, error) {
	select {
	case s.entered <- struct{}{}:
	default:
	}
	<-s.release
	return s.MemStore.Get(ctx, channel)
}

// Close waits for the interactions in flight.
func TestCloseWaitsForInFlight(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	entered, release := make(chan struct{}, 1), make(chan struct{})
	h.b.store = blockingStore{h.St, entered, release}
	done := make(chan struct{})
	go func() {
		h.qcommand("u1", "board")
		close(done)
	}()
	<-entered // the command is in flight
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	assert.ErrorIs(t, h.b.Close(ctx), context.DeadlineExceeded, "close returned while a command was in flight")
	close(release)
	<-done
	require.NoError(t, h.b.Close(context.Background()))
}

// Errors are said in the user's language, or the bot's default for a
// language it does not speak.
func TestErrorsAreLocalised(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	h.Locale = discordgo.French
	noGame := func(lang string) string {
		return locales.T(lang, "table_err_no_game", map[string]any{"Command": "/qwixx"})
	}
	assert.Equal(t, noGame("fr"), h.qcommand("u1", "hint").EphemeralText())
	assert.Equal(t, noGame("fr"), h.qcommand("u1", "board").EphemeralText())
	h.Locale = discordgo.German // neither: the default language
	assert.Equal(t, noGame("en"), h.qcommand("u1", "abandon").EphemeralText())
}

// Every error the table knows has its words in every language; one it does
// not know is an internal error, logged.
func TestEveryErrorHasAMessage(t *testing.T) {
	t.Parallel()
	for _, e := range allErrorKeys {
		for _, lang := range locales.Languages {
			assert.True(t, locales.Has(lang, e.Key), "%v: %s has no %s message", e.Err, e.Key, lang)
		}
	}
	key, _, outcome, unexpected := classify(errors.New("surprise"))
	assert.Equal(t, "err_internal", key)
	assert.Equal(t, outcomeError, outcome)
	assert.True(t, unexpected)
	key, _, outcome, unexpected = classify(Refuse(ErrBadInput, "err_bad_number", map[string]any{"Text": "x"}))
	assert.Equal(t, "err_bad_number", key)
	assert.Equal(t, outcomeRefused, outcome)
	assert.False(t, unexpected)
}

// A record whose table data does not read (damaged, or written by a newer
// version) is told as such to a command and to clicks, and left as it is.
func TestUnreadableTableData(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		meta string
		key  string
	}{
		{"corrupt", "{not json", "err_corrupt"},
		{"empty", "", "err_corrupt"},
		{"newer", `{"v":99}`, "err_schema_too_new"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newQwixxHarness(t, false)
			require.NoError(t, h.St.Create(context.Background(), &dixbot.Record{Channel: h.Channel, Game: "qwixx", Meta: []byte(tc.meta)}))
			before := snapshot(h)
			assert.Equal(t, locales.T("en", tc.key, nil), h.qcommand("u1", "hint").EphemeralText())
			assert.Equal(t, locales.T("en", tc.key, nil), h.ClickOn("u1", nil, buttonID("qwixx", verbPrompt, 0, "")).EphemeralText())
			assert.Equal(t, locales.T("en", tc.key, nil), h.ClickOn("u1", nil, buttonID("qwixx", verbJoin, 1, "")).EphemeralText())
			unchanged(h, before)
		})
	}
}
