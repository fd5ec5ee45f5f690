package dixtable

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
	dixview "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

func enT(key string, data map[string]any) string { return locales.T("en", key, data) }

// unchanged asserts that the channel's stored record is byte for byte what
// it was.
func unchanged(h *harness, before tabletest.Stored) {
	h.T.Helper()
	after, ok := h.St.Snapshot(h.Channel)
	require.True(h.T, ok)
	assert.Equal(h.T, before.Rec.Version, after.Rec.Version, "version changed")
	assert.Equal(h.T, before.State, after.State, "state changed")
	assert.Equal(h.T, string(before.Rec.Meta), string(after.Rec.Meta), "table data changed")
}

func snap(h *harness) tabletest.Stored {
	h.T.Helper()
	s, ok := h.St.Snapshot(h.Channel)
	require.True(h.T, ok)
	return s
}

func TestLobby(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	r := h.Command("u1", "start", bot.OptVariant, bot.VariantBust, bot.OptLanguage, "fr")
	resp := r.Response()
	require.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, resp.Type)
	assert.Zero(t, resp.Data.Flags&discordgo.MessageFlagsEphemeral, "the lobby is public")
	assert.Equal(t, locales.T("fr", "lobby_title_open", nil), resp.Data.Embeds[0].Title, "the game's language is the option")
	lobby := r.Shown(nil)
	_, m := h.Record()
	assert.Equal(t, lobby.ID, m.Board, "the lobby message is remembered")
	assert.True(t, m.Bust)

	// Join, join twice, leave, creator leaves.
	r = h.ClickOn("u2", lobby, h.MustFind(lobby, verbJoin))
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type)
	assert.Contains(t, lobby.Embeds[0].Fields[0].Value, "Bob")
	assert.Contains(t, h.ClickOn("u2", lobby, h.MustFind(lobby, verbJoin)).EphemeralText(), enT("err_already_joined", nil))
	r = h.ClickOn("u3", lobby, h.MustFind(lobby, verbJoin))
	r = h.ClickOn("u3", lobby, h.MustFind(lobby, verbLeave))
	assert.NotContains(t, lobby.Embeds[0].Fields[0].Value, "Chloé")
	assert.Contains(t, h.ClickOn("u3", lobby, h.MustFind(lobby, verbLeave)).EphemeralText(), enT("err_not_joined", nil))
	assert.Contains(t, h.ClickOn("u1", lobby, h.MustFind(lobby, verbLeave)).EphemeralText(), enT("err_creator_leave", nil))

	// Only the creator starts.
	before := snap(h)
	assert.Contains(t, h.ClickOn("u2", lobby, h.MustFind(lobby, verbGo)).EphemeralText(), enT("err_not_creator", nil))
	unchanged(h, before)

	// An old lobby button (before the last join) is outdated.
	old := bot.CustomID(verbJoin, 1)
	assert.Contains(t, h.ClickOn("u4", lobby, old).EphemeralText(), enT("err_stale", nil))

	// One game per channel: a second start points to the lobby.
	txt := h.Command("u4", "start").EphemeralText()
	assert.Contains(t, txt, "https://discord.com/channels/g1/c1/"+lobby.ID)

	r = h.ClickOn("u1", lobby, h.MustFind(lobby, verbGo))
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type)
	assert.Empty(t, lobby.Components, "the started lobby has no buttons")
	rec, m := h.Record()
	require.NotNil(t, dix.GameOf(rec.State))
	assert.Equal(t, 2, len(dix.GameOf(rec.State).Players))
	assert.True(t, dix.GameOf(rec.State).Opts.BustVariant)
	board := h.Board()
	assert.NotEqual(t, lobby.ID, board.ID)
	assert.Equal(t, locales.T("fr", "dix_board_title", map[string]any{"Turn": 1, "Name": m.name("fr", dix.GameOf(rec.State).Active)}), board.Embeds[0].Title)
	if first := m.Seats[dix.GameOf(rec.State).ToAct()].ID; first != "u1" {
		assert.Equal(t, "<@"+first+">", board.Content, "the first player is pinged")
		assert.Equal(t, []string{first}, board.Mentions.Users)
	}
	tabletest.CheckAllCalls(t, h.Rec.Calls)
}

func TestLobbyFullAndCancel(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	lobby := h.Command("u1", "start").Shown(nil)
	for _, u := range []string{"u2", "u3", "u4", "u5"} {
		h.ClickOn(u, lobby, h.MustFind(lobby, verbJoin))
	}
	assert.Contains(t, h.ClickOn("u9", lobby, h.MustFind(lobby, verbJoin)).EphemeralText(), enT("err_lobby_full", nil))
	assert.Contains(t, h.ClickOn("u2", lobby, h.MustFind(lobby, verbCancel)).EphemeralText(), enT("err_not_creator", nil))
	r := h.ClickOn("u1", lobby, h.MustFind(lobby, verbCancel))
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type)
	_, err := h.St.Get(context.Background(), h.Channel)
	assert.ErrorIs(t, err, dixbot.ErrNotFound)
}

func TestStartAlone(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	lobby := h.Command("u1", "start").Shown(nil)
	txt := h.ClickOn("u1", lobby, h.MustFind(lobby, verbGo)).EphemeralText()
	assert.Equal(t, enT("err_too_few", map[string]any{"Min": 2}), txt)
}

// auctionDeck starts with a wild so the first draw opens an auction.
const auctionDeck = "** g3 g5 b2 $2 o4 p1 b7 g1 o2 p3 b4 $1 g6 o5 p6 b9 g2"

func TestWrongUserOutsiderStale(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2", "u3"}, auctionDeck, dix.Options{Players: 3, FirstPlayer: 0})
	board := h.Board()
	draw := h.MustFind(board, verbDraw)

	before := snap(h)
	assert.Equal(t, enT("err_not_your_turn", map[string]any{"Name": "Alice"}), h.ClickOn("u2", board, draw).EphemeralText())
	assert.Equal(t, enT("err_not_in_game", nil), h.ClickOn("u9", board, draw).EphemeralText())
	unchanged(h, before)

	// Alice draws the super wild: an auction starts with Bob to bid.
	r := h.ClickOn("u1", board, draw)
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type)
	rec, _ := h.Record()
	require.Equal(t, dix.PhaseAuction, dix.GameOf(rec.State).Phase)
	require.Equal(t, 1, dix.GameOf(rec.State).ToAct())
	// Bob and Chloé, who will bid, are pinged once by one message; Alice,
	// who drew the wild, is not.
	sends := r.Sends()
	require.Len(t, sends, 1)
	assert.True(t, strings.HasPrefix(sends[0].Content, "<@u2> <@u3>"))
	assert.Equal(t, []string{"u2", "u3"}, sends[0].AllowedMentions.Users)

	// The old Draw button is outdated now, for anyone.
	before = snap(h)
	txt := h.ClickOn("u1", board, draw).EphemeralText()
	assert.Contains(t, txt, enT("err_stale", nil))
	assert.Contains(t, txt, "https://discord.com/channels/g1/c1/"+board.ID, "a way back to the board")
	unchanged(h, before)
	tabletest.CheckAllCalls(t, h.Rec.Calls)
}

func TestDoubleClickSameInteraction(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, auctionDeck, dix.Options{Players: 2, FirstPlayer: 0})
	board := h.Board()
	i := h.Base("u1", discordgo.InteractionMessageComponent)
	i.Data = discordgo.MessageComponentInteractionData{CustomID: h.MustFind(board, verbDraw), ComponentType: discordgo.ButtonComponent}
	i.Message = &discordgo.Message{ID: board.ID, ChannelID: h.Channel}
	h.Run(i)
	rec, _ := h.Record()
	seq := dix.GameOf(rec.State).Seq
	before := snap(h)
	r := h.Run(i) // Discord delivers the same interaction again
	// Its first delivery answered it: a second initial answer would be
	// refused by Discord (already acknowledged), so nothing is sent; the
	// bot only reads whether it was answered.
	for _, c := range r.Calls {
		assert.Equal(t, "original", c.Op, "a redelivered interaction gets no second answer")
	}
	unchanged(h, before)
	rec, _ = h.Record()
	assert.Equal(t, seq, dix.GameOf(rec.State).Seq)
	assert.Equal(t, 1, h.Obs.Outcomes["button/duplicate"])
}

// TestRedeliveredUnansweredClickIsAnswered: the first delivery of a click
// was applied but its answer never reached Discord (the process died
// between the two). The same interaction delivered again is answered as the
// first would have been: the board clicked on shows the game as it stands,
// with its current buttons; the game does not change twice. A click on a
// private prompt gets its prompt replaced by "Done.".
func TestRedeliveredUnansweredClickIsAnswered(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, quickTurnDeck, dix.Options{Players: 2, FirstPlayer: 0})
	board := h.Board()
	i := h.ClickIx("u1", board, h.MustFind(board, verbDraw))
	h.Rec.Mu.Lock()
	h.Rec.Refuse = func(c tabletest.Call) error {
		if c.Op == "respond" {
			return errors.New("connection reset")
		}
		return nil
	}
	h.Rec.Mu.Unlock()
	h.Run(i)
	h.Rec.Mu.Lock()
	h.Rec.Refuse = nil
	h.Rec.Mu.Unlock()
	rec, m := h.Record()
	seq := dix.GameOf(rec.State).Seq

	r := h.Run(i)
	resp := r.Response()
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, resp.Type, "the board clicked on is updated")
	v, ok := shownVersion(&discordgo.Message{Components: resp.Data.Components})
	require.True(t, ok, "with game buttons")
	assert.Equal(t, m.version(dix.GameOf(rec.State)), v, "for the game as it stands")
	rec, _ = h.Record()
	assert.Equal(t, seq, dix.GameOf(rec.State).Seq, "applied once")
	assert.Equal(t, 1, h.Obs.Outcomes["button/duplicate"])

	// A click on a private prompt (bid), answer lost, delivered again.
	_, m = h.Record()
	prompt := &tabletest.Message{ID: "p1", Channel: h.Channel, Ephemeral: true,
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: "x", CustomID: "dix:x:0"}}}}}
	i = h.ClickIx("u1", prompt, bot.CustomID(verbStop, m.version(dix.GameOf(rec.State))))
	h.Rec.Mu.Lock()
	h.Rec.Refuse = func(c tabletest.Call) error {
		if c.Op == "respond" {
			return errors.New("connection reset")
		}
		return nil
	}
	h.Rec.Mu.Unlock()
	h.Run(i)
	h.Rec.Mu.Lock()
	h.Rec.Refuse = nil
	h.Rec.Mu.Unlock()
	after, _ := h.Record()
	require.Greater(t, dix.GameOf(after.State).Seq, seq, "the stop was applied")
	r = h.Run(i)
	resp = r.Response()
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, resp.Type)
	assert.Equal(t, enT("done_generic", nil), resp.Data.Content)
	assert.Empty(t, resp.Data.Components)
}

func TestForgedCustomIDs(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, auctionDeck, dix.Options{Players: 2, FirstPlayer: 0})
	board := h.Board()
	before := snap(h)
	for _, id := range []string{
		"", "garbage", "dix", "dix:draw", "dix:draw:abc", "dix:draw:-1", "dix:nope:0", "xx:draw:0",
		"dix:draw:0:1:2", "dix:bidn:0:lots", "dix:bidm:0", "dix:draw:99999999999", strings.Repeat("dix:", 40),
	} {
		t.Run(id, func(t *testing.T) {
			txt := h.ClickOn("u1", board, id).EphemeralText()
			assert.Equal(t, enT("err_bad_custom_id", nil), txt)
		})
	}
	unchanged(h, before)
	// A forged card in a buy select is refused too.
	assert.Equal(t, enT("dix_err_bad_card", nil), h.ClickOn("u1", board, bot.CustomID(verbBuySelect, 0), "zz").EphemeralText())
	unchanged(h, before)
}

// toAuction starts a 2-player game whose first draw is the super wild, so
// that Bob (seat 1) must bid.
func toAuction(t *testing.T, h *harness) (board *tabletest.Message, prompt *tabletest.Message) {
	t.Helper()
	seedGame(h, []string{"u1", "u2"}, auctionDeck, dix.Options{Players: 2, FirstPlayer: 0})
	board = h.Board()
	h.ClickOn("u1", board, h.MustFind(board, verbDraw))
	prompt = h.ClickOn("u2", board, h.MustFind(board, verbBid)).Shown(board)
	require.True(t, prompt.Ephemeral)
	return board, prompt
}

func TestBidPromptAndModal(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	board, prompt := toAuction(t, h)
	rec, _ := h.Record()
	ch := dix.GameOf(rec.State).Choices(1)
	require.Equal(t, 1, ch.MinBid)

	// The quick amounts: minimum, steps, maximum.
	ids := tabletest.FindIDs(prompt, verbBidAmount)
	require.NotEmpty(t, ids)
	first, _ := bot.ParseID(ids[0])
	last, _ := bot.ParseID(ids[len(ids)-1])
	assert.Equal(t, bot.Itoa(ch.MinBid), first.Arg)
	assert.Equal(t, bot.Itoa(ch.MaxBid), last.Arg)

	before := snap(h)
	// Out of range (a forged amount above the capacity).
	over := bot.CustomID(verbBidAmount, snapSeq(h), bot.Itoa(ch.MaxBid+1))
	// A refusal redraws the prompt with it on top (item 8): refusals do
	// not pile up as messages, and a second one replaces the first.
	promptText := prompt.Content
	for range 2 {
		r := h.ClickOn("u2", prompt, over)
		assert.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type)
		assert.Equal(t, "⚠️ "+enT("dix_err_bid_range", map[string]any{"Min": ch.MinBid, "Max": ch.MaxBid})+"\n"+promptText, prompt.Content)
		assert.NotEmpty(t, tabletest.FindIDs(prompt, verbBidAmount), "the prompt keeps its buttons")
	}
	// The custom amount opens a modal; garbage in it is refused.
	r := h.ClickOn("u2", prompt, h.MustFind(prompt, verbBidCustom))
	require.Equal(t, discordgo.InteractionResponseModal, r.Response().Type)
	modalID := r.Response().Data.CustomID
	for _, bad := range []string{"abc", "-3", "1e9", "", "7.5"} {
		txt := h.Submit("u2", prompt, modalID, map[string]string{fieldAmount: bad}).EphemeralText()
		assert.Contains(t, txt, "Nothing changed", "input %q", bad)
	}
	txt := h.Submit("u2", prompt, modalID, map[string]string{fieldAmount: bot.Itoa(ch.MaxBid + 5)}).EphemeralText()
	assert.Equal(t, enT("dix_err_bid_range", map[string]any{"Min": ch.MinBid, "Max": ch.MaxBid}), txt)
	unchanged(h, before)

	// A good amount: the prompt is replaced by a confirmation, the board is edited.
	r = h.Submit("u2", prompt, modalID, map[string]string{fieldAmount: " 3 "})
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type)
	assert.Equal(t, enT("dix_done_bid", map[string]any{"Amount": 3}), prompt.Content)
	rec, _ = h.Record()
	assert.Equal(t, 3, dix.GameOf(rec.State).Auction.HighBid)
	assert.Contains(t, board.Embeds[0].Description, "Bob bids 3")
	// Alice, the active player, bids last: she drew the wild and is not
	// pinged again.
	assert.Empty(t, r.Sends())
	tabletest.CheckAllCalls(t, h.Rec.Calls)
}

func TestAuctionPaymentPicker(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	board, prompt := toAuction(t, h)
	give(h, 1, "o4") // a card: more than one way to pay
	h.ClickOn("u2", prompt, bot.CustomID(verbBidAmount, snapSeq(h), "4"))
	r := h.ClickOn("u1", board, h.MustFind(board, verbPass))
	rec, _ := h.Record()
	require.Equal(t, dix.PhaseAuctionPay, dix.GameOf(rec.State).Phase)
	require.Equal(t, 1, dix.GameOf(rec.State).ToAct())
	// Bob, who did not just click, must pay: the auction's ping, which
	// notified him already, says so (edited: no second notification).
	assert.Empty(t, r.Sends())
	_, m := h.Record()
	require.NotEmpty(t, m.Ping)
	assert.True(t, strings.HasPrefix(h.Rec.Message(m.Ping).Content, "<@u2>,"), h.Rec.Message(m.Ping).Content)
	assert.Contains(t, h.Rec.Message(m.Ping).Content, "4")
	assert.Empty(t, h.Rec.Deleted)

	pay := h.ClickOn("u2", board, h.MustFind(board, verbPay)).Shown(board)
	require.True(t, pay.Ephemeral)
	assert.Contains(t, pay.Content, "4 tokens")
	picker := h.ClickOn("u2", pay, h.MustFind(pay, verbAuctOther)).Shown(pay)
	assert.Contains(t, picker.Content, enT("dix_pick_status_empty", map[string]any{"Price": 4}))
	ok := h.MustFind(picker, verbPickOK)
	assert.True(t, disabled(picker, ok), "nothing picked: no payment yet")

	before := snap(h)
	// Forged picks are refused in the picker itself, which is redrawn.
	for _, tc := range []struct {
		name string
		arg  string
		want string
	}{
		{"too little", "w.2.0.0", enT("dix_err_payment_short_amounts", map[string]any{"Paid": 2, "Price": 4})},
		{"tokens not owned", "w.0.2.0", enT("dix_err_not_owned", nil)},
		{"too much (R3)", "w.5.0.0", enT("dix_pick_superfluous", map[string]any{"Price": 4})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := h.ClickOn("u2", picker, bot.CustomID(verbPickOK, snapSeq(h), tc.arg))
			assert.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type, "no new message")
			assert.Contains(t, picker.Content, tc.want)
		})
	}
	unchanged(h, before)

	// Picking: 4 money tokens (from the empty pick).
	r = h.ClickOn("u2", picker, bot.CustomID(verbPickMoney, snapSeq(h), "w.0.0.0"), "4")
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type)
	assert.Contains(t, picker.Content, "**4 of 4**")
	assert.NotContains(t, picker.Content, "⚠️", "the refusal went with the next pick")
	ok = h.MustFind(picker, verbPickOK)
	assert.False(t, disabled(picker, ok))
	unchanged(h, before)
	r = h.ClickOn("u2", picker, ok)
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type)
	rec, _ = h.Record()
	assert.Equal(t, 1, dix.GameOf(rec.State).Players[1].Money)
	assert.Contains(t, dix.GameOf(rec.State).Players[1].Collection, dix.Card{Kind: dix.KindSuperWild})
	// The decision is back with Alice, whose turn it is: no ping.
	assert.Equal(t, 0, dix.GameOf(rec.State).ToAct())
	assert.Empty(t, r.Sends())
	tabletest.CheckAllCalls(t, h.Rec.Calls)
}

// disabled reports whether the button id of msg is disabled.
func disabled(msg *tabletest.Message, id string) bool {
	for _, c := range msg.Components {
		if row, ok := c.(discordgo.ActionsRow); ok {
			for _, cc := range row.Components {
				if b, ok := cc.(discordgo.Button); ok && b.CustomID == id {
					return b.Disabled
				}
			}
		}
	}
	return false
}

// snapSeq is the version the game's components carry now.
func snapSeq(h *harness) uint32 {
	rec, m := h.Record()
	return m.version(dix.GameOf(rec.State))
}

func TestStoreUnavailable(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, auctionDeck, dix.Options{Players: 2, FirstPlayer: 0})
	board := h.Board()
	before := snap(h)
	h.b.WorkBudget = 300 * time.Millisecond // the store stays down longer: tried again, then told
	h.St.SetFail(dixbot.ErrUnavailable)
	for _, lc := range []discordgo.Locale{discordgo.EnglishUS, discordgo.French} {
		h.Locale = lc
		lang := locales.For(string(lc))
		assert.Equal(t, locales.T(lang, "err_store_unavailable", nil), h.ClickOn("u1", board, h.MustFind(board, verbDraw)).EphemeralText())
		assert.Equal(t, locales.T(lang, "err_store_unavailable", nil), h.Command("u1", "hand").EphemeralText())
		assert.Equal(t, locales.T(lang, "err_store_unavailable", nil), h.Command("u3", "start").EphemeralText())
	}
	h.St.SetFail(nil)
	unchanged(h, before)
	assert.Equal(t, 6, h.Obs.Outcomes["button/error"]+h.Obs.Outcomes["command/error"])
	assert.Positive(t, h.Obs.Store["update"])
	assert.Positive(t, h.Obs.Store["get"])
}

// slowStore blocks every call until its context ends.
type slowStore struct{ *tabletest.MemStore }

func (s slowStore) Update(ctx context.Context, channel, id string, fn func(*dixbot.Record) error) (*dixbot.Record, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

func TestStoreTimeout(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, auctionDeck, dix.Options{Players: 2, FirstPlayer: 0})
	b, err := bot.New(bot.Options{Store: slowStore{h.St}, StoreTimeout: 50 * time.Millisecond})
	require.NoError(t, err)
	b.WorkBudget = 300 * time.Millisecond
	h.b = b
	board := h.Board()
	assert.Equal(t, enT("err_store_unavailable", nil), h.ClickOn("u1", board, h.MustFind(board, verbDraw)).EphemeralText())
}

// panicStore panics on Get.
type panicStore struct{ *tabletest.MemStore }

func (s panicStore) Get(ctx context.Context, channel string) (*dixbot.Record, error) { panic("boom") }

func TestPanicIsAnswered(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	b, err := bot.New(bot.Options{Store: panicStore{h.St}, Observer: h.Obs})
	require.NoError(t, err)
	h.b = b
	assert.Equal(t, enT("err_internal", nil), h.Command("u1", "hand").EphemeralText())
	assert.Equal(t, 1, h.Obs.Outcomes["command/panic"])
}

func TestCloseAnswersRestarting(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	require.NoError(t, h.b.Close(context.Background()))
	h.Locale = discordgo.French
	assert.Equal(t, locales.T("fr", "err_restarting", nil), h.Command("u1", "start").EphemeralText())
	_, err := h.St.Get(context.Background(), h.Channel)
	assert.ErrorIs(t, err, dixbot.ErrNotFound, "nothing was created")
}

func TestCloseWaitsForInFlight(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	release := make(chan struct{})
	h.b.Store = blockingStore{h.St, release}
	done := make(chan struct{})
	go func() { h.Command("u1", "rules"); h.Command("u1", "hand"); close(done) }()
	time.Sleep(20 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	assert.ErrorIs(t, h.b.Close(ctx), context.DeadlineExceeded, "close returned while a click was in flight")
	close(release)
	<-done
	require.NoError(t, h.b.Close(context.Background()))
}

type blockingStore struct {
	*tabletest.MemStore
	release chan struct{}
}

func (s blockingStore) Get(ctx context.Context, channel string) (*dixbot.Record, error) {
	<-s.release
	return s.MemStore.Get(ctx, channel)
}

func TestErrorsAreLocalised(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.Locale = discordgo.French
	assert.Equal(t, locales.T("fr", "err_no_game", nil), h.Command("u1", "hand").EphemeralText())
	assert.Equal(t, locales.T("fr", "err_no_game", nil), h.Command("u1", "board").EphemeralText())
	h.Locale = discordgo.German // neither: the default language
	assert.Equal(t, locales.T("en", "err_no_game", nil), h.Command("u1", "abandon").EphemeralText())
}

func TestEveryErrorHasAMessage(t *testing.T) {
	t.Parallel()
	for _, e := range bot.ErrorKeys {
		for _, lang := range locales.Languages {
			assert.True(t, locales.Has(lang, e.Key), "%v: %s has no %s message", e.Err, e.Key, lang)
		}
	}
	key, _, outcome, unexpected := bot.Classify(errors.New("surprise"))
	assert.Equal(t, "err_internal", key)
	assert.Equal(t, bot.OutcomeError, outcome)
	assert.True(t, unexpected)
	key, _, outcome, _ = bot.Classify(fmt.Errorf("wrapped: %w", dix.ErrIdenticalCard))
	assert.Equal(t, "dix_err_identical_card", key)
	assert.Equal(t, bot.OutcomeRefused, outcome)
	// DIX's refusals said with their amounts, and a picker's unreadable id.
	d := map[string]any{"Paid": 2, "Price": 4}
	key, data, outcome, unexpected := bot.Classify(fmt.Errorf("wrapped: %w", &dixview.Refusal{Err: dix.ErrPaymentShort, Key: "dix_err_payment_short_amounts", Data: d}))
	assert.Equal(t, "dix_err_payment_short_amounts", key)
	assert.Equal(t, d, data)
	assert.Equal(t, bot.OutcomeRefused, outcome)
	assert.False(t, unexpected)
	_, _, err := dixview.ParsePick("w.x.0.0")
	key, _, outcome, _ = bot.Classify(err)
	assert.Equal(t, "err_bad_custom_id", key)
	assert.Equal(t, bot.OutcomeRefused, outcome)
}

func TestRulesHandAndBoard(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.Locale = discordgo.French
	r := h.Command("u1", "rules")
	assert.Equal(t, locales.T("fr", "dix_rules_title", nil), r.Response().Data.Embeds[0].Title)
	assert.NotZero(t, r.Response().Data.Flags&discordgo.MessageFlagsEphemeral)

	seedGame(h, []string{"u1", "u2"}, auctionDeck, dix.Options{Players: 2, FirstPlayer: 0})
	r = h.Command("u2", "hand")
	e := r.Response().Data.Embeds[0]
	assert.Equal(t, locales.T("fr", "dix_hand_title", map[string]any{"Name": "Bob"}), e.Title)
	assert.NotZero(t, r.Response().Data.Flags&discordgo.MessageFlagsEphemeral)
	assert.Equal(t, enT("err_not_in_game", nil), func() string { h.Locale = discordgo.EnglishGB; return h.Command("u9", "hand").EphemeralText() }())

	// /dix board reposts the board and strips the old one.
	old := h.Board()
	r = h.Command("u2", "board")
	r.EphemeralText()
	nb := h.Board()
	assert.NotEqual(t, old.ID, nb.ID)
	assert.Empty(t, old.Components, "the old board lost its buttons")
	assert.NotEmpty(t, nb.Components)
	assert.Empty(t, nb.Content, "a repost pings nobody")
	tabletest.CheckAllCalls(t, h.Rec.Calls)
}

func TestAbandon(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, auctionDeck, dix.Options{Players: 2, FirstPlayer: 0})
	assert.Equal(t, enT("err_no_permission", nil), h.Command("u2", "abandon").EphemeralText())
	h.Perms["u3"] = discordgo.PermissionManageChannels
	prompt := h.Command("u3", "abandon").Shown(nil)
	require.True(t, prompt.Ephemeral)
	r := h.ClickOn("u3", prompt, h.MustFind(prompt, verbAbandonNo))
	assert.Equal(t, enT("abandon_kept", nil), prompt.Content)
	_, err := h.St.Get(context.Background(), h.Channel)
	require.NoError(t, err)

	prompt = h.Command("u1", "abandon").Shown(nil)
	board := h.Board()
	r = h.ClickOn("u1", prompt, h.MustFind(prompt, verbAbandonYes))
	assert.Equal(t, enT("abandon_done", nil), prompt.Content)
	assert.Empty(t, board.Components)
	// The old board says the game was abandoned, with nobody to act.
	require.Len(t, board.Embeds, 1)
	assert.Equal(t, enT("dix_board_title_abandoned", nil), board.Embeds[0].Title)
	assert.Contains(t, board.Embeds[0].Description, enT("dix_abandon_public", map[string]any{"Name": "Alice"}))
	for _, f := range board.Embeds[0].Fields {
		assert.NotContains(t, f.Name, enT("dix_marker_to_act", nil))
	}
	// One public notice: the old board says it, no message of its own.
	assert.Empty(t, r.Sends())
	rec, err := h.St.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	assert.True(t, rec.Finished)
	// The channel is free again.
	assert.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, h.Command("u2", "start").Response().Type)
}

func TestCommandsAreLocalised(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	cmds := h.b.Commands()
	var c *discordgo.ApplicationCommand
	for _, cmd := range cmds {
		assert.Regexp(t, `^[-_\p{Ll}\p{N}]{1,32}$`, cmd.Name)
		require.NotNil(t, cmd.NameLocalizations, cmd.Name)
		assert.Regexp(t, `^[-_\p{Ll}\p{N}]{1,32}$`, (*cmd.NameLocalizations)[discordgo.French])
		require.NotNil(t, cmd.DescriptionLocalizations, cmd.Name)
		assert.NotEmpty(t, (*cmd.DescriptionLocalizations)[discordgo.French], cmd.Name)
		assert.LessOrEqual(t, len([]rune(cmd.Description)), 100, cmd.Name)
		assert.LessOrEqual(t, len([]rune((*cmd.DescriptionLocalizations)[discordgo.French])), 100, cmd.Name)
		if cmd.Name == "dix" {
			c = cmd
		}
	}
	require.NotNil(t, c, "no /dix")
	require.NotNil(t, c.DescriptionLocalizations)
	assert.NotEmpty(t, (*c.DescriptionLocalizations)[discordgo.French])
	require.Len(t, c.Options, len(bot.Subcommands))
	names := map[string]bool{}
	var walk func(opts []*discordgo.ApplicationCommandOption)
	walk = func(opts []*discordgo.ApplicationCommandOption) {
		for _, o := range opts {
			assert.Regexp(t, `^[-_\p{Ll}\p{N}]{1,32}$`, o.Name)
			fr := o.NameLocalizations[discordgo.French]
			assert.Regexp(t, `^[-_\p{Ll}\p{N}]{1,32}$`, fr)
			assert.NotEmpty(t, o.DescriptionLocalizations[discordgo.French], o.Name)
			assert.LessOrEqual(t, len([]rune(o.Description)), 100, o.Name)
			assert.LessOrEqual(t, len([]rune(o.DescriptionLocalizations[discordgo.French])), 100, o.Name)
			for _, ch := range o.Choices {
				assert.NotEmpty(t, ch.NameLocalizations[discordgo.French])
			}
			walk(o.Options)
		}
	}
	walk(c.Options)
	for _, o := range c.Options {
		names[o.Name] = true
	}
	for _, id := range bot.Subcommands {
		assert.True(t, names[enT("cmd_"+id+"_name", nil)], id)
	}
}

func TestSoloDifficultyOutOfRange(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	for _, d := range []float64{3, 11, 4.5} {
		assert.Equal(t, enT("err_difficulty", map[string]any{"Min": 4, "Max": 10}), h.Command("u1", "solo", bot.OptDifficulty, d).EphemeralText())
	}
	_, err := h.St.Get(context.Background(), h.Channel)
	assert.ErrorIs(t, err, dixbot.ErrNotFound)
}

func TestTurnBoundaryPostsFreshBoard(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, "g3 g5 b2 $2 o4 p1 b7 g1 o2 p3 b4 $1 g6 o5 p6 b9 g2", dix.Options{Players: 2, FirstPlayer: 0})
	old := h.Board()
	h.ClickOn("u1", old, h.MustFind(old, verbDraw))
	h.ClickOn("u1", old, h.MustFind(old, verbStop))
	assert.Contains(t, old.Embeds[0].Description, "Alice stops")
	// Nothing in the market: the turn ends by itself, and the board says why.
	r := h.ClickOn("u1", old, h.MustFind(old, verbNumbers))
	assert.Contains(t, old.Embeds[0].Description, enT("dix_log_auto_end", map[string]any{"Name": "Alice"}))

	// The old board became the turn's summary, without buttons.
	assert.Equal(t, enT("dix_summary_title", map[string]any{"Turn": 1, "Name": "Alice"}), old.Embeds[0].Title)
	assert.Contains(t, old.Embeds[0].Description, "Alice draws 🟩3.")
	assert.Contains(t, old.Embeds[0].Description, "Alice takes 1 number card: 🟩3.")
	assert.Empty(t, old.Components)
	// A fresh board pings Bob only, and is remembered.
	sends := r.Sends()
	require.Len(t, sends, 1)
	assert.Equal(t, "<@u2>", sends[0].Content)
	assert.Equal(t, []string{"u2"}, sends[0].AllowedMentions.Users)
	nb := h.Board()
	assert.NotEqual(t, old.ID, nb.ID)
	assert.Equal(t, enT("dix_board_title", map[string]any{"Turn": 2, "Name": "Bob"}), nb.Embeds[0].Title)
	_, m := h.Record()
	assert.Empty(t, m.TurnLog, "the new turn's log starts empty")
	tabletest.CheckAllCalls(t, h.Rec.Calls)
}

// When Discord refuses the new board, the click is still answered, the game
// is saved, and /dix board brings the board back.
func TestDiscordDownAfterAnswer(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, "g3 g5 b2 $2 o4 p1 b7 g1 o2 p3 b4 $1 g6 o5 p6 b9 g2", dix.Options{Players: 2, FirstPlayer: 0})
	board := h.Board()
	h.ClickOn("u1", board, h.MustFind(board, verbDraw))
	h.ClickOn("u1", board, h.MustFind(board, verbStop))
	h.Rec.Mu.Lock()
	h.Rec.Fail = errors.New("discord: 503")
	h.Rec.Mu.Unlock()
	r := h.ClickOn("u1", board, h.MustFind(board, verbMoney))
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type)
	rec, m := h.Record()
	assert.Equal(t, 1, dix.GameOf(rec.State).ToAct(), "the turn passed to Bob")
	assert.Equal(t, board.ID, m.Board, "no new board was recorded")

	h.Rec.Mu.Lock()
	h.Rec.Fail = nil
	h.Rec.Mu.Unlock()
	h.Command("u2", "board").EphemeralText()
	nb := h.Board()
	assert.NotEqual(t, board.ID, nb.ID)
	assert.Contains(t, tabletest.ComponentIDs(nb.Components), bot.CustomID(verbDraw, snapSeq(h)))
}

// When the new board's id could not be recorded, a click on it still
// works and makes it the current board again.
func TestUnrecordedBoardHeals(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, auctionDeck, dix.Options{Players: 2, FirstPlayer: 0})
	real := h.Board()
	// The table remembers another message (as if the last write failed).
	_, err := h.St.Update(context.Background(), h.Channel, "", func(r *dixbot.Record) error {
		m := mustDixTable(r.Meta)
		m.Board = "lost"
		r.Meta = m.Encode()
		return nil
	})
	require.NoError(t, err)
	h.Rec.Mu.Lock()
	h.Rec.Msgs["lost"] = &tabletest.Message{ID: "lost", Channel: h.Channel}
	h.Rec.Mu.Unlock()
	r := h.ClickOn("u1", real, h.MustFind(real, verbDraw))
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type)
	_, m := h.Record()
	assert.Equal(t, real.ID, m.Board)
}

// A button on a message older than the game (left from an earlier game of
// the channel at the same state number) is outdated.
func TestButtonFromAnEarlierGame(t *testing.T) {
	t.Parallel()
	snowflake := func(d time.Duration) string {
		ms := time.Now().Add(d).UnixMilli() - 1420070400000
		return strconv.FormatUint(uint64(ms)<<22, 10)
	}
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, auctionDeck, dix.Options{Players: 2, FirstPlayer: 0})
	_, err := h.St.Update(context.Background(), h.Channel, "", func(r *dixbot.Record) error {
		m := mustDixTable(r.Meta)
		m.Origin = snowflake(0)
		r.Meta = m.Encode()
		return nil
	})
	require.NoError(t, err)
	board := h.Board()
	draw := h.MustFind(board, verbDraw)
	before := snap(h)
	old := &tabletest.Message{ID: snowflake(-time.Hour), Channel: h.Channel}
	assert.Contains(t, h.ClickOn("u1", old, draw).EphemeralText(), enT("err_stale", nil))
	unchanged(h, before)
	newer := &tabletest.Message{ID: snowflake(time.Second), Channel: h.Channel}
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, h.ClickOn("u1", newer, draw).Response().Type)
}

func TestShowBoardButton(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, auctionDeck, dix.Options{Players: 2, FirstPlayer: 0})
	board := h.Board()
	draw := h.MustFind(board, verbDraw)
	h.ClickOn("u1", board, draw)
	h.Locale = discordgo.French
	stale := h.ClickOn("u2", board, draw).Shown(board)
	require.True(t, stale.Ephemeral)
	r := h.ClickOn("u2", stale, h.MustFind(stale, verbShowBoard))
	e := r.Response().Data.Embeds
	require.Len(t, e, 1)
	assert.Contains(t, e[0].Description, "Enchères", "the board, in the user's language")
	assert.NotZero(t, r.Response().Data.Flags&discordgo.MessageFlagsEphemeral)
}

// marketDeck: Alice draws g3 and b2 and takes the money (they go to the
// market); Bob draws o4, stops and takes the numbers: he may buy.
const marketDeck = "g3 b2 o4 p1 b7 g1 o2 p3 b4 $1 g6 o5 p6 b9 g2 g5"

func toBobsBuy(t *testing.T, h *harness) *tabletest.Message {
	t.Helper()
	seedGame(h, []string{"u1", "u2"}, marketDeck, dix.Options{Players: 2, FirstPlayer: 0})
	board := h.Board()
	for _, v := range []string{verbDraw, verbDraw, verbStop, verbMoney} {
		h.ClickOn("u1", board, h.MustFind(board, v))
	}
	board = h.Board()
	for _, v := range []string{verbDraw, verbStop, verbNumbers} {
		h.ClickOn("u2", board, h.MustFind(board, v))
	}
	rec, _ := h.Record()
	require.Equal(t, dix.PhaseBuy, dix.GameOf(rec.State).Phase)
	require.Equal(t, 1, dix.GameOf(rec.State).ToAct())
	return board
}

func TestBuyWithChosenPayment(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	board := toBobsBuy(t, h)
	assert.Contains(t, h.ClickOn("u1", board, h.MustFind(board, verbBuy)).EphemeralText(), "Bob")
	prompt := h.ClickOn("u2", board, h.MustFind(board, verbBuy)).Shown(board)
	sel := h.MustFind(prompt, verbBuySelect)
	assert.Equal(t, []string{"b2", "g3"}, tabletest.SelectOptions(prompt, sel))
	pay := h.ClickOn("u2", prompt, sel, "g3").Shown(prompt)
	assert.Contains(t, pay.Content, "3 tokens")
	// Back returns to the market.
	back := h.ClickOn("u2", pay, h.MustFind(pay, verbPickBack)).Shown(pay)
	assert.Equal(t, []string{"b2", "g3"}, tabletest.SelectOptions(back, h.MustFind(back, verbBuySelect)))
	pay = h.ClickOn("u2", back, h.MustFind(back, verbBuySelect), "g3").Shown(back)
	picker := h.ClickOn("u2", pay, h.MustFind(pay, verbBuyOther)).Shown(pay)
	assert.Contains(t, picker.Content, enT("dix_pick_title_buy", map[string]any{"Price": 3, "Card": "🟩3", "CardName": "green 3"}))
	tabletest.CheckAllCalls(t, h.Rec.Calls)

	// Bob's cards: 🟧4, his last one, is offered with what it costs him.
	cardsID := h.MustFind(picker, verbPickCards)
	assert.Equal(t, []string{"0"}, tabletest.SelectOptions(picker, cardsID))
	assert.Contains(t, dumpComponents(picker.Components), enT("dix_pick_card_last", nil))

	before := snap(h)
	h.ClickOn("u2", picker, cardsID, "0")
	assert.Contains(t, picker.Content, "**1 of 3**")
	h.ClickOn("u2", picker, h.MustFind(picker, verbPickMoney), "2")
	assert.Contains(t, picker.Content, "**3 of 3**")
	unchanged(h, before) // picking changes nothing until the payment is confirmed

	r := h.ClickOn("u2", picker, h.MustFind(picker, verbPickOK))
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type)
	assert.Contains(t, picker.Content, "🟩3")
	rec, _ := h.Record()
	assert.Equal(t, 3, dix.GameOf(rec.State).Players[1].Money)
	assert.Equal(t, cards(t, "g3"), dix.GameOf(rec.State).Players[1].Collection)
	assert.Contains(t, board.Embeds[0].Description, "Bob buys 🟩3")
}

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
			h := newHarness(t)
			require.NoError(t, h.St.Create(context.Background(), &dixbot.Record{Channel: h.Channel, Meta: []byte(tc.meta)}))
			assert.Equal(t, enT(tc.key, nil), h.Command("u1", "hand").EphemeralText())
			assert.Equal(t, enT(tc.key, nil), h.ClickOn("u1", nil, bot.CustomID(verbDraw, 0)).EphemeralText())
			assert.Equal(t, enT(tc.key, nil), h.ClickOn("u1", nil, bot.CustomID(verbJoin, 1)).EphemeralText())
		})
	}
}

// A game that ended but could not be archived does not block the channel.
func TestStartOverUnarchivedGame(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	startGame(h, "u1", "u2")
	playToEnd(t, h, 5)
	rec, err := h.St.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	// Put the finished game back as active, as if Finish had failed.
	h.St.Mu.Lock()
	st := h.St.Archived[h.Channel]
	st.Rec.Finished = false
	h.St.Live[h.Channel] = st
	delete(h.St.Archived, h.Channel)
	h.St.Mu.Unlock()
	require.Equal(t, dix.PhaseOver, dix.GameOf(rec.State).Phase)

	r := h.Command("u2", "start")
	assert.Zero(t, r.Response().Data.Flags&discordgo.MessageFlagsEphemeral, "a new lobby opens")
	rec, m := h.Record()
	assert.Nil(t, dix.GameOf(rec.State))
	assert.Equal(t, "u2", m.Creator)
}

// TestWinningBidOpensThePayment: the active player bids last; when that bid
// wins, the bid prompt becomes the payment step, so the winner pays
// without going back to the board.
func TestWinningBidOpensThePayment(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	board, prompt := toAuction(t, h)
	give(h, 0, "o4") // a card: more than one way to pay
	h.ClickOn("u2", prompt, h.MustFind(prompt, verbPass))
	aprompt := h.ClickOn("u1", board, h.MustFind(board, verbBid)).Shown(board)
	r := h.ClickOn("u1", aprompt, bot.CustomID(verbBidAmount, snapSeq(h), "2"))
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type)
	assert.Empty(t, r.Sends(), "the winner, who clicked, is not pinged")
	rec, _ := h.Record()
	require.Equal(t, dix.PhaseAuctionPay, dix.GameOf(rec.State).Phase)
	assert.Contains(t, aprompt.Content, "You bid 2 and won")
	assert.Contains(t, aprompt.Content, "2 tokens")
	assert.NotEmpty(t, tabletest.FindIDs(aprompt, verbAuctOther))

	h.ClickOn("u1", aprompt, h.MustFind(aprompt, verbAuctPay))
	rec, _ = h.Record()
	assert.Equal(t, dix.PhaseDraw, dix.GameOf(rec.State).Phase)
	assert.Equal(t, 3, dix.GameOf(rec.State).Players[0].Money)
	assert.Equal(t, enT("dix_done_pay", map[string]any{"Payment": "2 tokens"}), aprompt.Content)
}

// TestOnlyPaymentIsMadeByItself: a winner whom only one payment covers
// (R3: no superfluous unit) pays it without being asked.
func TestOnlyPaymentIsMadeByItself(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	board, prompt := toAuction(t, h)
	h.ClickOn("u2", prompt, h.MustFind(prompt, verbPass))
	aprompt := h.ClickOn("u1", board, h.MustFind(board, verbBid)).Shown(board)
	h.ClickOn("u1", aprompt, bot.CustomID(verbBidAmount, snapSeq(h), "2"))
	rec, _ := h.Record()
	assert.Equal(t, dix.PhaseDraw, dix.GameOf(rec.State).Phase, "Alice had only tokens: 2 tokens is the only payment")
	assert.Equal(t, 3, dix.GameOf(rec.State).Players[0].Money)
	assert.Contains(t, board.Embeds[0].Description, enT("dix_log_auto_pay", map[string]any{"Name": "Alice", "Payment": "2 tokens"}))
}

func TestOnlyPayment(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		money, cons int
		coll        string
		price       int
		want        string // the payment's text, "" when there is a choice
	}{
		{"tokens only", 5, 0, "", 3, "3 tokens"},
		{"one consolation token, nothing else", 0, 1, "", 2, "1 consolation token"},
		{"tokens or a card", 5, 0, "g3", 3, ""},
		{"two identical cards", 0, 0, "g3 g3", 2, "2 cards (🟩3 🟩3)"},
		{"two different cards, price 1", 0, 0, "g3 b3", 1, ""},
		{"all the cards", 1, 0, "g3 b3", 3, "1 token, 2 cards (🟦3 🟩3)"},
		{"token or consolation", 2, 1, "", 2, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &dix.Game{Opts: dix.Options{Players: 2}, Players: []dix.Player{
				{Money: tc.money, Consolation: tc.cons, Collection: cards(t, tc.coll)}, {}}, Phase: dix.PhaseBuy}
			pay, ok := dixview.OnlyPayment(g, 0, tc.price)
			if tc.want == "" {
				assert.False(t, ok, "%+v", pay)
				return
			}
			require.True(t, ok)
			assert.Equal(t, tc.want, dixview.PaymentText("en", pay))
		})
	}
}

// give moves cards from the deck to a seat's collection.
func give(h *harness, s int, notation string) {
	h.T.Helper()
	cs := cards(h.T, notation)
	_, err := h.St.Update(context.Background(), h.Channel, "", func(r *dixbot.Record) error {
		for _, cd := range cs {
			i := slices.Index(dix.GameOf(r.State).Deck, cd)
			require.GreaterOrEqual(h.T, i, 0, "%s in the deck", cd)
			dix.GameOf(r.State).Deck = slices.Delete(dix.GameOf(r.State).Deck, i, i+1)
			dix.GameOf(r.State).Players[s].Collection = append(dix.GameOf(r.State).Players[s].Collection, cd)
		}
		return nil
	})
	require.NoError(h.T, err)
}

// soloBuyDeck: the human draws g3 b2 and takes the money (both go to the
// market); ALIX (difficulty 4) draws o4 and stops; the human draws p1,
// stops and takes it: a buy with a collection of one single card.
const soloBuyDeck = "g3 b2 o4 p1 b7 g1 o2 p3 b4 $1 g6 o5 p6 b9 g2 g5 o9 p9"

// TestSoloBuyCapacity: in solo any number card pays for a market card, but
// only duplicates pay a bid: the market prompt shows the buy capacity and
// the hand shows both.
func TestSoloBuyCapacity(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1"}, soloBuyDeck, dix.Options{Players: 1, Difficulty: 4, FirstPlayer: 0})
	board := h.Board()
	for _, v := range []string{verbDraw, verbDraw, verbStop, verbMoney} {
		h.ClickOn("u1", board, h.MustFind(board, v))
	}
	board = h.Board()
	for _, v := range []string{verbDraw, verbStop, verbNumbers} {
		h.ClickOn("u1", board, h.MustFind(board, v))
	}
	rec, _ := h.Record()
	g := dix.GameOf(rec.State)
	require.Equal(t, dix.PhaseBuy, g.Phase)
	require.Equal(t, 6, g.BuyCapacity(0), "5 tokens and one card")
	require.Equal(t, 5, g.Capacity(0), "5 tokens, no duplicate")

	prompt := h.ClickOn("u1", board, h.MustFind(board, verbBuy))
	assert.Contains(t, prompt.EphemeralText(), "pay up to 6")

	hand := h.Command("u1", "hand").Response().Data.Embeds[0]
	var text string
	for _, f := range hand.Fields {
		text += f.Value + "\n"
	}
	assert.Contains(t, text, enT("dix_hand_capacity_buy", map[string]any{"Amount": 6}))
	assert.Contains(t, text, enT("dix_hand_capacity_bid", map[string]any{"Amount": 5}))
}

// TestStaleClickOnABoardLeftBehind: a click on the current board as it
// stood before (a double click, or a board whose update was lost) is
// refused as outdated and answered with the game as it stands, with
// working buttons, instead of a link to the very message clicked.
func TestStaleClickOnABoardLeftBehind(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	seedGame(h, []string{"u1", "u2"}, marketDeck, dix.Options{Players: 2, FirstPlayer: 0})
	board := h.Board()
	behind := *board // the board as it was before the draw
	behind.Components = append([]discordgo.MessageComponent(nil), board.Components...)
	h.ClickOn("u1", board, h.MustFind(board, verbDraw))
	before := snap(h)

	r := h.ClickOn("u1", &behind, h.MustFind(&behind, verbDraw))
	assert.Contains(t, r.EphemeralText(), enT("err_stale", nil))
	assert.Contains(t, r.EphemeralText(), enT("stale_here", nil))
	unchanged(h, before)
	here := r.Shown(&behind)
	require.True(t, here.Ephemeral)
	require.Len(t, here.Embeds, 1)
	stop := h.MustFind(here, verbStop)

	// Its buttons work, and the public board follows.
	h.ClickOn("u1", here, stop)
	rec, _ := h.Record()
	assert.Equal(t, dix.PhaseChoose, dix.GameOf(rec.State).Phase)
	_, ok := tabletest.FindID(board, verbNumbers)
	assert.True(t, ok, "the public board shows the new decision")

	// A stale click on a board that is up to date only points to it.
	r = h.ClickOn("u1", board, bot.CustomID(verbDraw, 0))
	assert.Contains(t, r.EphemeralText(), enT("err_stale", nil))
	assert.NotContains(t, r.EphemeralText(), enT("stale_here", nil))
}

// TestPingsAreClosedNotDeleted: a ping asks for one decision; once it is
// made the ping is edited to say so, never deleted (the notification must
// keep pointing to a message), and nobody is pinged for a decision their
// own click opened.
func TestPingsAreClosedNotDeleted(t *testing.T) {
	t.Parallel()
	for _, lang := range locales.Languages {
		t.Run(lang, func(t *testing.T) {
			h := newHarness(t)
			h.Lang = lang
			seedGame(h, []string{"u1", "u2", "u3"}, auctionDeck, dix.Options{Players: 3, FirstPlayer: 0})
			give(h, 0, "o4") // a card: more than one way to pay
			board := h.Board()
			h.ClickOn("u1", board, h.MustFind(board, verbDraw))
			_, m := h.Record()
			ping := m.Ping
			require.NotEmpty(t, ping, "Bob and Chloé were pinged to bid")
			// Bob bids, Chloé passes: still the same auction, no new ping.
			n := h.Rec.Count()
			prompt := h.ClickOn("u2", board, h.MustFind(board, verbBid)).Shown(board)
			h.ClickOn("u2", prompt, bot.CustomID(verbBidAmount, snapSeq(h), "2"))
			h.ClickOn("u3", board, h.MustFind(board, verbPass))
			for _, c := range h.Rec.Since(n) {
				assert.NotEqual(t, "send", c.Op, "no new ping within the auction")
			}
			// Alice outbids and pays in her own prompt: the auction is over,
			// the ping is closed.
			prompt = h.ClickOn("u1", board, h.MustFind(board, verbBid)).Shown(board)
			r := h.ClickOn("u1", prompt, bot.CustomID(verbBidAmount, snapSeq(h), "3"))
			assert.Empty(t, r.Sends(), "Alice, who just bid, is not pinged to pay")
			rec, m := h.Record()
			require.Equal(t, dix.PhaseAuctionPay, dix.GameOf(rec.State).Phase)
			assert.Empty(t, m.Ping)
			closed := h.Rec.Message(ping)
			require.NotNil(t, closed, "the ping is still there")
			assert.True(t, strings.HasPrefix(closed.Content, "✔️"), closed.Content)
			assert.Contains(t, closed.Content, locales.T(lang, "ping_closed_link", map[string]any{"URL": bot.MessageURL("g1", "c1", board.ID)}))
			assert.Empty(t, h.Rec.Deleted, "no message is ever deleted")
			tabletest.CheckAllCalls(t, h.Rec.Calls)
		})
	}
}

// TestForcedDecisionsAreTaken: a bidder who cannot afford the minimum bid
// passes by themself and is not pinged; the board says why.
func TestForcedDecisionsAreTaken(t *testing.T) {
	t.Parallel()
	for _, lang := range locales.Languages {
		t.Run(lang, func(t *testing.T) {
			h := newHarness(t)
			h.Lang = lang
			seedGame(h, []string{"u1", "u2", "u3"}, auctionDeck, dix.Options{Players: 3, FirstPlayer: 0})
			_, err := h.St.Update(context.Background(), h.Channel, "", func(r *dixbot.Record) error {
				dix.GameOf(r.State).Players[2].Money = 0 // Chloé cannot bid
				return nil
			})
			require.NoError(t, err)
			board := h.Board()
			r := h.ClickOn("u1", board, h.MustFind(board, verbDraw))
			require.Len(t, r.Sends(), 1)
			assert.Equal(t, []string{"u2"}, r.Sends()[0].AllowedMentions.Users, "only Bob, who can bid, is pinged")
			r = h.ClickOn("u2", board, h.MustFind(board, verbPass))
			rec, _ := h.Record()
			assert.Equal(t, 0, dix.GameOf(rec.State).ToAct(), "Chloé passed by herself")
			assert.Contains(t, board.Embeds[0].Description, locales.T(lang, "dix_log_auto_pass", map[string]any{"Name": "Chloé", "Min": 1}))
			assert.Empty(t, r.Sends())
		})
	}
}

// TestBustBuyOpensTheMarket: in the bust variant, choosing the buy opens
// the market prompt at once.
func TestBustBuyOpensTheMarket(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	deck := "g3 b2 o4 b7 g5 p1 b4 $1 g6 o5 p6 b9 g2 o9 p9 b8"
	seedGame(h, []string{"u1", "u2"}, deck, dix.Options{Players: 2, FirstPlayer: 0, BustVariant: true})
	board := h.Board()
	for _, v := range []string{verbDraw, verbDraw, verbStop, verbMoney} {
		h.ClickOn("u1", board, h.MustFind(board, v))
	}
	board = h.Board()
	for _, v := range []string{verbDraw, verbStop, verbNumbers, verbEndTurn} {
		h.ClickOn("u2", board, h.MustFind(board, v))
	}
	board = h.Board()
	h.ClickOn("u1", board, h.MustFind(board, verbDraw))
	h.ClickOn("u1", board, h.MustFind(board, verbDraw))
	rec, _ := h.Record()
	require.Equal(t, dix.PhaseBustChoice, dix.GameOf(rec.State).Phase)

	r := h.ClickOn("u1", board, h.MustFind(board, verbBustBuy))
	assert.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type)
	var market *tabletest.Message
	for _, c := range r.Calls {
		if c.Op == "followup" {
			market = &tabletest.Message{Content: c.Params.Content, Components: c.Params.Components,
				Ephemeral: c.Params.Flags&discordgo.MessageFlagsEphemeral != 0}
		}
	}
	require.NotNil(t, market, "the market prompt follows")
	assert.True(t, market.Ephemeral)
	sel := h.MustFind(market, verbBuySelect)
	assert.Contains(t, tabletest.SelectOptions(market, sel), "g3")
}

// TestGameLanguage: the option; in solo the player's language; a server
// locale other than en-US (which every non-Community server reports); the
// starter's language; the default last.
func TestGameLanguage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		sub         string
		option      string
		user, guild discordgo.Locale
		defaultLang string
		want        string
	}{
		{"option wins", "start", "en", discordgo.French, discordgo.French, "fr", "en"},
		{"en-US server says nothing: the starter's", "start", "", discordgo.French, discordgo.EnglishUS, "en", "fr"},
		{"French Community server", "start", "", discordgo.EnglishUS, discordgo.French, "en", "fr"},
		{"British Community server", "start", "", discordgo.French, discordgo.EnglishGB, "fr", "en"},
		{"unsupported server locale: the starter's", "start", "", discordgo.French, discordgo.German, "en", "fr"},
		{"nothing known: the default", "start", "", discordgo.German, discordgo.German, "fr", "fr"},
		{"solo: the player's, whatever the server", "solo", "", discordgo.French, discordgo.EnglishGB, "en", "fr"},
		{"solo option", "solo", "en", discordgo.French, discordgo.French, "fr", "en"},
		{"solo, unsupported player locale: server", "solo", "", discordgo.German, discordgo.French, "en", "fr"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			b, err := bot.New(bot.Options{Store: h.St, DefaultLanguage: tc.defaultLang, Seed: func() int64 { return 7 }})
			require.NoError(t, err)
			h.b = b
			h.Locale, h.GuildLc = tc.user, tc.guild
			var opts []any
			if tc.option != "" {
				opts = append(opts, bot.OptLanguage, tc.option)
			}
			h.Command("u1", tc.sub, opts...)
			_, m := h.Record()
			assert.Equal(t, tc.want, m.Lang)
		})
	}
}

// The confirmation of /dix abandon ends only the table its prompt was made
// for: a button /dix abandon never drew (no version), or the prompt of an
// earlier table, is outdated and changes nothing; a prompt of this table
// still works after the game has moved on.
func TestAbandonConfirmationBelongsToItsPrompt(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	startGame(h, "u1", "u2")
	board := h.Board()
	before := snap(h)
	assert.Contains(t, h.ClickOn("u1", board, bot.CustomID(verbAbandonYes, 0)).EphemeralText(), enT("err_stale", nil),
		"without /dix abandon")
	unchanged(h, before)

	earlier := h.Command("u1", "abandon").Shown(nil)
	rec, m := h.Record()
	forged := bot.CustomID(verbAbandonYes, uint32(rec.Version)+5, m.Origin)
	assert.Equal(t, enT("err_bad_custom_id", nil), h.ClickOn("u1", board, forged).EphemeralText(), "a version never reached")
	unchanged(h, before)

	prompt := h.Command("u1", "abandon").Shown(nil)
	h.ClickOn(m.Seats[dix.GameOf(rec.State).ToAct()].ID, board, bot.CustomID(verbDraw, dix.GameOf(rec.State).Seq))
	moved, _ := h.Record()
	require.Greater(t, moved.Version, rec.Version, "the game moved on")
	h.ClickOn("u1", prompt, h.MustFind(prompt, verbAbandonYes))
	assert.Equal(t, enT("abandon_done", nil), prompt.Content)
	rec, err := h.St.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	require.True(t, rec.Finished)

	// A new table: the prompt made for the earlier one does not end it.
	startGame(h, "u1", "u2")
	before = snap(h)
	r := h.ClickOn("u1", earlier, h.MustFind(earlier, verbAbandonYes))
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type, "the prompt itself says so")
	earlier = r.Shown(earlier)
	assert.Contains(t, earlier.Content, enT("err_stale", nil))
	_, kept := tabletest.FindID(earlier, verbAbandonYes)
	assert.False(t, kept, "the old prompt loses its button")
	unchanged(h, before)
	rec, err = h.St.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	assert.False(t, rec.Finished)
}
