package e2e

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	botdix "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/engine/dix"
	"github.com/dixgame/dixbot/internal/fakediscord"
)

// lobbyAtPace is lobby with the pace chosen in the lobby's pace menu
// by its creator before the others join.
func (tb *table) lobbyAtPace(startLine, pace string) {
	tb.t.Helper()
	r := tb.command(tb.users[0], startLine)
	require.NotNil(tb.t, r.Message, "the lobby: %s", describe(r))
	lobby := *r.Message
	id, ok := gameButton("dix", lobby, "pace", "")
	require.True(tb.t, ok, "the lobby's pace menu")
	r = tb.pick(tb.users[0], lobby.ID, id, pace)
	require.False(tb.t, r.Ephemeral(), "the pace chosen: %s", describe(r))
	lobby, ok = tb.fake.Message(lobby.ID)
	require.True(tb.t, ok)
	for _, u := range tb.users[1:] {
		lobby = tb.clickVerb(u, lobby, "join")
	}
	tb.clickVerb(tb.users[0], lobby, "go")
	rec := tb.record()
	require.NotNil(tb.t, gameOf(tb.t, rec), "the game started")
	require.Equal(tb.t, pace, readMeta(tb.t, rec).Pace, "the game's pace")
}

// stepButton is m's button showing the step of a prompt whose draft
// starts with prefix.
func stepButton(t *testing.T, m fakediscord.Message, prefix string) customID {
	t.Helper()
	for _, c := range components(m) {
		if id, ok := parseCustomID(c.CustomID); ok && id.verb == "st" && strings.HasPrefix(id.arg, prefix) {
			return id
		}
	}
	t.Fatalf("no step %q… on %q: %v", prefix, m.Content, components(m))
	return customID{}
}

// moveButton is m's button of a move whose notation starts with prefix.
func moveButton(t *testing.T, m fakediscord.Message, prefix string) customID {
	t.Helper()
	for _, c := range components(m) {
		if id, ok := parseCustomID(c.CustomID); ok && id.verb == "mv" && strings.HasPrefix(id.arg, prefix) {
			return id
		}
	}
	t.Fatalf("no move %q… on %q: %v", prefix, m.Content, components(m))
	return customID{}
}

// promptMenu is the menu of a prompt's step.
func promptMenu(t *testing.T, m fakediscord.Message) fakediscord.Component {
	t.Helper()
	return findComponent(t, m, "sel")
}

// hasOption reports whether menu offers value.
func hasOption(menu fakediscord.Component, value string) bool {
	for _, o := range menu.Options {
		if o.Value == value {
			return true
		}
	}
	return false
}

// buyStep opens the market from the board's Buy button as user and
// chooses card (by its colour first when the market is shown by colour):
// the payment step of card, the engine's proposed payment on it.
func (tb *table) buyStep(user fakediscord.User, board fakediscord.Message, buttons map[string]customID, card dix.Card) *fakediscord.Response {
	tb.t.Helper()
	pr, ok := buttons["pr"]
	require.True(tb.t, ok, "the board's Buy button")
	r := tb.click(user, board.ID, pr.raw)
	require.True(tb.t, r.Ephemeral(), "the market is private: %s", describe(r))
	if menu := promptMenu(tb.t, *r.Message); !hasOption(menu, "st:b "+card.String()) {
		r = tb.pick(user, r.Message.ID, menu.CustomID, "st:c "+card.Color.String())
	}
	r = tb.pick(user, r.Message.ID, promptMenu(tb.t, *r.Message).CustomID, "st:b "+card.String())
	require.NotNil(tb.t, r.Message, describe(r))
	return r
}

// pickPayment goes from a purchase's payment step to the payment picker
// ("Choose another payment") and picks the first of the cards the player
// may give, then money one token at a time until the engine accepts the
// payment, as user: the picker as it is then, with its Confirm button,
// and the money picked.
func (tb *table) pickPayment(user fakediscord.User, payStep *fakediscord.Response) (*fakediscord.Response, int) {
	tb.t.Helper()
	r := tb.click(user, payStep.Message.ID, stepButton(tb.t, *payStep.Message, "p ").raw)
	require.NotNil(tb.t, r.Message, describe(r))
	pick := func(want func(botdix.Pick) bool) {
		tb.t.Helper()
		menu := promptMenu(tb.t, *r.Message)
		for _, o := range menu.Options {
			if arg, ok := strings.CutPrefix(o.Value, "st:p "); ok {
				if p, extra, err := botdix.ParsePick(arg); err == nil && len(extra) == 0 && want(p) {
					r = tb.pick(user, r.Message.ID, menu.CustomID, o.Value)
					return
				}
			}
		}
		tb.t.Fatalf("no such entry in the picker: %v", menu.Options)
	}
	pick(func(p botdix.Pick) bool { return p.Cards == 1 && p.Money == 0 && p.Cons == 0 })
	money := 0
	for !confirmable(*r.Message) {
		require.Less(tb.t, money, dix.MoneyLimit, "the payment is never accepted: %q", r.Message.Content)
		money++
		pick(func(p botdix.Pick) bool { return p.Cards == 1 && p.Money == money && p.Cons == 0 })
	}
	return r, money
}

// confirmable reports whether a picker shows its Confirm button: a move.
func confirmable(m fakediscord.Message) bool {
	for _, c := range components(m) {
		if id, ok := parseCustomID(c.CustomID); ok && id.verb == "mv" {
			return true
		}
	}
	return false
}
