package bot

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	botqwixx "github.com/dixgame/dixbot/bot/qwixx"
	"github.com/dixgame/dixbot/locales"
)

// selectMenu is the select menu of msg whose custom id is id.
func selectMenu(t *testing.T, msg *shownMessage, id string) discordgo.SelectMenu {
	t.Helper()
	for _, c := range msg.components {
		for _, cc := range rowComponents(c) {
			switch m := cc.(type) {
			case discordgo.SelectMenu:
				if m.CustomID == id {
					return m
				}
			case *discordgo.SelectMenu:
				if m.CustomID == id {
					return *m
				}
			}
		}
	}
	t.Fatalf("no menu %s", id)
	return discordgo.SelectMenu{}
}

// The lobby offers Qwixx's paces, live by default; only the creator
// chooses, among the game's paces, on the lobby as it stands; the game
// then runs on the pace chosen and its board tells each clock.
func TestContractPaceInLobby(t *testing.T) {
	for _, lang := range []string{"en", "fr"} {
		t.Run(lang, func(t *testing.T) {
			h := newQwixxHarness(t, false)
			if lang == "fr" {
				h.locale = discordgo.French
			}
			now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
			h.b.now = func() time.Time { return now }
			lobby := h.qcommand("u1", "start", "language", lang).shown(nil)
			require.NotNil(t, lobby)
			lobby = h.clickOn("u2", lobby, h.qmust(lobby, cverbJoin, "")).shown(lobby)
			paceID := h.qmust(lobby, cverbPace, "")
			menu := selectMenu(t, lobby, paceID)
			require.Len(t, menu.Options, 2)
			assert.Equal(t, "live", menu.Options[0].Value)
			assert.True(t, menu.Options[0].Default, "live is the default")
			assert.Equal(t, locales.T(lang, "qwixx_pace_evening", nil), menu.Options[1].Label)
			assert.Contains(t, lobby.content, locales.T(lang, "qwixx_pace_live", nil))

			_, _, v := h.qstate()
			// Another player may not choose; an unknown pace and a menu of
			// an older lobby change nothing.
			txt := h.clickOn("u2", lobby, paceID, "evening").ephemeralText()
			assert.Equal(t, locales.T(lang, "err_not_creator", nil), txt)
			txt = h.clickOn("u1", lobby, paceID, "forever").ephemeralText()
			assert.Equal(t, locales.T(lang, "err_bad_custom_id", nil), txt)
			txt = h.clickOn("u1", lobby, contractID("qwixx", cverbPace, 0, "evening")).ephemeralText()
			assert.Equal(t, locales.T(lang, "err_bad_custom_id", nil), txt, "a pace id carrying its value is forged")
			_, td, v2 := h.qstate()
			assert.Equal(t, v, v2, "a refused choice changed the table")
			assert.Empty(t, td.Pace)
			h.clickOn("u1", lobby, contractID("qwixx", cverbPace, 0, ""), "evening")
			_, td, v2 = h.qstate()
			assert.Equal(t, v, v2, "a menu of an older lobby changed the table")

			lobby = h.clickOn("u1", lobby, paceID, "evening").shown(lobby)
			_, td, _ = h.qstate()
			assert.Equal(t, "evening", td.Pace)
			assert.Contains(t, lobby.content, locales.T(lang, "qwixx_pace_evening", nil))
			menu = selectMenu(t, lobby, h.qmust(lobby, cverbPace, ""))
			assert.True(t, menu.Options[1].Default, "the menu shows the pace chosen")

			board := h.clickOn("u1", lobby, h.qmust(lobby, cverbGo, "")).shown(lobby)
			r, err := h.db.Get(context.Background(), h.channel)
			require.NoError(t, err)
			assert.True(t, now.Add(botqwixx.EveningTime).Equal(r.Due), "the first deadline: %v", r.Due)
			want := locales.T(lang, "table_clock", map[string]any{"Names": "Alice, Bob", "Unix": now.Add(botqwixx.EveningTime).Unix()})
			assert.Contains(t, board.content, want)
		})
	}
}

// The live pace is the default: 90 s per decision, shown on the board for
// each person deciding; a computer seat has no clock.
func TestContractLivePaceClock(t *testing.T) {
	h := newQwixxHarness(t, false)
	now := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	h.b.now = func() time.Time { return now }
	board := h.openQwixx([]string{"u1", "u2"}, "easy")
	r, err := h.db.Get(context.Background(), h.channel)
	require.NoError(t, err)
	assert.True(t, now.Add(botqwixx.DecisionTime).Equal(r.Due))
	g, td, _ := h.qstate()
	deciding := 0
	for _, s := range g.ToDecide() {
		if td.Seats[s].Level == "" {
			deciding++
		}
	}
	require.Positive(t, deciding)
	assert.Contains(t, board.content, fmt.Sprintf("<t:%d:R>", now.Add(botqwixx.DecisionTime).Unix()))
	assert.NotContains(t, board.content, "Robot 3 <t:", "a computer seat has no clock")
	assert.Equal(t, 1, strings.Count(board.content, "⏳"), "seats with one deadline share one clock")
}
