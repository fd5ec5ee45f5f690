package bot

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/bot/present"
	computer "github.com/dixgame/dixbot/computer/qwixx"
	rules "github.com/dixgame/dixbot/engine/qwixx"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

// The "My turn…" prompt reaches every plan the rules allow the active
// player (a white-sum decision and a colour-sum decision), through its
// steps, on every roll: nothing is cut at a menu's 25 options, every step
// fits Discord's limits, showing a step writes nothing, a forged draft is
// refused and changes nothing, and a plan chosen on the second step is
// applied.
func TestQwixxMyTurnReachesEveryPlan(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	users := []string{"u1", "u2", "u3"}
	board := h.openQwixx(users)
	rolls, forged := 0, false
	rng := rand.New(rand.NewPCG(39, 3))
	for step := 0; rolls < 3; step++ {
		require.Less(t, step, 300, "the active player had too few prompts")
		g, _, version := h.qstate()
		if g.Phase == rules.PhaseWhite && g.Deciding(g.Active) {
			rolls++
			active := users[g.Active]
			want := map[string]bool{}
			for _, w := range g.LegalActions(g.Active) {
				for _, c := range g.LegalPlans(w) {
					w.Plan = c.AsPlan()
					want[w.String()] = true
				}
			}
			open := func() *tabletest.Message {
				t.Helper()
				res := h.ClickOn(active, board, h.qmust(board, verbPrompt, ""))
				prompt := res.Shown(nil)
				require.NotNil(t, prompt, res.Describe())
				fitsDiscord(t, "first step", prompt.Components)
				return prompt
			}
			got := map[string]bool{}
			var steps []string
			first := open()
			sel := h.qmust(first, verbSelect, "")
			for _, v := range tabletest.SelectOptions(first, sel) {
				if draft, ok := strings.CutPrefix(v, "st:"); ok {
					steps = append(steps, draft)
					continue
				}
				got[strings.TrimPrefix(v, "mv:")] = true
			}
			var last *tabletest.Message
			var lastSel, lastVal string
			for _, draft := range steps {
				prompt := open()
				res := h.ClickOn(active, prompt, h.qmust(prompt, verbSelect, ""), "st:"+draft)
				shown := res.Shown(prompt)
				require.NotNil(t, shown, res.Describe())
				fitsDiscord(t, "step "+draft, shown.Components)
				_, _, v := h.qstate()
				require.Equal(t, version, v, "showing a step writes nothing")
				s2 := h.qmust(shown, verbSelect, "")
				for _, val := range tabletest.SelectOptions(shown, s2) {
					mv, ok := strings.CutPrefix(val, "mv:")
					require.True(t, ok, "a second step's choice is a plan: %q", val)
					assert.True(t, strings.HasPrefix(mv, draft+" "), "plan %q under the step %q", mv, draft)
					got[mv] = true
					last, lastSel, lastVal = shown, s2, val
				}
			}
			assert.Equal(t, want, got, "turn %d, white sum %d: every plan, and only plans", g.Turn, g.Dice.WhiteSum())
			if !forged {
				forged = true
				prompt := open()
				for _, id := range []string{buttonID("qwixx", verbStep, g.Seq, "w r13"), buttonID("qwixx", verbStep, g.Seq, "c -")} {
					res := h.ClickOn(active, prompt, id)
					assert.Contains(t, res.Texts(), locales.T("en", "err_bad_custom_id", nil), id)
				}
				res := h.ClickOn(active, prompt, h.qmust(prompt, verbSelect, ""), "st:w z")
				assert.Contains(t, res.Texts(), locales.T("en", "err_bad_custom_id", nil))
				_, _, v := h.qstate()
				require.Equal(t, version, v, "a forged draft changes nothing")
			}
			// A plan of the last step shown is applied.
			require.NotNil(t, last)
			res := h.ClickOn(active, last, lastSel, lastVal)
			assert.Equal(t, locales.T("en", "table_prompt_done", nil), res.AnsweredText(last), res.Describe())
			assert.True(t, res.Dismissed(last), "the prompt goes once its decision is taken: %s", res.Describe())
			g2, _, _ := h.qstate()
			assert.True(t, g2.Turn > g.Turn || g2.Choices[g.Active] != rules.ChoiceNone, "the plan was taken")
			board = h.Rec.Message(board.ID)
		}
		g, _, _ = h.qstate()
		if g.Over() {
			break
		}
		deciding := g.ToDecide()
		if len(deciding) == 0 {
			continue
		}
		seat := deciding[rng.IntN(len(deciding))]
		m, err := computer.Player{Level: computer.Normal}.Decide(rules.StateOf(g), seat, rand.New(rand.NewPCG(uint64(step), 1)))
		require.NoError(t, err)
		board = h.ClickOn(users[seat], board, h.qmust(board, verbMove, string(m))).Shown(board)
	}
	assert.True(t, forged)
}

// fitsDiscord asserts Discord's limits on a game's components:
// rows, buttons a row, options a menu, labels, custom ids that parse.
func fitsDiscord(t *testing.T, where string, comps []discordgo.MessageComponent) {
	t.Helper()
	assert.LessOrEqual(t, len(comps), present.MaxRows, "%s: rows", where)
	for _, c := range comps {
		row, ok := c.(discordgo.ActionsRow)
		require.True(t, ok, "%s: %T", where, c)
		assert.LessOrEqual(t, len(row.Components), present.MaxRowButtons, "%s: a row", where)
		for _, cc := range row.Components {
			var id string
			switch v := cc.(type) {
			case discordgo.Button:
				id = v.CustomID
				assert.LessOrEqual(t, utf8.RuneCountInString(v.Label), present.MaxButtonLabel, "%s: label %q", where, v.Label)
			case discordgo.SelectMenu:
				id = v.CustomID
				assert.LessOrEqual(t, len(v.Options), present.MaxOptions, "%s: options", where)
				for _, o := range v.Options {
					assert.LessOrEqual(t, utf8.RuneCountInString(o.Label), present.MaxOptionLabel, "%s: option %q", where, o.Label)
					assert.LessOrEqual(t, utf8.RuneCountInString(o.Value), present.MaxOptionValue, "%s: value %q", where, o.Value)
				}
			}
			assert.LessOrEqual(t, len(id), present.MaxCustomID, "%s: custom id %q", where, id)
			_, err := parseID(id, gameVerbs)
			assert.NoError(t, err, "%s: custom id %q", where, id)
		}
	}
}

// A click on a private prompt that its decision, taken by a click just
// before, removed (two clicks of one player in flight at once, the game
// moved on meanwhile) is answered by a private message of its own:
// Discord no longer has the prompt to update, and the click is never left
// unanswered.
func TestClickOnARemovedPromptIsAnsweredApart(t *testing.T) {
	t.Parallel()
	h := newQwixxHarness(t, false)
	users := []string{"u1", "u2", "u3"}
	board := h.openQwixx(users)
	others := func(g *rules.Game) {
		for s := range users {
			if s != g.Active && g.Deciding(s) {
				h.ClickOn(users[s], board, h.qmust(board, verbMove, "w -"))
				board = h.Rec.Message(board.ID)
			}
		}
	}
	var g *rules.Game
	for step := 0; ; step++ {
		require.Less(t, step, 100, "the active player never had the prompt")
		g, _, _ = h.qstate()
		if g.Phase == rules.PhaseWhite && g.Deciding(g.Active) {
			break
		}
		others(g)
		if g.Deciding(g.Active) {
			h.ClickOn(users[g.Active], board, h.qmust(board, verbMove, "w -"))
		}
		board = h.Rec.Message(board.ID)
	}
	active := users[g.Active]
	res := h.ClickOn(active, board, h.qmust(board, verbPrompt, ""))
	prompt := res.Shown(nil)
	require.NotNil(t, prompt, res.Describe())
	sel := h.qmust(prompt, verbSelect, "")
	plan := firstOption(t, prompt, sel, "mv:") // a plan of the first step
	asClicked := *prompt                       // as the second click saw it, before the first's answer
	taken := h.ClickOn(active, prompt, sel, plan)
	require.True(t, taken.Dismissed(prompt), "the prompt is removed once its decision is taken: %s", taken.Describe())
	others(g)
	g2, _, _ := h.qstate()
	require.Greater(t, g2.Seq, g.Seq+1, "the roll is over")

	check := func(again tabletest.Result) {
		t.Helper()
		resp := again.Taken()
		require.NotNil(t, resp, "answered: %s", again.Describe())
		assert.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, resp.Type, again.Describe())
		assert.NotZero(t, resp.Data.Flags&discordgo.MessageFlagsEphemeral, "privately")
		assert.Contains(t, resp.Data.Content, locales.T("en", "err_stale", nil), "outdated")
		assert.Empty(t, resp.Data.Components, "no buttons of a decision over")
	}
	refused := func(r tabletest.Result) int {
		n := 0
		for _, c := range r.Calls {
			if c.Op == "respond" && c.Refused {
				n++
			}
		}
		return n
	}
	// This process removed the prompt: no update of it is sent.
	again := h.ClickOn(active, &asClicked, sel, plan)
	check(again)
	assert.Zero(t, refused(again), "no request Discord refuses: %s", again.Describe())
	// Another process, which did not: Discord refuses the update
	// (10008), and the click is answered apart.
	h.b.dismissed.mu.Lock()
	h.b.dismissed.m = nil
	h.b.dismissed.mu.Unlock()
	again = h.ClickOn(active, &asClicked, sel, plan)
	check(again)
	assert.Equal(t, 1, refused(again), again.Describe())
}

// The lock of a prompt's removal and answers holds one message only: an
// answer on another prompt does not wait for it, one on the same does,
// and a lock released is forgotten.
func TestDismissedLocksOneMessage(t *testing.T) {
	t.Parallel()
	var d dismissed
	unlock := d.lock("p1")
	other := make(chan struct{})
	go func() {
		defer close(other)
		d.lock("p2")()
	}()
	<-other // would never come if p2 waited for p1
	same := make(chan struct{})
	go func() {
		defer close(same)
		d.lock("p1")()
	}()
	select {
	case <-same:
		t.Fatal("a second answer on p1 did not wait for the first")
	case <-time.After(20 * time.Millisecond):
	}
	unlock()
	<-same
	d.mu.Lock()
	defer d.mu.Unlock()
	assert.Empty(t, d.locks, "no lock kept once released")
}
