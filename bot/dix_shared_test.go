package bot

import (
	"context"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	botdix "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/computer"
	cdix "github.com/dixgame/dixbot/computer/dix"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

// newDixHarness is a harness whose bot hosts DIX on the shared table
// (bot/dix's presenter), no table of its own being hosted in this test
// process.
func newDixHarness(t *testing.T, seed int64, pictures bool) *harness {
	t.Helper()
	return newDixHarnessOn(t, nil, botdix.Game(), seed, pictures)
}

// newDixHarnessOn is newDixHarness on the store db (nil: a MemStore),
// hosting game (DIX, its computer or options changed by the test).
func newDixHarnessOn(t *testing.T, db dixbot.Store, game present.Game, seed int64, pictures bool) *harness {
	t.Helper()
	h := newHarnessOn(t, db)
	b, err := New(Options{Store: h.Db, DefaultLanguage: "en", Seed: func() int64 { return seed }, Observer: h.Obs,
		NoPictures: !pictures, Games: []present.Game{game}})
	require.NoError(t, err)
	b.workBudget, b.deferAfter = harnessBudget, harnessBudget
	h.b = b
	return h
}

// dixNow is the channel's DIX game, its table data and the record's
// state bytes (nil game: a lobby); over reports the record archived.
func (h *harness) dixNow() (g *dix.Game, td *tableData, data []byte, over bool) {
	h.T.Helper()
	r, err := h.b.get(context.Background(), h.Channel) // as the table reads it
	require.NoError(h.T, err)
	require.Equal(h.T, "dix", r.Game)
	td, err = decodeTableData(r.Meta)
	require.NoError(h.T, err)
	if r.Data == nil {
		return nil, td, nil, r.Finished
	}
	st, err := dix.Rules{}.Decode(r.Data)
	require.NoError(h.T, err)
	return st.(dix.State).Game(), td, r.Data, r.Finished
}

// dixID is the custom id among msg's components of the DIX verb (and the
// argument, when given).
func dixID(msg *tabletest.Message, verb, arg string) (string, bool) {
	return gameFind("dix", msg, verb, arg)
}

func (h *harness) dixMust(msg *tabletest.Message, verb, arg string) string {
	h.T.Helper()
	id, ok := dixID(msg, verb, arg)
	require.True(h.T, ok, "no %s:%s among %v in %q", verb, arg, tabletest.ComponentIDs(msg.Components), msg.Content)
	return id
}

// dixDriver plays people's seats of a DIX game on the shared table as a
// person does, through the board's buttons and the prompts' steps, each
// decision the normal computer player's; it checks every step against
// Discord's limits, and that the game stored is the one the engine plays
// from the same decisions (mirror).
type dixDriver struct {
	h      *harness
	users  []string
	rng    *rand.Rand
	mirror *dix.Game
	// Seen counts the steps and the ways through them that were taken.
	seen map[string]int
	// follow: the game has computer seats, which the mirror does not
	// play; it follows the game stored instead.
	follow bool
	// gap, when set, is the time each decision takes: now (the bot's
	// clock) moves on by it before each.
	gap time.Duration
	now *time.Time
}

// clicked applies to the mirror the move the table applied for seat, and
// the decisions the table takes alone after it (forced ones).
func (d *dixDriver) clicked(seat int, m engine.Move) {
	d.h.T.Helper()
	st := dix.StateOf(d.mirror)
	_, err := st.Apply(seat, m)
	require.NoError(d.h.T, err, "the mirror refuses %q", m)
	for moved := true; moved && !st.Over(); {
		moved = false
		for _, s := range st.ToDecide() {
			if fm, ok := st.Forced(s); ok {
				_, err := st.Apply(s, fm)
				require.NoError(d.h.T, err)
				moved = true
				break
			}
		}
	}
}

// choose picks the option of prompt's menu whose value is val, and
// returns the prompt as shown then.
func (d *dixDriver) choose(user string, prompt *tabletest.Message, val string) (*tabletest.Message, result) {
	d.h.T.Helper()
	sel := d.h.dixMust(prompt, verbSelect, "")
	require.Contains(d.h.T, tabletest.SelectOptions(prompt, sel), val)
	res := d.h.ClickOn(user, prompt, sel, val)
	shown := res.Shown(prompt)
	if shown == nil && res.Dismissed(prompt) {
		// The decision is taken: its prompt said so and went.
		require.Equal(d.h.T, locales.T("en", "table_prompt_done", nil), res.AnsweredText(prompt), res.Describe())
		return nil, res
	}
	require.NotNil(d.h.T, shown, res.Describe())
	fitsDiscord(d.h.T.(*testing.T), val, shown.Components)
	return shown, res
}

// step shows the step of draft of prompt, by its menu or its button.
func (d *dixDriver) step(user string, prompt *tabletest.Message, draft string) *tabletest.Message {
	d.h.T.Helper()
	if id, ok := dixID(prompt, verbStep, draft); ok {
		res := d.h.ClickOn(user, prompt, id)
		shown := res.Shown(prompt)
		require.NotNil(d.h.T, shown, res.Describe())
		fitsDiscord(d.h.T.(*testing.T), draft, shown.Components)
		return shown
	}
	shown, _ := d.choose(user, prompt, "st:"+draft)
	return shown
}

// pay pays from a payment step (a buy's or an auction's): with the Pay
// button when the engine proposes want, else through the picker; it
// returns the move applied.
func (d *dixDriver) pay(user string, seat int, prompt *tabletest.Message, target string, want dix.Action) engine.Move {
	h := d.h
	h.T.Helper()
	// Half the payments the engine proposes are still picked by hand.
	if id, ok := dixID(prompt, verbMove, string(dix.FormatMove(want))); ok && d.rng.IntN(2) == 0 {
		d.seen["pay proposed"]++
		h.ClickOn(user, prompt, id)
		return dix.FormatMove(want)
	}
	d.seen["picker"]++
	g := d.mirror
	p := botdix.Pick{Target: target}
	prompt = d.step(user, prompt, "p "+p.Arg())
	list, _ := botdix.Spendable(g, seat)
	page := 0
	draft := func() string {
		if page == 0 {
			return "p " + p.Arg()
		}
		return "p " + p.Arg(strconv.Itoa(page))
	}
	for p.Money != want.Payment.Money {
		if p.Money < want.Payment.Money {
			p.Money++
		} else {
			p.Money--
		}
		prompt, _ = d.choose(user, prompt, "st:"+draft())
	}
	for p.Cons != want.Payment.Consolation {
		p.Cons++
		prompt, _ = d.choose(user, prompt, "st:"+draft())
	}
	used := make([]bool, len(list))
	for _, cd := range want.Payment.Cards {
		i := slices.IndexFunc(list, func(c dix.Card) bool { return c == cd })
		for i >= 0 && used[i] {
			j := slices.IndexFunc(list[i+1:], func(c dix.Card) bool { return c == cd })
			if j < 0 {
				i = -1
				break
			}
			i += 1 + j
		}
		require.GreaterOrEqual(h.T, i, 0, "the picker offers %v", cd)
		used[i] = true
		for page != i/19 {
			if page < i/19 {
				page++
			} else {
				page--
			}
			prompt, _ = d.choose(user, prompt, "st:"+draft())
			d.seen["picker page"]++
		}
		p.Cards |= 1 << uint(i)
		prompt, _ = d.choose(user, prompt, "st:"+draft())
	}
	var confirm string
	for _, id := range tabletest.ComponentIDs(prompt.Components) {
		if cp, err := parseID(id, gameVerbs); err == nil && cp.Verb == verbMove {
			confirm = cp.Arg
		}
	}
	require.NotEmpty(h.T, confirm, "no Confirm: %s", prompt.Content)
	got, err := dix.ParseMove(seat, engine.Move(confirm))
	require.NoError(h.T, err)
	assert.Equal(h.T, want.Payment.Value(), got.Payment.Value())
	assert.ElementsMatch(h.T, want.Payment.Cards, got.Payment.Cards)
	assert.Equal(h.T, want.Payment.Money, got.Payment.Money)
	assert.Equal(h.T, want.Payment.Consolation, got.Payment.Consolation)
	h.ClickOn(user, prompt, h.dixMust(prompt, verbMove, confirm))
	return engine.Move(confirm)
}

// play plays the game to its end, at most steps decisions.
func (d *dixDriver) play(steps int) {
	for n := 0; d.decide(); n++ {
		require.Less(d.h.T, n, steps, "the game does not end")
	}
}

// decide makes the decision of the seat to act, and reports whether the
// game went on (false: it is over, nothing was done).
func (d *dixDriver) decide() bool {
	h := d.h
	t := h.T
	g, td, data, over := h.dixNow()
	if d.follow {
		d.mirror = g
	}
	require.Equal(t, d.mirror.AppendBinary(nil), data, "the game stored is the engine's from the same decisions")
	if over || g.Phase == dix.PhaseOver {
		return false
	}
	if d.gap > 0 {
		*d.now = d.now.Add(d.gap)
	}
	seat := g.ToAct()
	require.GreaterOrEqual(t, seat, 0)
	require.Less(t, seat, len(d.users), "the table waits for a computer seat")
	user := d.users[seat]
	board := h.Rec.Message(td.Board)
	require.NotNil(t, board)
	fitsDiscord(t.(*testing.T), "board", board.Components)
	a := cdix.Decide(g, seat, computer.Normal, d.rng)
	m := dix.FormatMove(a)
	switch a.Kind {
	case dix.ActBuy:
		d.seen["buy"]++
		res := h.ClickOn(user, board, h.dixMust(board, verbPrompt, ""))
		prompt := res.Shown(nil)
		require.NotNil(t, prompt)
		require.NotEmpty(t, prompt.Components, res.Describe())
		if !slices.Contains(tabletest.SelectOptions(prompt, h.dixMust(prompt, verbSelect, "")), "st:b "+a.Card.String()) {
			d.seen["market by colour"]++
			prompt = d.step(user, prompt, "c "+a.Card.Color.String())
		}
		prompt = d.step(user, prompt, "b "+a.Card.String())
		m = d.pay(user, seat, prompt, a.Card.String(), a)
	case dix.ActBid:
		d.seen["bid"]++
		prompt := h.ClickOn(user, board, h.dixMust(board, verbPrompt, "")).Shown(nil)
		require.NotNil(t, prompt)
		for k := 0; !slices.Contains(tabletest.SelectOptions(prompt, h.dixMust(prompt, verbSelect, "")), "mv:"+string(m)); k++ {
			require.Less(t, k, 10, "no page of bids holds %q", m)
			var next string
			for _, v := range tabletest.SelectOptions(prompt, h.dixMust(prompt, verbSelect, "")) {
				if s, ok := strings.CutPrefix(v, "st:a "); ok {
					if from, _ := strconv.Atoi(s); from <= a.Amount {
						next = v
					}
				}
			}
			require.NotEmpty(t, next)
			prompt, _ = d.choose(user, prompt, next)
			d.seen["bid page"]++
		}
		_, res := d.choose(user, prompt, "mv:"+string(m))
		d.clicked(seat, m)
		if d.mirror.Phase == dix.PhaseAuctionPay && d.mirror.ToAct() == seat && !dix.StateOf(d.mirror).Over() {
			if _, forced := dix.StateOf(d.mirror).Forced(seat); !forced {
				// The bid won: the same prompt turns into the payment.
				d.seen["bid won, pay"]++
				shown := res.Shown(prompt)
				assert.Contains(t, shown.Content, locales.T("en", "table_prompt_done", nil))
				_, ok := dixID(shown, verbStep, "p "+botdix.Pick{Target: botdix.PickAuction}.Arg())
				assert.True(t, ok, "the payment step follows the bid that won: %v", tabletest.ComponentIDs(shown.Components))
			}
		}
		return true
	case dix.ActPay:
		d.seen["auction pay"]++
		prompt := h.ClickOn(user, board, h.dixMust(board, verbPrompt, "")).Shown(nil)
		require.NotNil(t, prompt)
		m = d.pay(user, seat, prompt, botdix.PickAuction, a)
	default:
		d.seen[a.Kind.String()]++
		res := h.ClickOn(user, board, h.dixMust(board, verbMove, string(m)))
		// The board itself is the answer: at once, or deferred on a
		// machine too busy to answer within the budget.
		require.Contains(t, []discordgo.InteractionResponseType{discordgo.InteractionResponseUpdateMessage, discordgo.InteractionResponseDeferredMessageUpdate},
			res.Response().Type, res.Describe())
	}
	d.clicked(seat, m)
	return true
}

// A solo game against ALIX on the shared table plays to its end through
// the board's buttons and the prompts' steps (the market, the bid and the
// payment, the picker), at the difficulty and in the variant chosen at
// the start; every decision applied is the one chosen, and the final
// scoreboard's rematch starts a game on the same options at once.
func TestDixSharedSoloPlaysToTheEnd(t *testing.T) {
	t.Parallel()
	seen := map[string]int{}
	for _, seed := range []int64{3, 8} {
		h := newDixHarness(t, seed, false)
		board := h.openGame("dix", []string{"u1"}, map[string]string{"difficulty": "6", "bust": "on"})
		require.NotNil(t, board)
		g, td, _, _ := h.dixNow()
		require.NotNil(t, g)
		assert.True(t, g.Solo())
		assert.Equal(t, 6, g.Opts.Difficulty)
		assert.True(t, g.Opts.BustVariant)
		assert.Equal(t, map[string]string{"difficulty": "6", "bust": "on"}, td.Opts)
		mirror, err := dix.New(dix.Options{Players: 1, Seed: td.Seed, Difficulty: 6, BustVariant: true, FirstPlayer: 0})
		require.NoError(t, err)
		d := &dixDriver{h: h, users: []string{"u1"}, rng: rand.New(rand.NewPCG(uint64(seed), 1)), mirror: mirror, seen: seen}
		d.play(400)
		_, td, _, _ = h.dixNow()
		final := h.Rec.Message(td.Board)
		require.NotNil(t, final)
		require.NotEmpty(t, final.Embeds)
		assert.Equal(t, locales.T("en", "dix_score_title", nil), final.Embeds[0].Title)
		// The rematch of a solo game starts at once, on the same options.
		next := h.ClickOn("u1", final, h.dixMust(final, verbAgain, "")).Shown(nil)
		require.NotNil(t, next)
		g, td, _, over := h.dixNow()
		require.NotNil(t, g, "the rematch started")
		assert.False(t, over)
		assert.Equal(t, 6, g.Opts.Difficulty)
		assert.True(t, g.Opts.BustVariant)
		assert.Equal(t, map[string]string{"difficulty": "6", "bust": "on"}, td.Opts)
	}
	for _, way := range []string{"draw", "buy", "bid", "pay proposed", "picker"} {
		assert.Positive(t, seen[way], "no %s in %v", way, seen)
	}
	t.Logf("ways taken: %v", seen)
}

// Two people play a whole game of DIX on the shared table against each
// other, every decision through the board and the prompts.
func TestDixSharedTwoPeoplePlayToTheEnd(t *testing.T) {
	t.Parallel()
	seen := map[string]int{}
	for _, seed := range []int64{5, 12} {
		h := newDixHarness(t, seed, false)
		h.openGame("dix", []string{"u1", "u2"}, nil)
		_, td, _, _ := h.dixNow()
		mirror, err := dix.New(dix.Options{Players: 2, Seed: td.Seed, FirstPlayer: td.First - 1})
		require.NoError(t, err)
		d := &dixDriver{h: h, users: []string{"u1", "u2"}, rng: rand.New(rand.NewPCG(uint64(seed), 2)), mirror: mirror, seen: seen}
		d.play(600)
	}
	for _, way := range []string{"buy", "bid", "auction pay", "picker", "bid won, pay"} {
		assert.Positive(t, seen[way], "no %s in %v", way, seen)
	}
	t.Logf("ways taken: %v", seen)
}

// DIX's board on the shared table draws its picture and offers the hand
// and the board as text to any seat, privately; a step of a forged draft
// is refused as a forged custom id and writes nothing; the hint advises
// the seat to act.
func TestDixSharedBoardHandAndForgedSteps(t *testing.T) {
	t.Parallel()
	h := newDixHarness(t, 4, true)
	board := h.openGame("dix", []string{"u1", "u2"}, nil)
	require.NotNil(t, board)
	require.NotEmpty(t, board.Embeds)
	require.NotNil(t, board.Embeds[0].Image, "the board shows its picture")
	g, td, before, _ := h.dixNow()
	assert.NotEmpty(t, td.Pic, "the picture the board shows is known")

	for _, u := range []string{"u1", "u2"} {
		res := h.ClickOn(u, board, h.dixMust(board, verbStep, "hand"))
		hand := res.Shown(nil)
		require.NotNil(t, hand, res.Describe())
		assert.True(t, hand.Ephemeral)
		require.NotEmpty(t, hand.Embeds)
		assert.Equal(t, locales.T("en", "dix_hand_title_yours", nil), hand.Embeds[0].Title)
		text := h.ClickOn(u, board, h.dixMust(board, verbStep, "text")).Shown(nil)
		require.NotNil(t, text)
		assert.True(t, text.Ephemeral)
	}
	actor := []string{"u1", "u2"}[g.ToAct()]
	for _, draft := range []string{"b z9", "p w.99.0.0", "a 999", "c purple"} {
		id := buttonID("dix", verbStep, uint64(g.Seq), draft)
		txt := h.ClickOn(actor, board, id).EphemeralText()
		assert.Equal(t, locales.T("en", "err_bad_custom_id", nil), txt, draft)
	}
	_, _, after, _ := h.dixNow()
	assert.Equal(t, before, after, "a forged step changed the game")

	i := h.GameCommandIx("dix", actor, "hint")
	hint := h.Run(i).EphemeralText()
	assert.Contains(t, hint, locales.T("en", "dix_hint_title", nil))
}
