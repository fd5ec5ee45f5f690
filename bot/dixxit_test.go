package bot

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"log/slog"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	botdixxit "github.com/dixgame/dixbot/bot/dixxit"
	"github.com/dixgame/dixbot/bot/present"
	botqwixx "github.com/dixgame/dixbot/bot/qwixx"
	"github.com/dixgame/dixbot/engine"
	drules "github.com/dixgame/dixbot/engine/dixxit"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

// newDixxitHarness is a harness whose bot hosts Qwixx and Dixxit, with a
// sixth person, logging into logs when given.
func newDixxitHarness(t *testing.T, logs io.Writer) *harness {
	t.Helper()
	h := newHarness(t)
	h.Names["u6"] = "Fay"
	opts := Options{Store: h.Db, DefaultLanguage: "en", Seed: func() int64 { return 11 }, Observer: h.Obs,
		Games: []present.Game{botqwixx.Game(), botdixxit.Game()}}
	if logs != nil {
		opts.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	b, err := New(opts)
	require.NoError(t, err)
	b.workBudget, b.deferAfter = harnessBudget, harnessBudget
	h.b = b
	return h
}

// discordEpoch is the first millisecond of 2015, the origin of snowflake
// times (https://discord.com/developers/docs/reference#snowflakes).
const discordEpoch = 1420070400000

// dclick clicks a component with a snowflake interaction id.
func (h *harness) dclick(user string, msg *tabletest.Message, id string) result {
	h.T.Helper()
	i := h.ClickIx(user, msg, id)
	i.ID = h.snowflake()
	return h.Run(i)
}

// snowflake is the id of an interaction Discord receives now, on the
// bot's clock (Bot.Now), the clock of the computer's fingers too: the
// harness's count of interactions as its increment keeps ids apart.
func (h *harness) snowflake() string {
	return strconv.FormatUint(snowflakeAt(h.b.now())|uint64(h.N&0xfff), 10)
}

// computersDecide moves the bot's clock *now on to the record's Due, when
// a computer seat taking its time decides, and runs the due work then.
func (h *harness) computersDecide(now *time.Time) {
	h.T.Helper()
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(h.T, err)
	require.False(h.T, r.Due.IsZero(), "a computer seat decides without anything due")
	if r.Due.After(*now) {
		*now = r.Due
	}
	require.NoError(h.T, h.b.runDueOn(context.Background(), h.Rec, h.Channel, *now))
}

// dsubmit submits the clue form opened from the prompt msg.
func (h *harness) dsubmit(user string, msg *tabletest.Message, id, text string) result {
	h.T.Helper()
	return h.Run(h.submitIx(user, msg, id, text))
}

// submitIx is the interaction of user submitting the form id, opened on
// msg (nil: a command's), with text in its field.
func (h *harness) submitIx(user string, msg *tabletest.Message, id, text string) *discordgo.Interaction {
	i := h.Base(user, discordgo.InteractionModalSubmit)
	i.ID = h.snowflake()
	i.Data = discordgo.ModalSubmitInteractionData{CustomID: id, Components: []discordgo.MessageComponent{
		&discordgo.ActionsRow{Components: []discordgo.MessageComponent{&discordgo.TextInput{CustomID: modalText, Value: text}}}}}
	if msg != nil {
		i.Message = &discordgo.Message{ID: msg.ID, ChannelID: h.Channel, Flags: discordgo.MessageFlagsEphemeral, Components: msg.Components}
	}
	return i
}

// dfind returns the custom id of msg's Dixxit component with the verb
// (and, when given, the argument).
func dfind(msg *tabletest.Message, verb, arg string) (string, bool) {
	return gameFind("dixxit", msg, verb, arg)
}

func (h *harness) dmust(msg *tabletest.Message, verb, arg string) string {
	h.T.Helper()
	id, ok := dfind(msg, verb, arg)
	require.True(h.T, ok, "no %s:%s among %v", verb, arg, tabletest.ComponentIDs(msg.Components))
	return id
}

// dstate is the channel's Dixxit game, table data and record version.
func (h *harness) dstate() (*drules.Game, *tableData, uint64) {
	h.T.Helper()
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(h.T, err)
	require.Equal(h.T, "dixxit", r.Game)
	td, err := decodeTableData(r.Meta)
	require.NoError(h.T, err)
	if r.Data == nil {
		return nil, td, r.Version
	}
	st, err := drules.Rules{}.Decode(r.Data)
	require.NoError(h.T, err)
	return st.(*drules.Game), td, r.Version
}

// openDixxit opens a table in lang with the people given and cpus
// computer seats, starts it, and returns the board.
func (h *harness) openDixxit(lang string, people []string, cpus int) *tabletest.Message {
	h.T.Helper()
	lobby := h.dcommand(people[0], "start", "language", lang).Shown(nil)
	require.NotNil(h.T, lobby)
	for _, u := range people[1:] {
		require.True(h.T, answeredInPlace(h.dclick(u, lobby, h.dmust(lobby, verbJoin, ""))))
		lobby = h.Rec.Message(lobby.ID)
	}
	for range cpus {
		require.True(h.T, answeredInPlace(h.dclick(people[0], lobby, h.dmust(lobby, verbCPU, botdixxit.Level))))
		lobby = h.Rec.Message(lobby.ID)
	}
	require.True(h.T, answeredInPlace(h.dclick(people[0], lobby, h.dmust(lobby, verbGo, ""))))
	return h.Rec.Message(lobby.ID)
}

// answeredInPlace reports whether a click was answered on its message:
// updated at once, or deferred and then edited (a loaded machine).
func answeredInPlace(res result) bool {
	switch res.Response().Type {
	case discordgo.InteractionResponseUpdateMessage:
		return true
	case discordgo.InteractionResponseDeferredMessageUpdate:
		for _, c := range res.Calls {
			if c.Op == "editOriginal" {
				return true
			}
		}
	}
	return false
}

// giveClue opens the active person's prompt on board and gives text as
// the clue through the form; it returns the prompt and the answer.
func (h *harness) giveClue(user string, board *tabletest.Message, text string) (*tabletest.Message, result) {
	h.T.Helper()
	res := h.dclick(user, board, h.dmust(board, verbPrompt, ""))
	res.EphemeralText()
	prompt := res.Shown(nil)
	require.NotNil(h.T, prompt)
	open := h.dclick(user, prompt, h.dmust(prompt, verbModal, "clue"))
	resp := open.Response()
	require.Equal(h.T, discordgo.InteractionResponseModal, resp.Type)
	return prompt, h.dsubmit(user, prompt, resp.Data.CustomID, text)
}

// squareID is the custom id of square sq's button on board.
func (h *harness) squareID(board *tabletest.Message, g *drules.Game, sq int) string {
	h.T.Helper()
	return h.dmust(board, verbMove, "f "+strconv.Itoa(sq)+" "+strconv.FormatUint(g.ViewOf(engine.Public).Turn, 10))
}

// A Dixxit game with three people and one computer seat plays to its final
// scoreboard: clues through the private prompt's form (or said aloud),
// fingers by the board's square buttons; along the way a square already
// taken, a click by the clue-giver, a forged finger with its own time, a
// clue too long and a stale button are refused and change nothing.
func TestDixxitPlaysToTheEnd(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"en", "fr"} {
		t.Run(lang, func(t *testing.T) {
			h := newDixxitHarness(t, nil)
			if lang == "fr" {
				h.Locale = discordgo.French
			}
			now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
			h.b.now = func() time.Time { return now }
			users := []string{"u1", "u2", "u3"}
			board := h.openDixxit(lang, users, 1)
			assert.Len(t, board.Embeds, 1, "the grid picture")
			rng := rand.New(rand.NewPCG(5, 6))
			unchanged := func(version uint64, what string) {
				t.Helper()
				_, _, v := h.dstate()
				assert.Equal(t, version, v, "%s changed the game", what)
			}
			taken, notGuesser, forged, tooLong, stale, aloud, noPrompt := false, false, false, false, false, false, false
			var old *tabletest.Message
			var oldTurn uint64
			for step := 0; ; step++ {
				require.Less(t, step, 1000, "the game does not end")
				g, td, version := h.dstate()
				require.False(t, g.Over(), "the game ended without being archived")
				v := g.ViewOf(engine.Public)
				if g.Phase() == drules.PhaseClue {
					active := g.Active()
					require.Empty(t, td.Seats[active].Level, "a computer's clue is waited for")
					if !noPrompt {
						other := users[(active+1)%3]
						// Told who gives the clue, not that they have nothing to decide.
						assert.Equal(t, locales.T(lang, "dixxit_err_not_active", map[string]any{"Name": td.Seats[active].Name}),
							h.dclick(other, board, h.dmust(board, verbPrompt, "")).EphemeralText())
						unchanged(version, "another's prompt")
						noPrompt = true
					}
					if !aloud && step > 0 {
						res := h.dclick(users[active], board, h.dmust(board, verbPrompt, ""))
						prompt := res.Shown(nil)
						assert.Contains(t, prompt.Content, locales.T(lang, "dixxit_prompt", map[string]any{"Square": g.ViewOf(active).Secret.Target}))
						assert.Len(t, res.Response().Data.Files, 1, "the grid with the target framed")
						h.dclick(users[active], prompt, h.dmust(prompt, verbMove, "aloud"))
						aloud = true
					} else {
						if !tooLong {
							_, res := h.giveClue(users[active], board, strings.Repeat("x", 101))
							assert.Contains(t, res.Texts(), locales.T(lang, "dixxit_err_bad_clue", map[string]any{"Max": 100}))
							unchanged(version, "a clue too long")
							tooLong = true
						}
						prompt, res := h.giveClue(users[active], board, "night "+strconv.Itoa(step))
						assert.Equal(t, locales.T(lang, "table_prompt_done", nil), res.AnsweredText(prompt))
						assert.True(t, res.Dismissed(prompt), "the prompt goes once the clue is given: %s", res.Describe())
					}
					board = h.Rec.Message(board.ID)
					g2, _, _ := h.dstate()
					assert.True(t, g2.Phase() != drules.PhaseClue || g2.ViewOf(engine.Public).Turn > v.Turn || g2.Over(), "the clue was taken")
					if r, _ := h.Db.Get(context.Background(), h.Channel); r.Finished {
						break
					}
					if old == nil {
						cp := *board
						old, oldTurn = &cp, v.Turn
					}
					continue
				}
				var deciding, computers []int
				for _, s := range g.ToDecide() {
					if td.Seats[s].Level != "" {
						computers = append(computers, s)
					} else {
						deciding = append(deciding, s)
					}
				}
				require.NotEmpty(t, append(deciding, computers...))
				if len(deciding) == 0 || (len(computers) > 0 && rng.IntN(3) == 0) {
					// The computer's reaction time is over.
					h.computersDecide(&now)
					board = h.Rec.Message(board.ID)
					if r, _ := h.Db.Get(context.Background(), h.Channel); r.Finished {
						break
					}
					continue
				}
				now = now.Add(time.Second)
				seat := deciding[rng.IntN(len(deciding))]
				held := map[int]int{}
				for _, f := range v.Fingers {
					held[f.Square] = f.Seat
				}
				if !taken && len(v.Fingers) > 0 {
					f := v.Fingers[0]
					txt := h.dclick(users[seat], board, h.squareID(board, g, f.Square)).EphemeralText()
					assert.Equal(t, locales.T(lang, "dixxit_err_taken", map[string]any{"Name": td.Seats[f.Seat].Name}), txt)
					unchanged(version, "a taken square")
					taken = true
				}
				if !notGuesser {
					txt := h.dclick(users[g.Active()], board, h.squareID(board, g, 1+rng.IntN(9))).EphemeralText()
					assert.Equal(t, locales.T(lang, "dixxit_err_not_guessing", nil), txt)
					unchanged(version, "the clue-giver's finger")
					notGuesser = true
				}
				if !forged {
					for _, id := range []string{"dixxit:mv:" + strconv.FormatUint(g.Seq(), 10) + ":f 1 5 " + strconv.FormatUint(v.Turn, 10),
						"dixxit:mv:" + strconv.FormatUint(g.Seq(), 10) + ":skip", "dixxit:ms:1:clue", "dixxit:mv:" + strconv.FormatUint(g.Seq(), 10) + ":f 10 1"} {
						res := h.dclick(users[seat], board, id)
						assert.NotEmpty(t, res.EphemeralText(), id)
						unchanged(version, id)
					}
					forged = true
				}
				if old != nil && !stale && oldTurn < v.Turn {
					if id, ok := dfind(old, verbMove, ""); ok {
						res := h.dclick(users[seat], old, id)
						assert.Contains(t, res.Texts(), locales.T(lang, "err_stale", nil))
						unchanged(version, "a stale button")
						stale = true
					}
				}
				var free []int
				for sq := 1; sq <= 9; sq++ {
					if _, ok := held[sq]; !ok && v.Grid[sq-1] != "" {
						free = append(free, sq)
					}
				}
				sq := free[rng.IntN(len(free))]
				res := h.dclick(users[seat], board, h.squareID(board, g, sq))
				require.True(t, answeredInPlace(res), "%v", res.Texts())
				board = h.Rec.Message(board.ID)
				if r, _ := h.Db.Get(context.Background(), h.Channel); r.Finished {
					break
				}
			}
			for what, seen := range map[string]bool{"taken": taken, "not a guesser": notGuesser, "forged": forged, "too long": tooLong,
				"stale": stale, "aloud": aloud, "no prompt": noPrompt} {
				assert.True(t, seen, what)
			}
			t.Logf("%d interactions; final board:\n%s", h.N, board.Content)
			assert.Contains(t, board.Content, locales.T(lang, "dixxit_over_title", nil))
			assert.Len(t, board.Embeds, 2, "the scoreboard picture and the last turn scored")
			assert.Equal(t, []string{"dixxit:again:0"}, tabletest.ComponentIDs(board.Components), "the scoreboard has only Rematch")
		})
	}
}

// Five guessers clicking within the same 10 ms, in any processing order:
// a square clicked by all of them goes to the earliest click by Discord's
// time (the others told privately who was there first), and fingers on
// distinct squares stand in the order of their clicks' snowflakes (X7).
func TestDixxitRace(t *testing.T) {
	t.Parallel()
	h := newDixxitHarness(t, nil)
	users := []string{"u1", "u2", "u3", "u4", "u5", "u6"}
	board := h.openDixxit("en", users, 0)
	rng := rand.New(rand.NewPCG(8, 9))
	for round := range 6 {
		g, _, _ := h.dstate()
		require.Equal(t, drules.PhaseClue, g.Phase())
		active := g.Active()
		target := g.ViewOf(active).Secret.Target
		h.giveClue(users[active], board, "race "+strconv.Itoa(round))
		board = h.Rec.Message(board.ID)
		g, _, version := h.dstate()
		guessers := g.ToDecide()
		require.Len(t, guessers, 5)
		var wrong []int
		for sq := 1; sq <= 9; sq++ {
			if sq != target {
				wrong = append(wrong, sq)
			}
		}
		rng.Shuffle(len(wrong), func(i, j int) { wrong[i], wrong[j] = wrong[j], wrong[i] })
		// Snowflakes within 10 ms, given to the guessers in a random order.
		base := uint64(2_000_000 + 100*round)
		times := make([]string, len(guessers))
		for k := range times {
			times[k] = tabletest.Snowflake(base+uint64(rng.IntN(10)), uint64(k))
		}
		order := rng.Perm(len(guessers))
		race := func(squareOf func(k int) int, who []int) []*discordgo.Interaction {
			var ixs []*discordgo.Interaction
			for _, k := range who {
				ix := h.ClickIx(users[guessers[k]], board, h.squareID(board, g, squareOf(k)))
				ix.ID = times[k]
				ixs = append(ixs, ix)
			}
			var wg sync.WaitGroup
			for _, k := range order {
				if k >= len(ixs) {
					continue
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					h.b.Serve(h.Rec, &discordgo.InteractionCreate{Interaction: ixs[k]}, nil)
				}()
			}
			wg.Wait()
			return ixs
		}
		earliest := func(ks []int) int {
			best := ks[0]
			for _, k := range ks[1:] {
				a, _ := strconv.ParseUint(times[k], 10, 64)
				b, _ := strconv.ParseUint(times[best], 10, 64)
				if a < b {
					best = k
				}
			}
			return best
		}
		all := []int{0, 1, 2, 3, 4}
		// Everybody on one wrong square.
		mark := h.Rec.Count()
		race(func(int) int { return wrong[0] }, all)
		g, _, v := h.dstate()
		pv := g.ViewOf(engine.Public)
		require.Len(t, pv.Fingers, 1, "one finger on the square")
		first := earliest(all)
		assert.Equal(t, drules.FingerView{Seat: guessers[first], Square: wrong[0]}, pv.Fingers[0])
		assert.Greater(t, v, version)
		for _, k := range all {
			if k != first {
				assert.Contains(t, g.ToDecide(), guessers[k], "a later click picks again")
			}
		}
		// Each later click is told privately who was there first (the
		// holder when it was processed), or, when it was processed first
		// and lifted, by the board's line.
		taken := locales.T("en", "dixxit_err_taken", map[string]any{"Name": ""})
		refused := 0
		for _, c := range h.Rec.Since(mark) {
			if (c.Resp != nil && c.Resp.Data != nil && strings.Contains(c.Resp.Data.Content, taken)) || (c.Params != nil && strings.Contains(c.Params.Content, taken)) {
				refused++
			}
		}
		lifted := strings.Count(h.Rec.Message(board.ID).Content, "picks again")
		assert.Equal(t, 4, refused+lifted, "refused %d, lifted %d", refused, lifted)
		// Three of the four others on distinct wrong squares, at once.
		var rest []int
		for _, k := range all {
			if k != first {
				rest = append(rest, k)
			}
		}
		board = h.Rec.Message(board.ID)
		rest3 := rest[:3]
		sq := map[int]int{}
		for i, k := range rest3 {
			sq[k] = wrong[1+i]
		}
		// The second clicks come later than the first ones.
		for _, k := range rest3 {
			times[k] = tabletest.Snowflake(base+20+uint64(rng.IntN(10)), uint64(k))
		}
		race(func(k int) int { return sq[k] }, rest3)
		g, _, _ = h.dstate()
		pv = g.ViewOf(engine.Public)
		require.Len(t, pv.Fingers, 4)
		byTime := slices.Clone(rest3)
		sort.Slice(byTime, func(i, j int) bool {
			a, _ := strconv.ParseUint(times[byTime[i]], 10, 64)
			b, _ := strconv.ParseUint(times[byTime[j]], 10, 64)
			return a < b
		})
		for i, k := range byTime {
			assert.Equal(t, drules.FingerView{Seat: guessers[k], Square: sq[k]}, pv.Fingers[1+i], "finger %d", i+1)
		}
		// The last guesser finds it: the turn is scored.
		board = h.Rec.Message(board.ID)
		last := rest[3]
		// (The id of the current version: concurrent answers may leave a
		// board one version behind, whose click is answered as outdated.)
		ix := h.ClickIx(users[guessers[last]], board, buttonID("dixxit", verbMove, g.Seq(), "f "+strconv.Itoa(target)+" "+strconv.FormatUint(pv.Turn, 10)))
		ix.ID = tabletest.Snowflake(base+50, 0)
		res := h.Run(ix)
		require.True(t, answeredInPlace(res), "%v", res.Texts())
		board = h.Rec.Message(board.ID)
		g, _, _ = h.dstate()
		assert.Equal(t, pv.Turn+1, g.ViewOf(engine.Public).Turn)
	}
}

// withTarget is g with the turn's target on square sq (1–9): the target
// byte of its serialised form rewritten (engine/dixxit's codec: version,
// players, first, seed, seq, turn, active, phase, target).
func withTarget(t *testing.T, data []byte, sq int) []byte {
	t.Helper()
	b := slices.Clone(data)
	i := 3
	for _, signed := range []bool{true, false, false} {
		var n int
		if signed {
			_, n = binary.Varint(b[i:])
		} else {
			_, n = binary.Uvarint(b[i:])
		}
		require.Positive(t, n)
		i += n
	}
	b[i+2] = byte(sq - 1)
	st, err := drules.Rules{}.Decode(b)
	require.NoError(t, err)
	require.Equal(t, sq, st.(*drules.Game).ViewOf(st.(*drules.Game).Active()).Secret.Target)
	return b
}

// whatLogsSay is what log lines say, without their time or the lines a
// slow machine adds (an answer deferred, effects held longer).
func whatLogsSay(logs string) string {
	var out []string
	for _, l := range strings.Split(logs, "\n") {
		if l == "" || strings.Contains(l, `msg="answer deferred"`) || strings.Contains(l, `msg="effects held longer"`) {
			continue
		}
		if _, rest, ok := strings.Cut(l, " "); ok && strings.HasPrefix(l, "time=") {
			l = rest
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// X11: the public board of one position with two different targets — its
// text, picture bytes, embeds, buttons and their custom ids, and the log
// lines — is the same, before and after the clue and a wrong finger; the
// active player's prompt differs.
func TestDixxitPublicBoardHidesTheTarget(t *testing.T) {
	t.Parallel()
	type shot struct {
		content string
		ids     []string
		embeds  string
		files   [][]byte
		logs    string
	}
	play := func(target int) (shots []shot, prompt []byte) {
		var logs bytes.Buffer
		h := newDixxitHarness(t, &logs)
		// One time for both games: the board shows when each clock runs out.
		at := time.Date(2026, 11, 25, 21, 0, 0, 0, time.UTC)
		h.b.now = func() time.Time { return at }
		users := []string{"u1", "u2", "u3", "u4"}
		board := h.openDixxit("en", users, 0)
		retarget := func() {
			_, err := h.Db.Update(context.Background(), h.Channel, "retarget-"+strconv.Itoa(h.N), func(r *dixbot.Record) error {
				r.Data = withTarget(t, r.Data, target)
				return nil
			})
			require.NoError(t, err)
		}
		retarget()
		snap := func() {
			res := h.dcommand("u2", "board")
			d := res.Response().Data
			board = res.Shown(nil) // the board from now on
			s := shot{content: d.Content, ids: tabletest.ComponentIDs(d.Components), logs: whatLogsSay(logs.String())}
			for _, e := range d.Embeds {
				s.embeds += e.Image.URL
			}
			for _, f := range d.Files {
				b, err := io.ReadAll(f.Reader)
				require.NoError(t, err)
				s.files = append(s.files, b)
			}
			shots = append(shots, s)
		}
		snap()
		g, _, _ := h.dstate()
		active := g.Active()
		res := h.dclick(users[active], board, h.dmust(board, verbPrompt, ""))
		for _, f := range res.Response().Data.Files {
			prompt, _ = io.ReadAll(f.Reader)
		}
		h.giveClue(users[active], board, "moon")
		board = h.Rec.Message(board.ID)
		snap()
		g, _, _ = h.dstate()
		wrong := 1
		for wrong == 4 || wrong == 6 {
			wrong++
		}
		h.dclick(users[g.ToDecide()[0]], board, h.squareID(board, g, wrong))
		snap()
		return shots, prompt
	}
	a, pa := play(4)
	b, pb := play(6)
	require.Len(t, a, 3)
	for i := range a {
		assert.Equal(t, a[i].content, b[i].content, "shot %d: text", i)
		assert.Equal(t, a[i].ids, b[i].ids, "shot %d: custom ids", i)
		assert.Equal(t, a[i].embeds, b[i].embeds, "shot %d: embeds", i)
		assert.Equal(t, a[i].files, b[i].files, "shot %d: pictures", i)
		assert.NotEmpty(t, a[i].files, "shot %d: a picture", i)
		assert.Equal(t, a[i].logs, b[i].logs, "shot %d: logs", i)
	}
	assert.NotEqual(t, pa, pb, "the active player's own grid frames the target")
}

// X9 under the live pace: a person who never clicks is out of every turn
// they guess once their time runs out (no finger, no card for anyone) and
// skips every turn they should give the clue; the others play, and the
// game reaches its scoreboard through the clocks.
func TestDixxitClockWithASilentPlayer(t *testing.T) {
	t.Parallel()
	h := newDixxitHarness(t, nil)
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.now = func() time.Time { return now }
	users := []string{"u1", "u2", "u3"}
	const silent = 2
	board := h.openDixxit("en", users, 0)
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	require.True(t, now.Add(botdixxit.LiveClue).Equal(r.Due), "the clue's deadline: %v", r.Due)
	rng := rand.New(rand.NewPCG(3, 4))
	outs, skips := 0, 0
	for step := 0; ; step++ {
		require.Less(t, step, 2000, "the game does not end")
		r, err := h.Db.Get(context.Background(), h.Channel)
		require.NoError(t, err)
		if r.Finished {
			break
		}
		board = h.Rec.Message(board.ID)
		g, _, _ := h.dstate()
		deciding := g.ToDecide()
		var people []int
		for _, s := range deciding {
			if s != silent {
				people = append(people, s)
			}
		}
		if len(people) == 0 {
			// Only the silent seat decides: its time runs out.
			require.False(t, r.Due.IsZero(), "a decision waits without a clock")
			want := botdixxit.LiveGuess
			if g.Phase() == drules.PhaseClue {
				want = botdixxit.LiveClue
				skips++
			} else {
				outs++
			}
			assert.LessOrEqual(t, r.Due.Sub(now), want, "the deadline is within the pace's time")

			turn := g.ViewOf(engine.Public).Turn
			require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, r.Due.Add(-time.Millisecond)))
			g2, _, _ := h.dstate()
			assert.Equal(t, g.Seq(), g2.Seq(), "nothing happens before the deadline")
			now = r.Due
			require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, now))
			g2, _, _ = h.dstate()
			if !g2.Over() {
				assert.Equal(t, turn+1, g2.ViewOf(engine.Public).Turn, "the turn passes")
			}
			continue
		}
		now = now.Add(time.Second)
		seat := people[rng.IntN(len(people))]
		if g.Phase() == drules.PhaseClue {
			h.giveClue(users[seat], board, "clock "+strconv.Itoa(step))
			continue
		}
		v := g.ViewOf(engine.Public)
		held := map[int]bool{}
		for _, f := range v.Fingers {
			held[f.Square] = true
		}
		var free []int
		for sq := 1; sq <= 9; sq++ {
			if !held[sq] && v.Grid[sq-1] != "" {
				free = append(free, sq)
			}
		}
		h.dclick(users[seat], board, h.squareID(board, g, free[rng.IntN(len(free))]))
	}
	assert.Positive(t, outs, "the silent guesser ran out of time")
	assert.Positive(t, skips, "the silent clue-giver ran out of time")
	g, _, _ := h.dstate()
	assert.Empty(t, g.ViewOf(engine.Public).Holdings[silent], "the silent seat took nothing")
	shown := h.Rec.Message(board.ID)
	assert.Contains(t, shown.Content, locales.T("en", "dixxit_over_title", nil))
	assert.Equal(t, []string{"dixxit:again:0"}, tabletest.ComponentIDs(shown.Components), "the scoreboard has only Rematch")
	timedOut, skipped, out := false, false, false
	for _, c := range h.Rec.Since(0) {
		if (c.Op == "edit" || c.Op == "followupEdit") && c.Edit.ID == board.ID && c.Edit.Content != nil {
			timedOut = timedOut || strings.Contains(*c.Edit.Content, locales.T("en", "table_timed_out", map[string]any{"Name": "Chloé"}))
			skipped = skipped || strings.Contains(*c.Edit.Content, locales.T("en", "dixxit_ev_skipped", map[string]any{"Name": "Chloé"}))
			out = out || strings.Contains(*c.Edit.Content, locales.T("en", "dixxit_ev_out", map[string]any{"Name": "Chloé"}))
		}
	}
	assert.True(t, timedOut && skipped && out, "the board tells: timed out %v, skipped %v, out %v", timedOut, skipped, out)
}

// X9, X10: a table whose people all stop clicking plays on by itself to
// its scoreboard. Each runs out of time twice and is marked absent; from
// then on the computer gives an absent active player's clue at once and an
// absent guesser is out, so each turn's target leaves the grid and the
// pile runs down (a clue skipped by everyone would leave the grid as it is,
// turn after turn, and the game would never end).
func TestDixxitTableOfAbsentPeoplePlaysToTheEnd(t *testing.T) {
	t.Parallel()
	h := newDixxitHarness(t, nil)
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.now = func() time.Time { return now }
	board := h.openDixxit("en", []string{"u1", "u2", "u3"}, 0)
	shown := h.playOut(board, &now)
	assert.Contains(t, shown.Content, locales.T("en", "dixxit_over_title", nil))
	g, td, _ := h.dstate()
	require.True(t, g.Over())
	for s, seat := range td.Seats {
		assert.True(t, seat.Away, "seat %d is absent", s)
	}
	clues := 0
	for _, c := range h.Rec.Since(0) {
		if c.Edit != nil && c.Edit.ID == board.ID && c.Edit.Content != nil && strings.Contains(*c.Edit.Content, "💬") {
			clues++
		}
	}
	assert.Positive(t, clues, "the board showed the computer's clues for the absent")
}

// X10: a person who leaves the running game hands their seat to the
// computer, which gives its clues at once and puts its fingers down once
// its reaction time is over, by itself (the due work); the others play to
// the scoreboard without ever waiting for that seat's click.
func TestDixxitLeaverPlayedByTheComputer(t *testing.T) {
	t.Parallel()
	h := newDixxitHarness(t, nil)
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.now = func() time.Time { return now }
	users := []string{"u1", "u2", "u3"}
	board := h.openDixxit("en", users, 0)
	const leaver = 2
	res := h.dcommand(users[leaver], "leave")
	require.NotEmpty(t, res.Texts())
	_, td, _ := h.dstate()
	require.Equal(t, botdixxit.Level, td.Seats[leaver].Level, "the computer plays the seat")
	rng := rand.New(rand.NewPCG(12, 13))
	for step := 0; ; step++ {
		require.Less(t, step, 1000, "the game does not end")
		r, err := h.Db.Get(context.Background(), h.Channel)
		require.NoError(t, err)
		if r.Finished {
			break
		}
		board = h.Rec.Message(board.ID)
		g, _, _ := h.dstate()
		var deciding []int
		for _, s := range g.ToDecide() {
			if s != leaver {
				deciding = append(deciding, s)
			}
		}
		if len(deciding) == 0 {
			require.Equal(t, drules.PhaseGuess, g.Phase(), "the computer's clue is waited for")
			h.computersDecide(&now)
			continue
		}
		now = now.Add(time.Second)
		seat := deciding[rng.IntN(len(deciding))]
		if g.Phase() == drules.PhaseClue {
			h.giveClue(users[seat], board, "left "+strconv.Itoa(step))
			continue
		}
		v := g.ViewOf(engine.Public)
		held := map[int]bool{}
		for _, f := range v.Fingers {
			held[f.Square] = true
		}
		var free []int
		for sq := 1; sq <= 9; sq++ {
			if !held[sq] && v.Grid[sq-1] != "" {
				free = append(free, sq)
			}
		}
		h.dclick(users[seat], board, h.squareID(board, g, free[rng.IntN(len(free))]))
	}
	shown := h.Rec.Message(board.ID)
	assert.Contains(t, shown.Content, locales.T("en", "dixxit_over_title", nil))
}

// The next clue-giver's clock starts when their clue is awaited, even
// when they were still guessing as another guesser found the target: the
// whole clue time (X9), not what the race left of it.
func TestDixxitNextClueGiverHasTheWholeClueTime(t *testing.T) {
	t.Parallel()
	h := newDixxitHarness(t, nil)
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.now = func() time.Time { return now }
	users := []string{"u1", "u2", "u3"}
	board := h.openDixxit("en", users, 0)
	g, _, _ := h.dstate()
	active := g.Active()
	target := g.ViewOf(active).Secret.Target
	h.giveClue(users[active], board, "soon")
	board = h.Rec.Message(board.ID)
	now = now.Add(30 * time.Second)
	g, _, _ = h.dstate()
	next, finder := (active+1)%3, (active+2)%3
	require.Contains(t, g.ToDecide(), next, "still guessing")
	res := h.dclick(users[finder], board, h.squareID(board, g, target))
	require.True(t, answeredInPlace(res), "%v", res.Texts())
	g, _, _ = h.dstate()
	require.Equal(t, next, g.Active())
	require.Equal(t, drules.PhaseClue, g.Phase())
	r, err := h.Db.Get(context.Background(), h.Channel)
	require.NoError(t, err)
	assert.True(t, now.Add(botdixxit.LiveClue).Equal(r.Due), "the clue's deadline %v, want %v", r.Due, now.Add(botdixxit.LiveClue))
}

// The square buttons keep their custom ids through a turn's race
// (present.Game.SteadyButtons): a finger redraws the board, and a click on
// a square as drawn before that redraw is still a click on that square
// (X7: the guessers race at once). A square of the turn before is refused:
// that turn's guessing is over.
func TestDixxitSquareButtonsSteadyWithinARace(t *testing.T) {
	t.Parallel()
	h := newDixxitHarness(t, nil)
	users := []string{"u1", "u2", "u3", "u4"}
	board := h.openDixxit("en", users, 0)
	g, _, _ := h.dstate()
	active := g.Active()
	target := g.ViewOf(active).Secret.Target
	h.giveClue(users[active], board, "steady")
	board = h.Rec.Message(board.ID)
	g, _, _ = h.dstate()
	var wrong []int
	for sq := 1; sq <= 9; sq++ {
		if sq != target {
			wrong = append(wrong, sq)
		}
	}
	before := h.squareID(board, g, wrong[1])
	guessers := g.ToDecide()
	require.Len(t, guessers, 3)
	res := h.dclick(users[guessers[0]], board, h.squareID(board, g, wrong[0]))
	require.True(t, answeredInPlace(res), "%v", res.Texts())
	board = h.Rec.Message(board.ID)
	assert.Equal(t, before, h.squareID(board, g, wrong[1]), "square %d's button after another's finger", wrong[1])
	res = h.dclick(users[guessers[1]], board, before)
	require.True(t, answeredInPlace(res), "the button as drawn before: %v", res.Texts())
	g, _, _ = h.dstate()
	assert.Contains(t, g.ViewOf(engine.Public).Fingers, drules.FingerView{Seat: guessers[1], Square: wrong[1]})

	// The last guesser ends the turn.
	res = h.dclick(users[guessers[2]], board, h.squareID(board, g, target))
	require.True(t, answeredInPlace(res), "%v", res.Texts())
	g, _, version := h.dstate()
	require.Equal(t, uint64(2), g.ViewOf(engine.Public).Turn)
	late := h.dclick(users[guessers[0]], board, before)
	assert.Contains(t, late.Texts(), locales.T("en", "dixxit_err_turn_over", nil), "a square of the turn before")
	_, _, v := h.dstate()
	assert.Equal(t, version, v, "a square of the turn before changes nothing")
}

// Computer guessers take a person's reaction time (present.Game.Reaction):
// none puts its finger down as the clue comes out; the record is due when
// the first of them decides, seconds later; a person who clicks the target
// before that wins it. When the due work runs late, the computer's finger
// still carries the time its decision was due: a click Discord received
// before it takes the square from the computer, one received after it is
// refused (X7).
func TestDixxitComputerGuessersTakeTheirTime(t *testing.T) {
	t.Parallel()
	h := newDixxitHarness(t, nil)
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.now = func() time.Time { return now }
	users := []string{"u1", "u2"}
	board := h.openDixxit("en", users, 2)
	clue := func(turn int) (*drules.Game, *tableData, time.Time) {
		t.Helper()
		g, _, _ := h.dstate()
		if g.Phase() == drules.PhaseClue {
			h.giveClue(users[g.Active()], board, "wait "+strconv.Itoa(turn))
			board = h.Rec.Message(board.ID)
		}
		g, td, _ := h.dstate()
		require.Equal(t, drules.PhaseGuess, g.Phase())
		for _, f := range g.ViewOf(engine.Public).Fingers {
			assert.Empty(t, td.Seats[f.Seat].Level, "a computer's finger as the clue came out")
		}
		r, err := h.Db.Get(context.Background(), h.Channel)
		require.NoError(t, err)
		return g, td, r.Due
	}
	person := func(g *drules.Game) int {
		for _, s := range g.ToDecide() {
			if s < 2 {
				return s
			}
		}
		return -1
	}

	// The first clue: a person one second after it finds the target.
	g, td, due := clue(0)
	wakes := 0
	for _, s := range g.ToDecide() {
		if td.Seats[s].Level != "" {
			wakes++
			at := time.UnixMilli(td.Wake[s])
			assert.True(t, !at.Before(now.Add(2*time.Second)) && !at.After(now.Add(10*time.Second)), "seat %d decides at %v", s, at.Sub(now))
			assert.False(t, at.Before(due), "the record is due by the first computer's time")
		}
	}
	require.Positive(t, wakes, "a computer guesser")
	seat := person(g)
	require.GreaterOrEqual(t, seat, 0, "a person guesses")
	target := g.ViewOf(g.Active()).Secret.Target
	turn := g.ViewOf(engine.Public).Turn
	now = now.Add(time.Second)
	res := h.dclick(users[seat], board, h.squareID(board, g, target))
	require.True(t, answeredInPlace(res), "%v", res.Texts())
	g, _, _ = h.dstate()
	last := g.ViewOf(engine.Public).Last
	require.NotNil(t, last)
	require.Equal(t, turn, last.Turn)
	assert.Contains(t, last.Fingers, drules.FingerView{Seat: seat, Square: target}, "the person found it first")
	board = h.Rec.Message(board.ID)

	// Later turns: the due work runs two seconds late; a click Discord
	// received before the computer's time takes its square.
	for round := 1; ; round++ {
		require.Less(t, round, 30, "no computer finger on a wrong square")
		g, td, due = clue(round)
		require.False(t, due.IsZero())
		target = g.ViewOf(g.Active()).Secret.Target
		turn = g.ViewOf(engine.Public).Turn
		now = due.Add(2 * time.Second)
		require.NoError(t, h.b.runDueOn(context.Background(), h.Rec, h.Channel, now))
		board = h.Rec.Message(board.ID)
		g, _, _ = h.dstate()
		pv := g.ViewOf(engine.Public)
		if pv.Turn != turn || len(pv.Fingers) == 0 || person(g) < 0 {
			continue // the computer found it, or no person is left to click
		}
		f := pv.Fingers[0]
		require.NotEmpty(t, td.Seats[f.Seat].Level, "the computer's finger")
		require.NotEqual(t, target, f.Square)
		seat = person(g)
		// Received after the computer's time: refused.
		late := h.ClickIx(users[seat], board, h.squareID(board, g, f.Square))
		late.ID = strconv.FormatUint(snowflakeAt(due.Add(500*time.Millisecond))|1, 10)
		assert.Contains(t, h.Run(late).Texts(), locales.T("en", "dixxit_err_taken", map[string]any{"Name": td.Seats[f.Seat].Name}))
		// Received before it: the square is the person's.
		early := h.ClickIx(users[seat], board, h.squareID(board, g, f.Square))
		early.ID = strconv.FormatUint(snowflakeAt(due.Add(-500*time.Millisecond))|2, 10)
		res := h.Run(early)
		require.True(t, answeredInPlace(res), "%v", res.Texts())
		g, _, _ = h.dstate()
		pv = g.ViewOf(engine.Public)
		assert.Contains(t, pv.Fingers, drules.FingerView{Seat: seat, Square: f.Square}, "the earlier click holds the square")
		assert.NotContains(t, pv.Fingers, f, "the computer's finger is lifted")
		assert.Contains(t, g.ToDecide(), f.Seat, "the computer picks again")
		break
	}
}

// The board tells the current turn only (present.Rounder): while the next
// clue is awaited it says how the turn before ended, and once the clue is
// out, the race shows only the new turn's lines; no line of the turn
// before (its wrong fingers, its find) is mixed into it. The game's log
// keeps every line.
func TestDixxitBoardTellsTheCurrentTurnOnly(t *testing.T) {
	t.Parallel()
	h := newDixxitHarness(t, nil)
	users := []string{"u1", "u2", "u3", "u4"}
	board := h.openDixxit("en", users, 0)
	g, td, _ := h.dstate()
	active := g.Active()
	target := g.ViewOf(active).Secret.Target
	wrong := 1 + target%9
	h.giveClue(users[active], board, "first clue")
	board = h.Rec.Message(board.ID)
	g, _, _ = h.dstate()
	guessers := g.ToDecide()
	require.Len(t, guessers, 3)
	res := h.dclick(users[guessers[0]], board, h.squareID(board, g, wrong))
	require.True(t, answeredInPlace(res), "%v", res.Texts())
	board = h.Rec.Message(board.ID)
	miss := locales.T("en", "dixxit_ev_finger", map[string]any{"Name": td.Seats[guessers[0]].Name, "Square": wrong})
	require.Contains(t, board.Content, miss, "the race shows its fingers")
	res = h.dclick(users[guessers[1]], board, h.squareID(board, g, target))
	require.True(t, answeredInPlace(res), "%v", res.Texts())
	board = h.Rec.Message(board.ID)
	found := locales.T("en", "dixxit_ev_found", map[string]any{"Name": td.Seats[guessers[1]].Name, "Square": target})

	g, _, _ = h.dstate()
	require.Equal(t, drules.PhaseClue, g.Phase())
	assert.Contains(t, board.Content, found, "while the clue is awaited: how the turn before ended")
	assert.NotContains(t, board.Content, miss, "a finger of the turn before")

	next := g.Active()
	h.giveClue(users[next], board, "second clue")
	board = h.Rec.Message(board.ID)
	assert.Contains(t, board.Content, "second clue")
	for _, old := range []string{miss, found, "first clue"} {
		assert.NotContains(t, board.Content, old, "the race of turn 2 shows a line of turn 1")
	}
	g, td, _ = h.dstate()
	target = g.ViewOf(next).Secret.Target
	guessers = g.ToDecide()
	wrong = 1 + target%9
	res = h.dclick(users[guessers[0]], board, h.squareID(board, g, wrong))
	require.True(t, answeredInPlace(res), "%v", res.Texts())
	board = h.Rec.Message(board.ID)
	assert.Contains(t, board.Content, locales.T("en", "dixxit_ev_finger", map[string]any{"Name": td.Seats[guessers[0]].Name, "Square": wrong}))
	for _, old := range []string{miss, found} {
		assert.NotContains(t, board.Content, old, "the race of turn 2 shows a line of turn 1")
	}
	log := h.dcommand("u1", "log").Texts()
	for _, line := range []string{miss, found} {
		assert.Contains(t, log, line, "the game's log keeps every line")
	}
}
