package dixtable

import (
	"context"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

// scoreboard is the final scoreboard the harness's bot posted, with its
// Rematch button (the last one posted, when several games ended).
func scoreboard(h *harness) *tabletest.Message {
	h.T.Helper()
	h.Rec.Mu.Lock()
	var best *tabletest.Message
	for id, msg := range h.Rec.Msgs {
		if _, ok := tabletest.FindID(msg, verbRematch); ok && !msg.Ephemeral && (best == nil || tabletest.MessageSeq(id) > tabletest.MessageSeq(best.ID)) {
			best = msg
		}
	}
	h.Rec.Mu.Unlock()
	if best != nil {
		return best
	}
	h.T.Fatal("no scoreboard with a Rematch button posted")
	return nil
}

// archived is the channel's record, which must be an archived game.
func archived(h *harness) (*dixbot.Record, *dixTable) {
	h.T.Helper()
	r, err := h.St.Get(context.Background(), h.Channel)
	require.NoError(h.T, err)
	require.True(h.T, r.Finished, "the game is archived")
	return r, mustDixTable(r.Meta)
}

// A rematch of a game of three people and a computer player: a lobby with
// everyone seated again, the same options, the clicker as its creator, the
// seat after the last game's first player due to start; started, the game
// starts with that seat.
func TestRematchOpensTheLobbyWithTheSameSeatsAndOptions(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	opts := []any{bot.OptVariant, bot.VariantBust, bot.OptLanguage, "fr", bot.OptPace, "live", bot.OptPictures, bot.PicsOff}
	lobby := h.Command("u1", "start", opts...).Shown(nil)
	h.ClickOn("u2", lobby, h.MustFind(lobby, verbJoin))
	h.ClickOn("u1", lobby, h.MustFind(lobby, verbAddCPU), "strong")
	h.ClickOn("u3", lobby, h.MustFind(lobby, verbJoin))
	h.ClickOn("u1", lobby, h.MustFind(lobby, verbGo))
	rec, m := h.Record()
	first := dix.GameOf(rec.State).Opts.FirstPlayer
	require.GreaterOrEqual(t, first, 0, "the rules state keeps who started")
	playToEnd(t, h, 3)
	old, om := archived(h)
	require.Equal(t, dix.PhaseOver, dix.GameOf(old.State).Phase)

	board := scoreboard(h)
	r := h.ClickOn("u2", board, h.MustFind(board, verbRematch))
	resp := r.Response()
	require.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, resp.Type)
	assert.Zero(t, resp.Data.Flags&discordgo.MessageFlagsEphemeral, "the lobby is public")
	assert.ElementsMatch(t, []string{"u1", "u3"}, resp.Data.AllowedMentions.Users, "the other people are called, once")
	assert.Equal(t, locales.T("fr", "rematch_lobby", map[string]any{"Mentions": "<@u1> <@u3>", "Creator": "Bob"}), resp.Data.Content)
	require.NotNil(t, r.Shown(nil))
	_, ok := tabletest.FindID(r.Shown(nil), verbGo)
	assert.True(t, ok, "a lobby with its Start button")

	rec, m = h.Record()
	require.Nil(t, dix.GameOf(rec.State), "a lobby, not a game yet")
	assert.Equal(t, "u2", m.Creator)
	assert.Equal(t, []seat{{ID: "u1", Name: "Alice"}, {ID: "u2", Name: "Bob"}, {CPU: "strong"}, {ID: "u3", Name: "Chloé"}}, m.Seats)
	assert.Equal(t, om.Lang, m.Lang)
	assert.Equal(t, "fr", m.Lang)
	assert.True(t, m.Bust)
	assert.Equal(t, "live", m.Pace)
	assert.True(t, m.NoPictures)
	assert.Equal(t, (first+1)%4+1, m.Starts, "the next seat starts")
	assert.NotEmpty(t, m.Board, "the lobby message is recorded")
	assert.Contains(t, r.Shown(nil).Embeds[0].Fields[1].Value, locales.T("fr", "lobby_starts", map[string]any{"Name": m.name("fr", (first+1)%4)}))

	// Bob starts it: the next seat plays first.
	lob := r.Shown(nil)
	h.ClickOn("u2", lob, h.MustFind(lob, verbGo))
	rec, m = h.Record()
	require.NotNil(t, dix.GameOf(rec.State))
	assert.Equal(t, (first+1)%4, dix.GameOf(rec.State).Opts.FirstPlayer)
	assert.True(t, dix.GameOf(rec.State).Opts.BustVariant)
	assert.Equal(t, 4, dix.GameOf(rec.State).Opts.Players)
}

// Only a person seated in the finished game may ask for its rematch; a
// second click, or one of another player, finds the new game and says
// where it is.
func TestRematchRefusals(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	startGame(h, "u1", "u2")
	playToEnd(t, h, 5)
	board := scoreboard(h)
	id := h.MustFind(board, verbRematch)

	h.Locale = discordgo.French
	assert.Equal(t, locales.T("fr", "err_rematch_not_seated", nil), h.ClickOn("u9", board, id).EphemeralText())
	archived(h) // nothing created
	h.Locale = discordgo.EnglishUS

	h.ClickOn("u1", board, id)
	_, m := h.Record()
	url := bot.MessageURL(h.Guild, h.Channel, m.Board)
	want := locales.T("en", "err_rematch_exists", map[string]any{"Name": "Alice", "URL": url})
	assert.Equal(t, want, h.ClickOn("u2", board, id).EphemeralText())
	assert.Equal(t, want, h.ClickOn("u1", board, id).EphemeralText(), "a double click opens nothing more")
	_, m2 := h.Record()
	assert.Equal(t, m.Origin, m2.Origin)
}

// Five clicks at once on the Rematch button, by both players: the store
// creates exactly one new game, and every other click is told where it is.
func TestRematchConcurrentClicksCreateOneGame(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	startGame(h, "u1", "u2")
	playToEnd(t, h, 5)
	board := scoreboard(h)
	id := h.MustFind(board, verbRematch)
	var ixs []*discordgo.Interaction
	mine := map[string]bool{}
	for _, u := range []string{"u1", "u2", "u1", "u2", "u2"} {
		ix := h.ClickIx(u, board, id)
		ixs = append(ixs, ix)
		mine[ix.ID] = true
	}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for _, ix := range ixs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			h.b.Serve(h.Rec, &discordgo.InteractionCreate{Interaction: ix}, h.Raw())
		}()
	}
	close(start)
	wg.Wait()

	_, m := h.Record()
	lobbies, refusals := 0, 0
	h.Rec.Mu.Lock()
	for _, c := range h.Rec.Calls {
		if c.Op != "respond" || !mine[c.Interaction] || c.Resp == nil || c.Resp.Data == nil {
			continue
		}
		switch {
		case c.Resp.Data.Flags&discordgo.MessageFlagsEphemeral == 0 && len(c.Resp.Data.Components) > 0:
			if c.Interaction == m.Origin {
				lobbies++
			} else {
				t.Errorf("a second lobby was answered by %s", c.Interaction)
			}
		case c.Resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0:
			assert.Contains(t, []string{
				locales.T("en", "err_rematch_opening", nil),
				locales.T("en", "err_rematch_exists", map[string]any{"Name": h.Names[m.Creator], "URL": bot.MessageURL(h.Guild, h.Channel, m.Board)}),
			}, c.Resp.Data.Content)
			refusals++
		}
	}
	h.Rec.Mu.Unlock()
	assert.Equal(t, 1, lobbies, "exactly one new game")
	assert.Equal(t, 4, refusals)
}

// Against computer players only, or ALIX, the rematch starts at once: a
// solo game with the same difficulty, its player first (SPEC §5); a game
// against a computer player with the next seat first.
func TestRematchStartsAtOnceWhenTheClickerIsTheOnlyPerson(t *testing.T) {
	t.Parallel()
	t.Run("solo", func(t *testing.T) {
		h := newHarness(t)
		h.Command("u1", "solo", bot.OptDifficulty, float64(6), bot.OptPace, "relaxed")
		playToEnd(t, h, 2)
		board := scoreboard(h)
		r := h.ClickOn("u1", board, h.MustFind(board, verbRematch))
		assert.Equal(t, locales.T("en", "rematch_started", map[string]any{"Name": "Alice"}), r.Response().Data.Content)
		rec, m := h.Record()
		require.NotNil(t, dix.GameOf(rec.State))
		assert.True(t, m.Solo)
		assert.Equal(t, 6, dix.GameOf(rec.State).Opts.Difficulty)
		assert.Equal(t, 1, dix.GameOf(rec.State).Opts.Players)
		assert.Equal(t, "relaxed", m.Pace)
		assert.Equal(t, []seat{{ID: "u1", Name: "Alice"}, {}}, m.Seats)
		assert.Equal(t, 0, dix.GameOf(rec.State).Active)
		assert.NotEmpty(t, m.Board, "the board is posted")
	})
	t.Run("against a computer player", func(t *testing.T) {
		h := newHarness(t)
		lobby := h.Command("u1", "start").Shown(nil)
		h.ClickOn("u1", lobby, h.MustFind(lobby, verbAddCPU), "easy")
		h.ClickOn("u1", lobby, h.MustFind(lobby, verbGo))
		rec, _ := h.Record()
		first := dix.GameOf(rec.State).Opts.FirstPlayer
		playToEnd(t, h, 4)
		board := scoreboard(h)
		h.ClickOn("u1", board, h.MustFind(board, verbRematch))
		rec, m := h.Record()
		require.NotNil(t, dix.GameOf(rec.State))
		assert.Equal(t, []seat{{ID: "u1", Name: "Alice"}, {CPU: "easy"}}, m.Seats[:2])
		assert.Equal(t, 1-first, dix.GameOf(rec.State).Opts.FirstPlayer, "the other seat starts")
		assert.NotEmpty(t, m.Board, "the board is posted")
	})
}

// A game over but not archived yet (its archive failed, or is being
// done): the rematch archives it and opens the next game, once.
func TestRematchOfAnUnarchivedGame(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	startGame(h, "u1", "u2")
	playToEnd(t, h, 5)
	board := scoreboard(h)
	h.St.Mu.Lock()
	st := h.St.Archived[h.Channel]
	st.Rec.Finished = false
	h.St.Live[h.Channel] = st
	delete(h.St.Archived, h.Channel)
	h.St.Mu.Unlock()

	r := h.ClickOn("u2", board, h.MustFind(board, verbRematch))
	assert.Zero(t, r.Response().Data.Flags&discordgo.MessageFlagsEphemeral, "a new lobby opens")
	rec, m := h.Record()
	assert.Nil(t, dix.GameOf(rec.State))
	assert.Equal(t, "u2", m.Creator)
	assert.Len(t, m.Seats, 2)
}

// A person who left the game is not seated again; the next seat after the
// one that started is found among those who stay.
func TestRematchSeats(t *testing.T) {
	t.Parallel()
	m := &dixTable{Seats: []seat{{ID: "a", Name: "A"}, {ID: "b", Name: "B", Gone: bot.GoneLeft}, {CPU: "easy", Gone: ""}, {ID: "c", Name: "C"}}}
	seats, first := rematchSeats(m, 0, "c", "Cé")
	assert.Equal(t, []seat{{ID: "a", Name: "A"}, {CPU: "easy"}, {ID: "c", Name: "Cé"}}, seats)
	assert.Equal(t, 1, first, "b left: the computer player after it starts")
	_, first = rematchSeats(m, 3, "c", "C")
	assert.Equal(t, 0, first, "after the last seat, the first")
	_, first = rematchSeats(m, -1, "c", "C")
	assert.Equal(t, -1, first, "unknown: drawn at random")
	seats, _ = rematchSeats(m, 0, "b", "B")
	assert.Len(t, seats, 4, "who left may come back by clicking")
}

// In a rematch lobby, the seat due to start keeps starting when another
// leaves; when it leaves, the seat after it starts.
func TestLobbyLeaveKeepsWhoStarts(t *testing.T) {
	t.Parallel()
	m := &dixTable{Seats: []seat{{ID: "a"}, {ID: "b"}, {ID: "c"}}, Starts: 3}
	m.unseat(0)
	assert.Equal(t, 2, m.Starts, "c still starts")
	m.unseat(1)
	assert.Equal(t, 1, m.Starts, "c left, the last seat: the first starts")
	m = &dixTable{Seats: []seat{{ID: "a"}, {ID: "b"}, {ID: "c"}}, Starts: 2}
	m.unseat(1)
	assert.Equal(t, 2, m.Starts, "b left: c, now second, starts")
}

// An abandoned game ends without a scoreboard, so without a Rematch
// button; its last board offers nothing to click.
func TestAbandonedGameHasNoRematch(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	startGame(h, "u1", "u2")
	board := h.Board()
	r := h.Command("u1", "abandon").Shown(nil)
	h.ClickOn("u1", r, h.MustFind(r, verbAbandonYes))
	msg := h.Rec.Message(board.ID)
	_, ok := tabletest.FindID(msg, verbRematch)
	assert.False(t, ok)
	assert.Empty(t, tabletest.ComponentIDs(msg.Components))
}
