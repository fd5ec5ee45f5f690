package dixtable

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

	dixview "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/locales"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ (and the README's sample board with docs/board.png)")

func cards(t testing.TB, s string) []dix.Card {
	t.Helper()
	cs, err := dix.ParseCards(s)
	require.NoError(t, err)
	return cs
}

// lateGame is a hand-built 5-player game near its end, with big
// collections and a big market: the worst case for Discord's limits.
func lateGame(t testing.TB, lang string) (*dixTable, *dix.Game) {
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
	m := &dixTable{V: dixTableVersion, Creator: "u1", Lang: lang, Turn: 57, Board: "m9"}
	for _, u := range []string{"u1", "u2", "u3", "u4", "u5"} {
		m.Seats = append(m.Seats, seat{ID: u, Name: strings.Repeat("Verylongname", 2) + u})
	}
	var evs []dix.Event
	for k := 0; k < 3*maxLog; k++ {
		p := k % 5
		evs = append(evs,
			dix.Event{Kind: dix.EvDrew, Player: p, Card: g.Market[k%len(g.Market)]},
			dix.Event{Kind: dix.EvDrew, Player: p, Card: dix.Card{Kind: dix.KindCurrency, Value: 3}},
			dix.Event{Kind: dix.EvGained, Player: (p + 1) % 5, Amount: 3, Lost: 1},
			dix.Event{Kind: dix.EvPaid, Player: p, Amount: 7, Payment: dix.Payment{Money: 2, Consolation: 1, Cards: g.Market[:2]}},
		)
	}
	m.addLog(dixview.Events(m.names(lang), evs)...)
	return m, g
}

func dumpEmbed(e *discordgo.MessageEmbed) string {
	s := "## " + e.Title + "\n" + e.Description + "\n"
	for _, f := range e.Fields {
		s += "[" + f.Name + "]\n" + f.Value + "\n"
	}
	if e.Footer != nil {
		s += "(" + e.Footer.Text + ")\n"
	}
	return s
}

func dumpComponents(cs []discordgo.MessageComponent) string {
	var sb strings.Builder
	for _, c := range cs {
		row, ok := c.(discordgo.ActionsRow)
		if !ok {
			continue
		}
		sb.WriteString("row:")
		for _, cc := range row.Components {
			switch v := cc.(type) {
			case discordgo.Button:
				fmt.Fprintf(&sb, " [%s|%s]", v.Label, v.CustomID)
			case discordgo.SelectMenu:
				fmt.Fprintf(&sb, " <%s|%s: %d options>", v.Placeholder, v.CustomID, len(v.Options))
				for _, o := range v.Options {
					emoji := ""
					if o.Emoji != nil {
						emoji = o.Emoji.Name + " "
					}
					fmt.Fprintf(&sb, "\n  option %s%s (%s) — %s", emoji, o.Label, o.Value, o.Description)
				}
			}
		}
		sb.WriteString("\n")
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
	require.NoError(t, err, "run go test ./bot -run %s -update", t.Name())
	assert.Equal(t, string(want), got, "%s differs (got, then want); run with -update if intended", path)
}

// lateGameOf is lateGame cut down to its first n seats, the second to act.
func lateGameOf(t testing.TB, lang string, n int) (*dixTable, *dix.Game) {
	m, g := lateGame(t, lang)
	g.Opts.Players = n
	g.Players = g.Players[:n]
	m.Seats = m.Seats[:n]
	g.Active = 1
	return m, g
}

// boardStates are the boards rendered to golden files.
func boardStates(t *testing.T, lang string) map[string]func() (*dixTable, *dix.Game) {
	return map[string]func() (*dixTable, *dix.Game){
		"late_draw": func() (*dixTable, *dix.Game) { return lateGame(t, lang) },
		// The same late game at 2, 3 and 4 players (the first seats).
		"late_2p": func() (*dixTable, *dix.Game) { return lateGameOf(t, lang, 2) },
		"late_3p": func() (*dixTable, *dix.Game) { return lateGameOf(t, lang, 3) },
		"late_4p": func() (*dixTable, *dix.Game) { return lateGameOf(t, lang, 4) },
		"late_auction": func() (*dixTable, *dix.Game) {
			m, g := lateGame(t, lang)
			g.Phase = dix.PhaseAuction
			g.Auction = &dix.Auction{Wild: dix.Card{Kind: dix.KindSuperWild}, HighBid: 6, HighBidder: 3, Order: []int{3, 4, 0, 1, 2}, Next: 2}
			return m, g
		},
		"late_choose": func() (*dixTable, *dix.Game) {
			m, g := lateGame(t, lang)
			g.Phase = dix.PhaseChoose
			return m, g
		},
		"final_buy": func() (*dixTable, *dix.Game) {
			m, g := lateGame(t, lang)
			g.Phase, g.Tableau, g.Deck, g.EndTriggered = dix.PhaseFinalBuy, nil, nil, true
			g.FinalOrder, g.FinalNext = []int{3, 4, 0, 1, 2}, 2
			return m, g
		},
		"solo": func() (*dixTable, *dix.Game) {
			g := &dix.Game{
				Opts:    dix.Options{Players: 1, Difficulty: 7},
				Players: []dix.Player{{Money: 4, Collection: cards(t, "b1 b2 g5 **")}, {Money: 9, Consolation: 1, Collection: cards(t, "o1 o2 o3 p9")}},
				Deck:    cards(t, "g2 o3 p4 b5 b6"),
				Tableau: cards(t, "$5 $3"),
				Market:  cards(t, "g9"),
				Phase:   dix.PhaseDraw, Drawn: 2, Seq: 33,
			}
			m := &dixTable{V: dixTableVersion, Creator: "u1", Lang: lang, Solo: true, Diff: 7, Turn: 9,
				Seats: []seat{{ID: "u1", Name: "Alice"}, {}}}
			m.addLog(dixview.Events(m.names(lang), []dix.Event{
				{Kind: dix.EvTurnStarted, Player: 1},
				{Kind: dix.EvDrew, Player: 1, Card: cards(t, "o1")[0]},
				{Kind: dix.EvDrew, Player: 1, Card: cards(t, "$2")[0]},
				{Kind: dix.EvDrew, Player: 1, Card: cards(t, "o2")[0]},
				{Kind: dix.EvDrew, Player: 1, Card: cards(t, "o3")[0]},
				{Kind: dix.EvStopped, Player: 1},
				{Kind: dix.EvTookNumbers, Player: 1, Cards: cards(t, "o1 o2 o3")},
				{Kind: dix.EvGained, Player: 0, Amount: 2},
				{Kind: dix.EvToDiscard, Cards: cards(t, "$2")},
				{Kind: dix.EvTurnEnded, Player: 1},
				{Kind: dix.EvTurnStarted, Player: 0},
			})...)
			return m, g
		},
	}
}

func TestBoardGolden(t *testing.T) {
	t.Parallel()
	for _, lang := range locales.Languages {
		for name, build := range boardStates(t, lang) {
			t.Run(name+"_"+lang, func(t *testing.T) {
				m, g := build()
				e := dixview.BoardEmbed(m.view(lang), g)
				comps := dixview.BoardButtons(m.view(lang), g)
				tabletest.CheckMessage(t, name, "", []*discordgo.MessageEmbed{e}, comps)
				golden(t, "board_"+name+"_"+lang, dumpEmbed(e)+dumpComponents(comps))
			})
		}
	}
}

func TestScoreboardGolden(t *testing.T) {
	t.Parallel()
	for _, lang := range locales.Languages {
		t.Run(lang, func(t *testing.T) {
			m, g := lateGame(t, lang)
			m.Lang = lang
			g.Phase, g.Tableau = dix.PhaseOver, nil
			e := dixview.ScoreboardEmbed(m.view(lang), g)
			tabletest.CheckEmbed(t, "scoreboard", e)
			golden(t, "scoreboard_"+lang, dumpEmbed(e))
			h := dixview.HandEmbed(m.names(lang), g, 0)
			tabletest.CheckEmbed(t, "hand", h)
			golden(t, "hand_"+lang, dumpEmbed(h))
		})
	}
}

func TestBuySelectSplitByColour(t *testing.T) {
	t.Parallel()
	var all []dix.Card
	for _, c := range dix.Colors {
		for v := uint8(1); v <= 9; v++ {
			all = append(all, dix.Card{Kind: dix.KindNumber, Color: c, Value: v})
		}
	}
	for _, lang := range locales.Languages {
		rows := dixview.BuySelects(lang, 7, all, nil)
		tabletest.CheckComponents(t, "split", rows)
		assert.Len(t, rows, 4, "one select per colour")
		one := dixview.BuySelects(lang, 7, all[:25], nil)
		tabletest.CheckComponents(t, "single", one)
		assert.Len(t, one, 1)
	}
}

// TestPromptsGolden renders the lobby and the private prompts of a late
// game in both languages.
func TestPromptsGolden(t *testing.T) {
	t.Parallel()
	for _, lang := range locales.Languages {
		t.Run(lang, func(t *testing.T) {
			m, g := lateGame(t, lang)
			m.Lang = lang
			var sb strings.Builder
			for _, state := range []string{"open", "started", "cancelled"} {
				sb.WriteString(dumpEmbed(lobbyEmbed(lang, m, state)))
			}
			sb.WriteString(dumpComponents(lobbyButtons(lang, m)))
			g.Phase, g.Tableau = dix.PhaseBuy, nil
			require.NotEmpty(t, g.Choices(2).Buyable)
			buy := dixview.BuySelects(lang, 412, g.Choices(2).Buyable, dixview.Proposer(g, 2))
			tabletest.CheckComponents(t, "buy", buy)
			sb.WriteString(dumpComponents(buy))
			for _, v := range [][2]int{{1, 1}, {1, 2}, {5, 13}, {7, 53}} {
				fmt.Fprintf(&sb, "bids %v: %v\n", v, dixview.BidAmounts(v[0], v[1]))
			}
			pay := dix.Payment{Money: 2, Consolation: 1, Cards: cards(t, "b3 g6")}
			sb.WriteString(dixview.PaymentText(lang, pay) + "\n")
			sb.WriteString(dixview.PaymentText(lang, dix.Payment{}) + "\n")
			golden(t, "prompts_"+lang, sb.String())
		})
	}
}
