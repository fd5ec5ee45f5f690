package dixview

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/locales"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// lateGame is a hand-built 5-player game near its end, with big
// collections and a big market: the worst case for Discord's limits. Its
// table names the seats with long names and holds a long log.
func lateGame(t testing.TB, lang string) (present.Table, *dix.Game) {
	t.Helper()
	big := "b1 b2 b3 b3 b4 b5 b6 b7 b8 b9 g1 g1 g2 g3 g4 g5 g6 g6 o1 o2 o3 o4 o5 o6 p1 p2 p3 p4 p5 p6 p6 b# g# *3 *7 **"
	g := &dix.Game{
		Opts: dix.Options{Players: 5},
		Players: []dix.Player{
			{Money: 10, Consolation: 4, Collection: cards(t, big)},
			{Money: 3, Consolation: 1, Collection: cards(t, "b1 b2 b3 g4 g5 g6 o7 o8 o9 p1 p1 p2 p2 p3 p3 o# p# *1 *9")},
			{Money: 0, Collection: cards(t, "g1 g2 g3 g4 g5 g6 g7 g8 g9 o1 o2 o3 o4 o5 o6 o7 o8 o9")},
			{Money: 7, Consolation: 2, Collection: cards(t, "p1 p2 p3 p4 p5 p6 p7 p8 p9 b1 b2 b3 b4 b5 b6 b7 b8 b9 *2 *4")},
			{Money: 1, Collection: cards(t, "b4 b4 b4 g2 g2 o3 o3 p5 p5 p5")},
		},
		Deck:    cards(t, "g2 o3 p4"),
		Tableau: cards(t, "b3 $4 o7 $2"),
		Market:  cards(t, "b1 b2 b4 b5 b6 g1 g2 g3 g4 g5 g6 g7 o1 o2 o3 o4 o5 o6 o8 p1 p2 p3 p4 p5 p6 p7 p8 b1 g1 o1 p1"),
		Active:  2,
		Phase:   dix.PhaseDraw,
		Drawn:   4,
		Seq:     412,
	}
	tb := present.Table{Lang: lang}
	for _, u := range []string{"u1", "u2", "u3", "u4", "u5"} {
		tb.Names = append(tb.Names, strings.Repeat("Verylongname", 2)+u)
	}
	var evs []dix.Event
	for k := range 3 {
		p := k % 5
		evs = append(evs,
			dix.Event{Kind: dix.EvDrew, Player: p, Card: g.Market[k%len(g.Market)]},
			dix.Event{Kind: dix.EvDrew, Player: p, Card: dix.Card{Kind: dix.KindCurrency, Value: 3}},
			dix.Event{Kind: dix.EvGained, Player: (p + 1) % 5, Amount: 3, Lost: 1},
			dix.Event{Kind: dix.EvPaid, Player: p, Amount: 7, Payment: dix.Payment{Money: 2, Consolation: 1, Cards: g.Market[:2]}},
		)
	}
	tb.Log = Events(Table{Lang: lang, Names: tb.Names}, evs)
	return tb, g
}

// lateGameOf is lateGame cut down to its first n seats, the second to act.
func lateGameOf(t testing.TB, lang string, n int) (present.Table, *dix.Game) {
	tb, g := lateGame(t, lang)
	g.Opts.Players = n
	g.Players = g.Players[:n]
	tb.Names = tb.Names[:n]
	g.Active = 1
	return tb, g
}

// boardStates are the games whose boards and prompts are kept in golden
// files.
func boardStates(t *testing.T, lang string) map[string]func() (present.Table, *dix.Game) {
	return map[string]func() (present.Table, *dix.Game){
		"late_draw": func() (present.Table, *dix.Game) { return lateGame(t, lang) },
		// The same late game at 2, 3 and 4 players (the first seats).
		"late_2p": func() (present.Table, *dix.Game) { return lateGameOf(t, lang, 2) },
		"late_3p": func() (present.Table, *dix.Game) { return lateGameOf(t, lang, 3) },
		"late_4p": func() (present.Table, *dix.Game) { return lateGameOf(t, lang, 4) },
		"late_auction": func() (present.Table, *dix.Game) {
			tb, g := lateGame(t, lang)
			g.Phase = dix.PhaseAuction
			g.Auction = &dix.Auction{Wild: dix.Card{Kind: dix.KindSuperWild}, HighBid: 6, HighBidder: 3, Order: []int{3, 4, 0, 1, 2}, Next: 2}
			return tb, g
		},
		"late_choose": func() (present.Table, *dix.Game) {
			tb, g := lateGame(t, lang)
			g.Phase = dix.PhaseChoose
			return tb, g
		},
		"late_buy": func() (present.Table, *dix.Game) {
			tb, g := lateGame(t, lang)
			g.Phase, g.Tableau = dix.PhaseBuy, nil
			return tb, g
		},
		"final_buy": func() (present.Table, *dix.Game) {
			tb, g := lateGame(t, lang)
			g.Phase, g.Tableau, g.Deck, g.EndTriggered = dix.PhaseFinalBuy, nil, nil, true
			g.FinalOrder, g.FinalNext = []int{3, 4, 0, 1, 2}, 2
			return tb, g
		},
		"over": func() (present.Table, *dix.Game) {
			tb, g := lateGame(t, lang)
			g.Phase, g.Tableau = dix.PhaseOver, nil
			return tb, g
		},
		"solo_buy": func() (present.Table, *dix.Game) {
			tb, g := soloGame(t, lang)
			g.Phase, g.Tableau = dix.PhaseBuy, nil
			g.Market = cards(t, "g9 b3 o4")
			return tb, g
		},
		"solo": func() (present.Table, *dix.Game) { return soloGame(t, lang) },
	}
}

// soloGame is a game against ALIX at difficulty 7, the player to draw.
func soloGame(t *testing.T, lang string) (present.Table, *dix.Game) {
	g := &dix.Game{
		Opts:    dix.Options{Players: 1, Difficulty: 7},
		Players: []dix.Player{{Money: 4, Collection: cards(t, "b1 b2 g5 **")}, {Money: 9, Consolation: 1, Collection: cards(t, "o1 o2 o3 p9")}},
		Deck:    cards(t, "g2 o3 p4 b5 b6"),
		Tableau: cards(t, "$5 $3"),
		Market:  cards(t, "g9"),
		Phase:   dix.PhaseDraw, Drawn: 2, Seq: 33,
	}
	tb := present.Table{Lang: lang, Names: []string{"Alice"}}
	tb.Log = Events(Table{Lang: lang, Names: []string{"Alice", locales.T(lang, "dix_alix_name", nil)}}, []dix.Event{
		{Kind: dix.EvTurnStarted, Player: 1},
		{Kind: dix.EvDrew, Player: 1, Card: cards(t, "o1")[0]},
		{Kind: dix.EvDrew, Player: 1, Card: cards(t, "$2")[0]},
		{Kind: dix.EvStopped, Player: 1},
		{Kind: dix.EvTookNumbers, Player: 1, Cards: cards(t, "o1")},
		{Kind: dix.EvGained, Player: 0, Amount: 2},
		{Kind: dix.EvTurnEnded, Player: 1},
		{Kind: dix.EvTurnStarted, Player: 0},
	})
	return tb, g
}

func dumpEmbeds(es []*discordgo.MessageEmbed) string {
	var sb strings.Builder
	for _, e := range es {
		sb.WriteString("## " + e.Title + "\n" + e.Description + "\n")
		for _, f := range e.Fields {
			sb.WriteString("[" + f.Name + "]\n" + f.Value + "\n")
		}
		if e.Footer != nil {
			sb.WriteString("(" + e.Footer.Text + ")\n")
		}
	}
	return sb.String()
}

func dumpButtons(bs []present.Button) string {
	var sb strings.Builder
	sb.WriteString("row:")
	for _, b := range bs {
		what := string(b.Move)
		switch {
		case b.Prompt:
			what = "prompt"
		case b.Next != "":
			what = "step " + b.Next
		case b.Modal != nil:
			what = "form " + b.Modal.Verb
		}
		fmt.Fprintf(&sb, " [%s%s|%s]", b.Emoji, b.Label, what)
	}
	return sb.String() + "\n"
}

// dumpPrompt is a prompt's step as a person sees it.
func dumpPrompt(p present.Prompt) string {
	var sb strings.Builder
	sb.WriteString(p.Content + "\n" + dumpEmbeds(p.Embeds))
	if len(p.Choices) > 0 {
		fmt.Fprintf(&sb, "<%s: %d choices>\n", p.Placeholder, len(p.Choices))
		for _, c := range p.Choices {
			fmt.Fprintf(&sb, "  choice %s (%s%s)\n", c.Label, c.Move, c.Next)
		}
	}
	if len(p.Buttons) > 0 {
		sb.WriteString(dumpButtons(p.Buttons))
	}
	return sb.String()
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./bot/dix -run %s -update", t.Name())
	assert.Equal(t, string(want), got, "%s differs (got, then want); run with -update if intended", path)
}

// The boards of late games at every phase and table size, the final
// scoreboard and a solo game, with the first step of the prompt of the
// seat deciding and the hand of seat 0, in both languages: what a person
// reads, kept in golden files, each within Discord's limits.
func TestBoardGolden(t *testing.T) {
	t.Parallel()
	for _, lang := range locales.Languages {
		for name, build := range boardStates(t, lang) {
			t.Run(name+"_"+lang, func(t *testing.T) {
				t.Parallel()
				tb, g := build()
				st := dix.StateOf(g)
				b := Presenter{}.Board(tb, st)
				var sb strings.Builder
				sb.WriteString(b.Content + "\n" + dumpEmbeds(b.Embeds))
				require.LessOrEqual(t, len(b.Rows), present.MaxRows)
				for _, row := range b.Rows {
					require.LessOrEqual(t, len(row), present.MaxRowButtons)
					sb.WriteString(dumpButtons(row))
				}
				for _, e := range b.Embeds {
					assert.LessOrEqual(t, len(e.Description), 4096)
					assert.LessOrEqual(t, len(e.Fields), 25)
				}
				for _, seat := range st.ToDecide() {
					p, err := Presenter{}.Prompt(present.Table{Lang: lang}, st, seat, "")
					if err != nil {
						fmt.Fprintf(&sb, "== prompt of seat %d: %v\n", seat, err)
						continue
					}
					require.NoError(t, p.Check(), "seat %d", seat)
					fmt.Fprintf(&sb, "== prompt of seat %d\n%s", seat, dumpPrompt(p))
				}
				if g.Phase != dix.PhaseOver {
					hand, err := Presenter{}.Prompt(present.Table{Lang: lang}, st, 0, stepHand)
					require.NoError(t, err)
					sb.WriteString("== hand of seat 0\n" + dumpPrompt(hand))
				}
				golden(t, "board_"+name+"_"+lang, sb.String())
			})
		}
	}
}
