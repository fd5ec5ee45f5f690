package dixtable

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
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

// startGame opens a lobby with users (the first is the creator), has the
// others join and starts the game.
func startGame(h *harness, users ...string) { startGameWith(h, nil, users...) }

// startGameWith is startGame with /dix start options (name, value pairs).
func startGameWith(h *harness, opts []any, users ...string) {
	h.T.Helper()
	r := h.Command(users[0], "start", opts...)
	lobby := r.Shown(nil)
	require.NotNil(h.T, lobby)
	for _, u := range users[1:] {
		r = h.ClickOn(u, lobby, h.MustFind(lobby, verbJoin))
		require.Equal(h.T, discordgo.InteractionResponseUpdateMessage, r.Response().Type)
	}
	r = h.ClickOn(users[0], lobby, h.MustFind(lobby, verbGo))
	require.Equal(h.T, discordgo.InteractionResponseUpdateMessage, r.Response().Type, "start: %+v", r.Response().Data)
	rec, _ := h.Record()
	require.NotNil(h.T, dix.GameOf(rec.State))
}

// seedGame stores a game dealt from deck (top first) with users in seats
// and posts its board, as a started lobby would.
func seedGame(h *harness, users []string, deck string, opts dix.Options) {
	h.T.Helper()
	cards, err := dix.ParseCards(deck)
	require.NoError(h.T, err)
	g, err := dix.NewWithDeck(opts, cards)
	require.NoError(h.T, err)
	m := &dixTable{Creator: users[0], Lang: locales.Or(h.Lang, "en"), Turn: 1, Bust: opts.BustVariant}
	for _, u := range users {
		m.Seats = append(m.Seats, seat{ID: u, Name: h.Names[u]})
	}
	if opts.Players == 1 {
		m.Solo, m.Diff = true, opts.Difficulty
		m.Seats = append(m.Seats, seat{})
	}
	rec := &dixbot.Record{Channel: h.Channel, Guild: h.Guild, State: g}
	m.owe(rec, bot.Effect{Kind: bot.EffBoard, Users: nextDeciders(m, g, "")})
	rec.Meta = m.Encode()
	require.NoError(h.T, h.St.Create(context.Background(), rec))
	require.NoError(h.T, runDixOutbox(h.b, context.Background(), h.Rec, rec, nil))
}

// step plays one decision of the player whose decision it is, chosen by
// rng among the game's Choices, by clicking what the bot shows. It returns
// false when the game is no longer active.
func step(h *harness, rng *rand.Rand) bool {
	h.T.Helper()
	rec, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(h.T, err)
	if rec.Finished {
		return false
	}
	g := dix.GameOf(rec.State)
	m, err := decodeDixTable(rec.Meta)
	require.NoError(h.T, err)
	h.MaxMeta = max(h.MaxMeta, len(rec.Meta))
	actor := g.ToAct()
	require.GreaterOrEqual(h.T, actor, 0, "active game with nobody to act (phase %d)", g.Phase)
	user := m.Seats[actor].ID
	require.NotEmpty(h.T, user, "ALIX asked to act")
	ch := g.Choices(actor)
	board := h.Board()
	seq := g.Seq

	has := func(k dix.ActionKind) bool { return slices.Contains(ch.Actions, k) }
	click := func(msg *tabletest.Message, verb string, values ...string) result {
		return h.ClickOn(user, msg, h.MustFind(msg, verb), values...)
	}
	var r result
	switch g.Phase {
	case dix.PhaseDraw:
		if has(dix.ActStop) && (!has(dix.ActDraw) || rng.IntN(10) < 4) {
			r = click(board, verbStop)
		} else {
			r = click(board, verbDraw)
		}
	case dix.PhaseChoose:
		if rng.IntN(10) < 7 {
			r = click(board, verbNumbers)
		} else {
			r = click(board, verbMoney)
		}
	case dix.PhaseBustChoice:
		if rng.IntN(2) == 0 {
			r = click(board, verbConsol)
		} else {
			r = click(board, verbBustBuy)
		}
	case dix.PhaseBuy, dix.PhaseFinalBuy:
		if has(dix.ActBuy) && len(ch.Buyable) > 0 && rng.IntN(2) == 0 {
			r = buyByClicks(h, user, board, ch.Buyable[rng.IntN(len(ch.Buyable))])
		} else {
			r = click(board, verbEndTurn)
		}
	case dix.PhaseAuction:
		if has(dix.ActBid) && rng.IntN(2) == 0 {
			prompt := click(board, verbBid).Shown(board)
			require.True(h.T, prompt.Ephemeral)
			ids := tabletest.FindIDs(prompt, verbBidAmount)
			require.NotEmpty(h.T, ids)
			r = h.ClickOn(user, prompt, ids[rng.IntN(len(ids))])
		} else {
			r = click(board, verbPass)
		}
	case dix.PhaseAuctionPay:
		prompt := click(board, verbPay).Shown(board)
		require.True(h.T, prompt.Ephemeral)
		r = click(prompt, verbAuctPay)
	default:
		h.T.Fatalf("unexpected phase %d", g.Phase)
	}
	resp := r.Response()
	if resp.Type == discordgo.InteractionResponseChannelMessageWithSource && resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0 {
		h.T.Fatalf("phase %d: the click was refused: %q", g.Phase, resp.Data.Content)
	}
	after, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(h.T, err)
	if dix.GameOf(after.State) != nil && dix.GameOf(after.State).Seq == seq {
		// A store too slow for the answer's budget on a loaded machine
		// says so, deferred; the player clicks again.
		txt := r.Texts()
		if (strings.Contains(txt, enT("err_conflict", nil)) || strings.Contains(txt, enT("err_store_unavailable", nil))) && h.Reclicks < 5 {
			h.Reclicks++
			h.T.Logf("phase %d: %q; clicked again", g.Phase, txt)
			return step(h, rng)
		}
		h.T.Fatalf("phase %d: the click changed nothing; its answer: %v", g.Phase, r.Describe())
	}
	return true
}

// buyByClicks buys card through the market prompt and the proposed payment.
func buyByClicks(h *harness, user string, board *tabletest.Message, card dix.Card) result {
	h.T.Helper()
	prompt := h.ClickOn(user, board, h.MustFind(board, verbBuy)).Shown(board)
	require.True(h.T, prompt.Ephemeral)
	var sel string
	for _, id := range tabletest.FindIDs(prompt, verbBuySelect) {
		if slices.Contains(tabletest.SelectOptions(prompt, id), card.String()) {
			sel = id
		}
	}
	require.NotEmpty(h.T, sel, "card %s not offered", card)
	pay := h.ClickOn(user, prompt, sel, card.String()).Shown(prompt)
	return h.ClickOn(user, pay, h.MustFind(pay, verbBuyPay))
}

func playToEnd(t *testing.T, h *harness, seed uint64) int {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed))
	steps := 0
	for step(h, rng) {
		steps++
		require.Less(t, steps, 5000, "the game does not end")
	}
	return steps
}

func TestFullGameByClicks(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		users []string
		seed  uint64
		opts  []any
		// text: boards without pictures (drawing them is most of what a
		// click costs here; the largest and the French boards draw them).
		text bool
	}{
		{"two players", []string{"u1", "u2"}, 1, nil, true},
		{"three players", []string{"u1", "u2", "u3"}, 2, nil, true},
		{"five players", []string{"u1", "u2", "u3", "u4", "u5"}, 3, nil, false},
		{"bust variant in French", []string{"u1", "u2", "u3"}, 4, []any{bot.OptVariant, bot.VariantBust, bot.OptLanguage, "fr"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			h.b.NoPictures = tc.text
			startGameWith(h, tc.opts, tc.users...)
			_, m := h.Record()
			lang := m.Lang
			steps := playToEnd(t, h, tc.seed)
			assert.Greater(t, steps, 20)
			final, err := h.St.Get(context.Background(), h.Channel)
			require.NoError(t, err)
			t.Logf("%d clicks, %d turns, largest table data %d bytes", steps, mustDixTable(final.Meta).Turn, h.MaxMeta)
			assert.Less(t, h.MaxMeta, 4096, "table data stays compact")

			// The game is archived and the scoreboard was posted.
			rec, err := h.St.Get(context.Background(), h.Channel)
			require.NoError(t, err)
			assert.True(t, rec.Finished)
			assert.Equal(t, dix.PhaseOver, dix.GameOf(rec.State).Phase)
			last := h.Rec.Calls[len(h.Rec.Calls)-1]
			require.True(t, last.Posted(), last.Op)
			require.Len(t, last.Send.Embeds, 1)
			assert.Equal(t, locales.T(lang, "dix_score_title", nil), last.Send.Embeds[0].Title)
			assert.Len(t, last.Send.Embeds[0].Fields, len(tc.users))
			assert.Contains(t, last.Send.Embeds[0].Description, "🏆")

			// Every message the bot produced respects Discord's limits, shows
			// no missing string, and pings only the user it means to.
			tabletest.CheckAllCalls(t, h.Rec.Calls)

			// Every turn got a fresh board that pinged its player (but the
			// clicker), and every old board lost its buttons.
			boards := 0
			for _, c := range h.Rec.Calls {
				if c.Posted() && len(c.Send.Components) > 0 {
					boards++
				}
			}
			assert.GreaterOrEqual(t, boards, mustDixTable(rec.Meta).Turn, "a fresh board per turn")
			live := 0
			for _, msg := range h.Rec.Msgs {
				if !msg.Ephemeral && len(tabletest.ComponentIDs(msg.Components)) > 0 {
					if _, ok := tabletest.FindID(msg, verbRematch); ok && len(tabletest.ComponentIDs(msg.Components)) == 1 {
						continue // the final scoreboard's Rematch
					}
					live++
				}
			}
			assert.Zero(t, live, "no public message but the scoreboard keeps buttons once the game is over")

			// The channel is free for a new game.
			r := h.Command("u1", "start")
			assert.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, r.Response().Type)
			assert.Zero(t, r.Response().Data.Flags&discordgo.MessageFlagsEphemeral)
		})
	}
}

func TestSoloGameByClicks(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	r := h.Command("u1", "solo", bot.OptDifficulty, float64(6))
	assert.Contains(t, r.Response().Data.Content, "ALIX")
	rec, m := h.Record()
	require.NotNil(t, dix.GameOf(rec.State))
	assert.True(t, m.Solo)
	assert.Equal(t, 6, m.Diff)
	assert.Equal(t, 1, dix.GameOf(rec.State).Opts.Players)
	assert.Contains(t, h.Board().Embeds[0].Footer.Text, "difficulty\u00a06", "the number never stands alone on a line")

	playToEnd(t, h, 11)
	tabletest.CheckAllCalls(t, h.Rec.Calls)

	// ALIX's turns were shown: some board or summary mentions her drawing.
	found := false
	for _, c := range h.Rec.Calls {
		for _, e := range embedsOf(c) {
			if strings.Contains(e.Description, locales.T("en", "dix_alix_name", nil)+" draws") {
				found = true
			}
		}
	}
	assert.True(t, found, "ALIX's draws never shown")
	// The board of the final buy round becomes a summary titled as such.
	final := false
	for _, c := range h.Rec.Calls {
		for _, e := range embedsOf(c) {
			final = final || e.Title == locales.T("en", "dix_summary_title_final", nil)
		}
	}
	assert.True(t, final, "no summary of the final buy round")
	rec, err := h.St.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	assert.True(t, rec.Finished)
}

func embedsOf(c tabletest.Call) []*discordgo.MessageEmbed {
	switch {
	case c.Resp != nil && c.Resp.Data != nil:
		return c.Resp.Data.Embeds
	case c.Send != nil:
		return c.Send.Embeds
	case c.Edit != nil && c.Edit.Embeds != nil:
		return *c.Edit.Embeds
	case c.Params != nil:
		return c.Params.Embeds
	}
	return nil
}
