package bot

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	botdix "github.com/dixgame/dixbot/bot/dix"
	botdixxit "github.com/dixgame/dixbot/bot/dixxit"
	"github.com/dixgame/dixbot/bot/present"
	botqwixx "github.com/dixgame/dixbot/bot/qwixx"
	"github.com/dixgame/dixbot/internal/discordapi"
	"github.com/dixgame/dixbot/internal/tabletest"
	"github.com/dixgame/dixbot/store"
)

// FuzzClick: any component click or form submission on a live game is
// answered exactly once, never panics, and a refused one changes nothing.
// The corpus is DIX's on the shared table: its moves, prompt, steps, menu
// and form, and ids of its own table.
func FuzzClick(f *testing.F) {
	f.Add("dix:mv:1:d", "u1", "", false)
	f.Add("dix:pr:1", "u2", "", false)
	f.Add("dix:st:1:b g3", "u1", "", false)
	f.Add("dix:st:1:p w.99.0.0", "u1", "", false)
	f.Add("dix:sel:1", "u1", "mv:d", false)
	f.Add("dix:ms:1:bid", "u2", "12", true)
	f.Add("dix:kick:1:0", "u2", "", false)
	f.Add("dix:draw:1", "u1", "", false)
	f.Add("dix:bidn:1:3", "u2", "", false)
	f.Add("table:set:0:lang", "u1", "fr", false)
	f.Fuzz(func(t *testing.T, id, user, value string, modal bool) {
		h := newDixHarness(t, 4, false)
		board := h.openGame("dix", []string{"u1", "u2"}, nil)
		require.NotNil(t, board)
		clickOnce(h, board, id, user, value, modal)
	})
}

// FuzzClickEveryGame is FuzzClick on a table that hosts the three games,
// on a game of the one pick names, on a message of the one where names:
// its board (0), the clicker's private prompt (1: Qwixx's marks, Dixxit's
// clue, its form and the clue said aloud) or a later public message that
// carries no button (2: a ping), where nothing a click does may change the
// game or the message; every game's ids go on the messages of another.
// The interactions' ids are snowflakes of the bot's clock, as Discord's.
func FuzzClickEveryGame(f *testing.F) {
	f.Add(uint8(1), uint8(0), "qwixx:mv:0:w r10", "u1", "", false)
	f.Add(uint8(1), uint8(0), "qwixx:mv:0:w -", "u2", "", false)
	f.Add(uint8(1), uint8(1), "qwixx:mv:0:c g7", "u2", "", false)
	f.Add(uint8(1), uint8(1), "qwixx:mv:0:w b10", "u3", "", false)
	f.Add(uint8(2), uint8(1), "dixxit:md:0:clue", "u2", "", false)
	f.Add(uint8(2), uint8(1), "dixxit:ms:0:clue", "u2", "a cat in the rain", true)
	f.Add(uint8(2), uint8(1), "dixxit:mv:0:aloud", "u2", "", false)
	f.Add(uint8(2), uint8(1), "dixxit:mv:0:aloud", "u1", "", false)
	f.Add(uint8(0), uint8(1), "dix:mv:1:d", "u1", "", false)
	f.Add(uint8(0), uint8(0), "qwixx:mv:0:w r10", "u1", "", false)
	f.Add(uint8(1), uint8(1), "dixxit:ms:0:clue", "u1", "x", true)
	f.Add(uint8(2), uint8(0), "table:set:0:lang", "u3", "fr", false)
	f.Add(uint8(1), uint8(2), "qwixx:mv:0:w r10", "u1", "", false)
	f.Add(uint8(0), uint8(2), "dix:log:0", "u2", "", false)
	f.Add(uint8(2), uint8(2), "dixxit:join:0", "u3", "", false)
	f.Fuzz(func(t *testing.T, pick, where uint8, id, user, value string, modal bool) {
		h := newEveryGameHarness(t)
		game := []string{"dix", "qwixx", "dixxit"}[int(pick)%3]
		target := h.openGame(game, []string{"u1", "u2", "u3"}, nil)
		require.NotNil(t, target)
		switch where % 3 {
		case 1:
			if pr, ok := gameFind(game, target, verbPrompt, ""); ok {
				if msg := h.dclick(user, target, pr).Shown(nil); msg != nil && len(msg.Components) > 0 {
					target = msg
				}
			}
		case 2:
			ping := &tabletest.Message{ID: "f999999", Content: "⏳ a ping"}
			before := snapshot(h)
			if modal { // a form said to come from the public ping
				i := h.Base(user, discordgo.InteractionModalSubmit)
				i.ID = h.snowflake()
				i.Data = discordgo.ModalSubmitInteractionData{CustomID: id, Components: []discordgo.MessageComponent{
					&discordgo.ActionsRow{Components: []discordgo.MessageComponent{&discordgo.TextInput{CustomID: modalText, Value: value}}}}}
				i.Message = &discordgo.Message{ID: ping.ID, ChannelID: h.Channel, Content: ping.Content}
				r := h.Run(i)
				require.NotEqual(t, discordgo.InteractionResponseUpdateMessage, r.Response().Type, r.Describe())
			} else {
				clickOnce(h, ping, id, user, value, modal)
			}
			unchanged(h, before)
			assert.Nil(t, h.Rec.Message(ping.ID), "a message without the table's buttons is never edited")
			return
		}
		clickOnce(h, target, id, user, value, modal)
	})
}

// clickOnce clicks id on msg as user (with value, a menu's choice or,
// with modal, a form's text), in an interaction whose id is a snowflake
// of the bot's clock, and checks that it is answered once, does not
// panic, and changes nothing when refused.
func clickOnce(h *harness, msg *tabletest.Message, id, user, value string, modal bool) {
	t := h.T
	before := snapshot(h)
	var r result
	switch {
	case modal:
		r = h.dsubmit(user, msg, id, value)
	case value != "":
		i := h.ClickIx(user, msg, id, value)
		i.ID = h.snowflake()
		r = h.Run(i)
	default:
		r = h.dclick(user, msg, id)
	}
	answeredOnce(t, r)
	assert.Zero(t, h.Obs.Outcomes["button/panic"]+h.Obs.Outcomes["select/panic"]+h.Obs.Outcomes["modal/panic"])
	resp := r.Response()
	if resp.Type == discordgo.InteractionResponseChannelMessageWithSource && resp.Data.Flags&discordgo.MessageFlagsEphemeral != 0 &&
		len(resp.Data.Embeds) == 0 && len(tabletest.ComponentIDs(resp.Data.Components)) <= 1 {
		unchanged(h, before) // an error message: nothing changed
	}
}

// FuzzCommand: any slash command the bot registers (on the embedded
// store, so /settings and the statistics' commands too), with any of its
// subcommands and options and any values in them, or a shape Discord
// would not send for it (a value of another type, a subcommand that is
// not one, no subcommand, a null option), in a channel that holds a game
// of the one pick names or none, is answered exactly once, never panics,
// never fails on an error of its own, and a refused one changes nothing.
func FuzzCommand(f *testing.F) {
	f.Add(uint8(0), uint8(1), uint8(0), uint8(0), "", "u1", uint8(0))
	f.Add(uint8(3), uint8(1), uint8(0), uint8(0x0f), "fr", "u1", uint8(0))
	f.Add(uint8(1), uint8(2), uint8(1), uint8(0), "", "u2", uint8(0))
	f.Add(uint8(2), uint8(3), uint8(2), uint8(0xff), "a long text", "u3", uint8(0))
	f.Add(uint8(0), uint8(0), uint8(0), uint8(0x03), "10", "u1", uint8(1))
	f.Add(uint8(1), uint8(2), uint8(0), uint8(0), "start", "u2", uint8(2))
	f.Add(uint8(2), uint8(3), uint8(0), uint8(0), "", "u1", uint8(3))
	f.Add(uint8(3), uint8(4), uint8(0), uint8(0x01), "u9", "u9", uint8(4))
	f.Add(uint8(0), uint8(5), uint8(0), uint8(0x03), "qwixx", "u2", uint8(0))
	f.Add(uint8(1), uint8(6), uint8(0), uint8(0x01), "dix", "u1", uint8(0))
	f.Add(uint8(2), uint8(7), uint8(0), uint8(0x01), "", "u3", uint8(6))
	f.Add(uint8(0), uint8(0), uint8(0), uint8(0xff), "off", "u1", uint8(0))
	f.Fuzz(func(t *testing.T, pick, cmd, sub, mask uint8, text, user string, odd uint8) {
		db, err := store.OpenFile(filepath.Join(t.TempDir(), "db"), store.Options{})
		require.NoError(t, err)
		t.Cleanup(func() { db.Close() })
		h := newEveryGameHarnessOn(t, db)
		if int(pick%4) < 3 {
			game := []string{"dix", "qwixx", "dixxit"}[pick%4]
			require.NotNil(t, h.openGame(game, []string{"u1", "u2", "u3"}, nil))
		}
		i := h.Base([]string{"u1", "u2", "u3", "u9"}[len(user)%4], discordgo.InteractionApplicationCommand)
		i.ID = h.snowflake()
		i.Data = fuzzCommandData(h.b.Commands(), cmd, sub, mask, text, user, odd)
		ctx := context.Background()
		before, errBefore := db.Get(ctx, h.Channel)
		refused := h.Obs.Outcomes["command/refused"] + h.Obs.Outcomes["command/stale"]
		r := h.Run(i)
		answeredOnce(t, r)
		assert.Zero(t, h.Obs.Outcomes["command/panic"], r.Describe())
		assert.Zero(t, h.Obs.Outcomes["command/error"], r.Describe())
		if h.Obs.Outcomes["command/refused"]+h.Obs.Outcomes["command/stale"] > refused {
			now, errNow := db.Get(ctx, h.Channel)
			assert.Equal(t, errBefore, errNow, "a refused command made or removed the channel's game")
			assert.Equal(t, before, now, "a refused command changed the game")
		}
	})
}

// fuzzCommandData is the data of the registered command cmd (modulo their
// number) with its subcommand sub and the options whose bits are set in
// mask, each valued from text (a choice of its own when it has choices,
// unless odd says otherwise) or user (a user option); odd bends the shape:
// 1 every value a number, 2 the subcommand named text, 3 no subcommand,
// 4 a null option, 5 two subcommands, 6 the choices' values replaced by
// text.
func fuzzCommandData(cmds []Command, cmd, sub, mask uint8, text, user string, odd uint8) discordgo.ApplicationCommandInteractionData {
	c := cmds[int(cmd)%len(cmds)]
	d := discordgo.ApplicationCommandInteractionData{ID: "c" + c.Name, Name: c.Name}
	options := func(defs []*discordgo.ApplicationCommandOption) []*discordgo.ApplicationCommandInteractionDataOption {
		var out []*discordgo.ApplicationCommandInteractionDataOption
		for k, o := range defs {
			if k >= 8 || mask&(1<<k) == 0 {
				continue
			}
			var v any = text
			switch {
			case odd%7 == 1:
				v = float64(len(text))
			case o.Type == discordgo.ApplicationCommandOptionUser:
				v = user
			case len(o.Choices) > 0 && odd%7 != 6:
				v = o.Choices[(len(text)+k)%len(o.Choices)].Value
			}
			out = append(out, &discordgo.ApplicationCommandInteractionDataOption{Name: o.Name, Type: o.Type, Value: v})
		}
		if odd%7 == 4 {
			out = append(out, nil)
		}
		return out
	}
	var subs []*discordgo.ApplicationCommandOption
	for _, o := range c.Options {
		if o.Type == discordgo.ApplicationCommandOptionSubCommand {
			subs = append(subs, o)
		}
	}
	if len(subs) == 0 {
		d.Options = options(c.Options)
		return d
	}
	s := subs[int(sub)%len(subs)]
	so := &discordgo.ApplicationCommandInteractionDataOption{Name: s.Name, Type: s.Type, Options: options(s.Options)}
	switch odd % 7 {
	case 2:
		so.Name = text
	case 3:
		return d
	case 5:
		d.Options = append(d.Options, so)
	}
	d.Options = append(d.Options, so)
	return d
}

// FuzzSettings: any run of clicks on /settings' buttons and menus (each
// a component of the message as shown, with one of its menu's values, or
// text as a value a menu does not offer) is answered exactly once, never
// panics nor fails on an error of its own, and leaves settings under which
// a table of the game start names opens and starts.
func FuzzSettings(f *testing.F) {
	f.Add([]byte{0, 0}, "", uint8(0))
	f.Add([]byte{1, 1, 2, 3, 0, 1}, "", uint8(1))
	f.Add([]byte{2, 2, 3, 4}, "", uint8(2))
	f.Add([]byte{3, 5, 4, 0}, "", uint8(0))
	f.Add([]byte{4, 0, 1, 255}, "xx", uint8(1))
	f.Add([]byte{5, 0, 0, 1, 1, 0}, "", uint8(2))
	f.Fuzz(func(t *testing.T, steps []byte, text string, start uint8) {
		db, err := store.OpenFile(filepath.Join(t.TempDir(), "db"), store.Options{})
		require.NoError(t, err)
		t.Cleanup(func() { db.Close() })
		h := newEveryGameHarnessOn(t, db)
		h.Perms["u1"] = discordgo.PermissionManageChannels
		msg := settingsCmd(h, "u1").Shown(nil)
		require.NotNil(t, msg)
		for k := 0; k+1 < len(steps) && k < 24; k += 2 {
			ids := tabletest.ComponentIDs(msg.Components)
			require.NotEmpty(t, ids, msg.Content)
			id := ids[int(steps[k])%len(ids)]
			var values []string
			if opts := tabletest.SelectOptions(msg, id); steps[k+1] == 255 {
				values = []string{text}
			} else if len(opts) > 0 {
				values = []string{opts[int(steps[k+1])%len(opts)]}
			}
			r := h.ClickOn("u1", msg, id, values...)
			answeredOnce(t, r)
			if shown := r.Shown(msg); shown != nil && len(shown.Components) > 0 {
				msg = shown
			}
		}
		for _, k := range []string{"button", "select"} {
			assert.Zero(t, h.Obs.Outcomes[k+"/panic"]+h.Obs.Outcomes[k+"/error"], "%s: %v", k, h.Obs.Outcomes)
		}
		game := []string{"dix", "qwixx", "dixxit"}[start%3]
		failed := func() int {
			return h.Obs.Outcomes["command/refused"] + h.Obs.Outcomes["button/refused"] + h.Obs.Outcomes["command/stale"] + h.Obs.Outcomes["button/stale"]
		}
		before := failed()
		require.NotNil(t, h.openGame(game, []string{"u1", "u2", "u3"}, nil))
		assert.Equal(t, before, failed(), "%v", h.Obs.Outcomes)
		assert.Zero(t, h.Obs.Outcomes["command/panic"]+h.Obs.Outcomes["command/error"]+h.Obs.Outcomes["button/panic"]+h.Obs.Outcomes["button/error"], "%v", h.Obs.Outcomes)
	})
}

// FuzzPlay: a game of the one pick names (with a computer seat of one of
// its levels, and with its pictures, when pick says so), played by a run
// of steps, each three bytes: time passing to the record's next deadline,
// a person opening their private prompt from the board, or a click by one
// of the three seated people or a stranger on a component of the board or
// of their prompt (a menu with one of its values, a form filled with
// text). Every interaction is answered exactly once, none panics or fails
// on an error of its own, a refused one changes nothing but the seat of
// an absent clicker (who is back), every message keeps within Discord's
// limits (the harness), and the record stays one its game and the table
// read.
func FuzzPlay(f *testing.F) {
	f.Add(uint8(0), []byte{1, 0, 0, 3, 0, 0, 2, 1, 3, 0, 0, 0, 1, 1, 0, 3, 1, 2}, "")
	f.Add(uint8(1), []byte{2, 0, 0, 2, 1, 0, 1, 0, 0, 3, 0, 1, 0, 0, 0, 2, 2, 5}, "")
	f.Add(uint8(2), []byte{1, 0, 0, 1, 1, 0, 3, 1, 0, 3, 0, 4, 0, 0, 0, 2, 2, 3}, "a cat in the rain")
	f.Add(uint8(5), []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0}, "")
	f.Add(uint8(6), []byte{1, 1, 0, 3, 1, 1, 1, 2, 0, 3, 2, 2, 0, 0, 0, 0, 0, 0}, "night")
	f.Add(uint8(64), []byte{1, 0, 0, 3, 0, 0, 2, 1, 3, 0, 0, 0, 1, 1, 0, 3, 1, 2}, "")
	f.Add(uint8(65), []byte{2, 0, 0, 2, 1, 0, 1, 0, 0, 3, 0, 1, 0, 0, 0, 2, 2, 5}, "")
	f.Add(uint8(70), []byte{1, 0, 0, 1, 1, 0, 3, 1, 0, 3, 0, 4, 0, 0, 0, 2, 2, 3}, "moon")
	f.Fuzz(func(t *testing.T, pick uint8, steps []byte, text string) {
		playFuzzed(t, pick, steps, text, fuzzPlain)
	})
}

// FuzzSessionFaults plays as FuzzPlayFaults does, with the game's own
// commands (the board posted again, a hint, the log, a pause, leaving,
// abandoning, a new start…) given between clicks, and time passing with no due work run, so
// that an interaction finds the table's deadlines passed. The checks are
// FuzzPlayFaults's; the board followed is the table's, whichever a command
// opened.
func FuzzSessionFaults(f *testing.F) {
	f.Add(uint8(0), []byte{10, 0, 1, 2, 0, 0, 11, 0, 40, 3, 0, 0, 10, 8, 2, 2, 1, 0, 0, 0, 0, 10, 4, 3}, "")
	f.Add(uint8(1), []byte{10, 4, 5, 4, 0, 2, 2, 1, 0, 10, 0, 6, 11, 0, 200, 2, 0, 1, 5, 0, 3, 10, 1, 7}, "")
	f.Add(uint8(2), []byte{1, 0, 0, 10, 4, 2, 3, 0, 0, 11, 0, 255, 2, 2, 3, 10, 0, 3, 6, 0, 0, 10, 8, 1}, "a cat in the rain")
	f.Add(uint8(69), []byte{10, 0, 4, 10, 1, 4, 11, 0, 120, 0, 0, 0, 2, 1, 0, 10, 2, 9, 7, 0, 0, 2, 0, 0}, "10")
	f.Fuzz(func(t *testing.T, pick uint8, steps []byte, text string) {
		playFuzzed(t, pick, steps, text, fuzzSession)
	})
}

// FuzzLobbyFaults is FuzzSessionFaults from a lobby just opened: people
// join and leave, computers take seats, the settings change and the game
// starts under the same faults, with the game's commands between; once all
// works again, the lobby's message shows the table as it stands.
func FuzzLobbyFaults(f *testing.F) {
	f.Add(uint8(0), []byte{2, 1, 0, 2, 2, 0, 4, 0, 5, 2, 0, 2, 5, 0, 33, 2, 0, 2, 0, 0, 0}, "")
	f.Add(uint8(1), []byte{2, 1, 0, 5, 0, 1, 2, 2, 0, 2, 1, 1, 6, 0, 0, 2, 0, 4, 10, 0, 1, 2, 0, 2}, "")
	f.Add(uint8(2), []byte{2, 1, 0, 7, 0, 0, 2, 2, 0, 2, 0, 6, 2, 0, 7, 11, 0, 200, 2, 0, 2, 8, 0, 0}, "a cat")
	f.Add(uint8(68), []byte{2, 0, 4, 2, 1, 0, 9, 0, 17, 2, 0, 5, 5, 0, 1, 2, 0, 2, 0, 0, 0, 2, 1, 0}, "")
	f.Add(uint8(1), []byte{10, 0, 129, 2, 1, 0, 10, 4, 131, 2, 0, 2, 10, 0, 128, 10, 8, 130}, "")
	f.Fuzz(func(t *testing.T, pick uint8, steps []byte, text string) {
		playFuzzed(t, pick, steps, text, fuzzLobby)
	})
}

// FuzzEndFaults is FuzzSessionFaults from a few decisions before the
// game's end, the computer having made the people's decisions as their
// time ran out (dueWithPeople), so that the steps finish the game, open a
// rematch and go on in its lobby under the same faults. Its first step
// byte says how many of those runs of the due work before the end it
// starts. Once all works again, a game over shows its final scoreboard.
func FuzzEndFaults(f *testing.F) {
	f.Add(uint8(0), []byte{3, 2, 0, 0, 2, 1, 1, 2, 2, 2, 0, 0, 0, 2, 0, 0, 2, 1, 0, 0, 0, 0, 2, 0, 0}, "")
	f.Add(uint8(1), []byte{1, 2, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 2, 0, 0, 2, 2, 0, 10, 0, 3, 2, 1, 0}, "")
	f.Add(uint8(2), []byte{2, 0, 0, 0, 2, 0, 0, 0, 0, 0, 2, 1, 0, 5, 0, 2, 2, 0, 0, 0, 0, 0}, "a cat in the rain")
	f.Add(uint8(69), []byte{5, 4, 0, 6, 2, 0, 0, 0, 0, 0, 2, 1, 0, 6, 0, 0, 2, 0, 0, 0, 0, 0, 2, 2, 0}, "")
	f.Add(uint8(65), []byte{0, 2, 0, 0, 5, 0, 17, 2, 1, 0, 0, 0, 0, 2, 0, 0, 7, 0, 0, 2, 1, 0, 0, 0, 0}, "")
	if fz := flag.Lookup("test.fuzz"); fz != nil && fz.Value.String() != "" {
		// Fuzzing: every table's states are made before the inputs
		// run, so that the whole game played to make them counts in
		// no input's coverage.
		for pick := range 256 {
			endStates(f, []string{"dix", "qwixx", "dixxit"}[pick%3], uint8(pick))
		}
	}
	f.Fuzz(func(t *testing.T, pick uint8, steps []byte, text string) {
		playFuzzed(t, pick, steps, text, fuzzEnd)
	})
}

// fuzzStart is the time a fuzzed game opens at.
var fuzzStart = time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)

// endRuns is how many states before a game's end endStates keeps.
const endRuns = 16

// endState is a table some runs of dueWithPeople before its game's end,
// as the store and Discord hold it.
type endState struct {
	st    *tabletest.MemStore
	rec   *tabletest.Recorder
	n     int // the harness's interactions so far
	now   time.Time
	board string // the table's message
}

// fuzzEnds keeps endStates's states, by game and table.
var fuzzEnds sync.Map

// endStates are the states of the game playFuzzed opens for game and
// pick, played by dueWithPeople, one to endRuns runs before its end
// (fewer for a shorter game), the one before the last first. Every state
// has its folds written, as a process that stops writes them.
func endStates(t testing.TB, game string, pick uint8) []endState {
	g := endGames()[game]
	var cpus []string
	if pick&4 != 0 {
		cpus = []string{g.Levels[int(pick>>3)%len(g.Levels)]}
	}
	key := fmt.Sprint(game, "/", cpus, "/", pick&64)
	if v, ok := fuzzEnds.Load(key); ok {
		return v.([]endState)
	}
	h := newHarnessOver(t, &flakyStore{})
	now := fuzzStart
	h.b.noPictures = pick&64 == 0
	h.b.now = func() time.Time { return now }
	people, cpus := endSeats(&g, pick, cpus)
	require.NotNil(t, h.openGame(game, people, nil, cpus...))
	ctx := context.Background()
	var states []endState
	for n := 0; ; n++ {
		require.Less(t, n, 5000, "the game does not end")
		h.b.writeFolds(ctx)
		st, rec := tabletest.NewMemStore(), tabletest.NewRecorder()
		st.CopyFrom(h.St)
		rec.CopyFrom(h.Rec)
		board := tableMessage(h)
		require.NotNil(t, board, "the table is on Discord")
		states = append(states, endState{st: st, rec: rec, n: h.N, now: now, board: board.ID})
		if len(states) > endRuns+1 {
			states = states[1:]
		}
		if dueWithPeople(h, &now) {
			break
		}
	}
	states = states[:len(states)-1] // the last: the game over
	slices.Reverse(states)
	require.NotEmpty(t, states)
	fuzzEnds.Store(key, states)
	return states
}

// endGames are the games of the harness's table, by name.
var endGames = sync.OnceValue(func() map[string]present.Game {
	games := map[string]present.Game{}
	for _, g := range []present.Game{botdix.Game(), botqwixx.Game(), botdixxit.Game()} {
		games[g.Rules.Name()] = g
	}
	return games
})

// endSeats are the people and computer seats of a game played from near
// its end, cpus those picked for its start. A Dixxit turn whose people all
// let their time run out leaves the grid as it was, so a game of Dixxit
// played by dueWithPeople never ends: its table has one person, u1, and
// two computers, who guess.
func endSeats(g *present.Game, pick uint8, cpus []string) ([]string, []string) {
	if g.Rules.Name() != "dixxit" {
		return []string{"u1", "u2", "u3"}, cpus
	}
	level := g.Levels[int(pick>>3)%len(g.Levels)]
	return []string{"u1"}, []string{level, level}
}

// dueWithPeople runs the channel's next due work, the clock moved to it,
// then has every person's clicks since count (no decision out of time in
// a row), so that the computer decides for them one decision at a time
// instead of playing the seats of absent people to the end at once; the
// board's edit is then owed, as after any change. It reports whether the
// game has ended.
func dueWithPeople(h *harness, now *time.Time) bool {
	h.T.Helper()
	ctx := context.Background()
	rec, err := h.St.Get(ctx, h.Channel)
	require.NoError(h.T, err)
	if rec.Finished || rec.Due.IsZero() {
		return true
	}
	if rec.Due.After(*now) {
		*now = rec.Due
	}
	require.NoError(h.T, h.b.runDueOn(ctx, h.Rec, h.Channel, *now))
	_, err = h.Db.Update(ctx, h.Channel, "", func(r *dixbot.Record) error {
		if r.Finished {
			return dixbot.ErrNotFound
		}
		g := h.b.games[r.Game]
		st, err := g.Rules.Decode(r.Data)
		require.NoError(h.T, err)
		if st.Over() {
			return ErrNothingToDo // its end owed already
		}
		td, err := decodeTableData(r.Meta)
		require.NoError(h.T, err)
		late := false
		for s := range td.Seats {
			late = late || td.Seats[s].Late > 0
			td.Seats[s].Late = 0
		}
		if !late {
			return ErrNothingToDo
		}
		// The board, which offers to hand a late person's seat over,
		// is owed its edit, as after any change.
		td.oweChange(r, g, st, pingPlan{}, *now, h.b.self)
		r.Meta = td.Encode()
		return nil
	})
	if errors.Is(err, ErrNothingToDo) {
		return false
	}
	if errors.Is(err, dixbot.ErrNotFound) {
		return true
	}
	require.NoError(h.T, err)
	return false
}

// FuzzPlayFaults is FuzzPlay with faults between its steps: store calls
// failing unapplied, writes that land though their reply is lost, a store
// too slow for an answer, Discord's requests refused with a 502 or a 429, an
// answer's reply lost, and two processes of the bot, either of which may
// get an interaction, or die after answering one, before its effects. A
// click the store recorded is never answered as refused; once all works
// again, the table owes nothing and its board shows the game as it
// stands.
func FuzzPlayFaults(f *testing.F) {
	f.Add(uint8(0), []byte{4, 0, 2, 1, 0, 0, 3, 0, 0, 4, 0, 4, 2, 1, 3, 0, 0, 0, 1, 1, 0, 3, 1, 2}, "")
	f.Add(uint8(1), []byte{5, 0, 3, 2, 0, 0, 2, 1, 0, 5, 0, 16, 1, 0, 0, 3, 0, 1, 0, 0, 0, 2, 2, 5}, "")
	f.Add(uint8(2), []byte{1, 0, 0, 4, 0, 9, 1, 1, 0, 3, 1, 0, 5, 0, 2, 3, 0, 4, 0, 0, 0, 2, 2, 3}, "a cat in the rain")
	f.Add(uint8(70), []byte{4, 0, 5, 1, 0, 0, 5, 0, 19, 1, 1, 0, 3, 1, 0, 3, 0, 4, 0, 0, 0, 2, 2, 3}, "moon")
	f.Add(uint8(1), []byte{5, 0, 32, 2, 0, 0, 5, 0, 48, 1, 1, 0, 5, 0, 34, 3, 1, 0, 0, 0, 0, 5, 0, 32, 2, 2, 5}, "")
	f.Add(uint8(2), []byte{5, 0, 32, 1, 0, 0, 4, 0, 6, 3, 0, 0, 5, 0, 33, 2, 1, 1, 0, 0, 0, 2, 2, 3}, "a fox")
	f.Add(uint8(0), []byte{6, 0, 0, 2, 0, 0, 7, 0, 0, 2, 1, 0, 0, 0, 0, 6, 0, 0, 2, 2, 1, 0, 0, 0, 0, 0, 0}, "")
	f.Add(uint8(1), []byte{7, 0, 0, 2, 0, 0, 6, 0, 0, 1, 1, 0, 7, 0, 0, 3, 1, 0, 0, 0, 0, 2, 2, 5}, "")
	f.Add(uint8(2), []byte{6, 0, 0, 1, 0, 0, 7, 0, 0, 3, 0, 0, 6, 0, 0, 2, 1, 1, 0, 0, 0, 2, 2, 3}, "an owl")
	f.Add(uint8(0), []byte{5, 0, 67, 2, 0, 0, 0, 0, 0, 2, 1, 0, 5, 0, 66, 0, 0, 0, 2, 2, 1, 0, 0, 0}, "")
	f.Add(uint8(1), []byte{9, 0, 0, 8, 0, 0, 9, 1, 17, 8, 0, 0, 0, 0, 0, 9, 2, 33, 2, 0, 0, 8, 0, 0}, "")
	f.Add(uint8(2), []byte{1, 0, 0, 3, 0, 0, 8, 0, 0, 9, 0, 16, 0, 0, 0, 9, 1, 1, 8, 0, 0, 2, 2, 3}, "a bee")
	f.Fuzz(func(t *testing.T, pick uint8, steps []byte, text string) {
		playFuzzed(t, pick, steps, text, fuzzFaults)
	})
}

// flakyStore is a MemStore that fails for a moment: its next down calls
// fail unapplied (the store unreachable), and of the writes after them
// the next lies land but fail all the same (their reply lost). While
// held, its calls wait (a store too slow for Discord's budget).
type flakyStore struct {
	*tabletest.MemStore
	mu         sync.Mutex
	down, lies int
	held       chan struct{}
}

// hold makes the calls wait until release.
func (s *flakyStore) hold() {
	s.mu.Lock()
	if s.held == nil {
		s.held = make(chan struct{})
	}
	s.mu.Unlock()
}

// release lets the calls held go on.
func (s *flakyStore) release() {
	s.mu.Lock()
	if s.held != nil {
		close(s.held)
		s.held = nil
	}
	s.mu.Unlock()
}

func (s *flakyStore) set(down, lies int) {
	s.mu.Lock()
	s.down, s.lies = down, lies
	s.mu.Unlock()
}

// take uses one of *n, if any is left.
func (s *flakyStore) take(n *int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if *n == 0 {
		return false
	}
	*n--
	return true
}

func (s *flakyStore) fails() error {
	s.mu.Lock()
	held := s.held
	s.mu.Unlock()
	if held != nil {
		<-held
	}
	if s.take(&s.down) {
		return dixbot.ErrUnavailable
	}
	return nil
}

func (s *flakyStore) Create(ctx context.Context, r *dixbot.Record) error {
	if err := s.fails(); err != nil {
		return err
	}
	err := s.MemStore.Create(ctx, r)
	if err == nil && s.take(&s.lies) {
		return dixbot.ErrUnavailable
	}
	return err
}

func (s *flakyStore) Update(ctx context.Context, channel, id string, fn func(*dixbot.Record) error) (*dixbot.Record, error) {
	if err := s.fails(); err != nil {
		return nil, err
	}
	r, err := s.MemStore.Update(ctx, channel, id, fn)
	if err == nil && s.take(&s.lies) {
		return nil, dixbot.ErrUnavailable
	}
	return r, err
}

func (s *flakyStore) Get(ctx context.Context, channel string) (*dixbot.Record, error) {
	if err := s.fails(); err != nil {
		return nil, err
	}
	return s.MemStore.Get(ctx, channel)
}

func (s *flakyStore) Finish(ctx context.Context, channel string) error {
	if err := s.fails(); err != nil {
		return err
	}
	return s.MemStore.Finish(ctx, channel)
}

func (s *flakyStore) FinishIf(ctx context.Context, channel string, same func(*dixbot.Record) bool) error {
	if err := s.fails(); err != nil {
		return err
	}
	return s.MemStore.FinishIf(ctx, channel, same)
}

func (s *flakyStore) Due(ctx context.Context, now time.Time, max int) ([]string, error) {
	if err := s.fails(); err != nil {
		return nil, err
	}
	return s.MemStore.Due(ctx, now, max)
}

// playFuzzed plays a game of pick%3 (DIX, Qwixx, Dixxit) among three
// people, with a computer seat when pick&4 is set (its level from pick>>3)
// and pictures when pick&64 is, by steps of three bytes (op, who, which).
// op%4: 0 time passes to the table's next due work; 1 who opens their
// prompt from the board; 2 who clicks a component of the board, 3 of
// their prompt (which picks it, and its menu's value), a form opened
// submitted with text. With faults, op%10 also: 4 the store fails which%4
// calls, then lies on (which>>2)%3 writes; 5 Discord refuses which%4
// requests (with a 502, or a 429 of 2 s when which&64 is set), loses the
// reply of the next answer when which&16 is, and the store is too slow
// for the next interaction's answer (it is deferred) when which&32 is; 6
// the next interactions reach the other
// process; 7 the process that gets the next interaction dies after
// answering it, before its effects, and a new one takes its place; 8
// Discord delivers the last interaction again (one applied changes
// nothing); 9 who and the next person click the board's components
// which%16 and which/16 at once. In a session, op%12 also: 10 who gives a
// command of the game's (its subcommand who>>2, its options by the bits of
// who^which, valued from text or a person); 11 time passes by which × 15 s,
// the due work not run.
//
// Every interaction is answered once, never panics, and, refused, changes
// nothing, except that an absent clicker is back (the table means any click
// of theirs to bring them back); the record always decodes. Once the store
// and Discord work, the due work done, the table owes nothing and its
// board's buttons are those of the game as it stands.
func playFuzzed(t *testing.T, pick uint8, steps []byte, text string, mode fuzzMode) {
	faults := mode != fuzzPlain
	ops, once := 4, answeredOnce
	var flaky *flakyStore
	var results *resultStore // the games' results, from near a game's end
	var h *harness
	if faults {
		// A reply lost: the table may send its answer again, which
		// Discord refuses, having taken the first.
		ops, once = 10, takenOnce
		if mode >= fuzzSession {
			ops = 12
		}
		flaky = &flakyStore{}
		if mode == fuzzEnd {
			results = &resultStore{flakyStore: flaky, kept: map[string]*dixbot.Result{}}
			h = newHarnessOver(t, results)
		} else {
			h = newHarnessOver(t, flaky)
		}
	} else {
		h = newEveryGameHarness(t)
	}
	discordDown, limited, lose, slow := 0, false, false, false
	h.Rec.Mu.Lock()
	h.Rec.Refuse = func(c tabletest.Call) error {
		if c.Op == "respond" && flaky != nil && (c.Resp.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource ||
			c.Resp.Type == discordgo.InteractionResponseDeferredMessageUpdate) {
			flaky.release() // deferred: the store answers
		}
		if c.Op == "respond" || discordDown == 0 {
			return nil
		}
		discordDown--
		if limited {
			return &discordapi.RateLimited{After: 2 * time.Second, Sent: true}
		}
		return &discordgo.RESTError{Response: &http.Response{StatusCode: http.StatusBadGateway}}
	}
	h.Rec.Lose = func(tabletest.Call) error {
		if !lose {
			return nil
		}
		lose = false
		return errors.New("read: connection reset by peer")
	}
	h.Rec.Mu.Unlock()
	now := fuzzStart
	setUp := func(b *Bot) *Bot {
		b.noPictures = pick&64 == 0
		b.now = func() time.Time { return now }
		b.retryPause = time.Microsecond
		return b
	}
	setUp(h.b)
	other, dies := h.b, false // the other process; the next interaction's dies
	if faults {
		other = setUp(h.everyGameBot())
	}
	game := []string{"dix", "qwixx", "dixxit"}[pick%3]
	g := h.b.games[game]
	var cpus []string
	if pick&4 != 0 {
		cpus = []string{g.Levels[int(pick>>3)%len(g.Levels)]}
	}
	var board *tabletest.Message
	if mode == fuzzLobby {
		// The lobby alone: the steps join, leave, seat computers, change
		// the settings and start it.
		i := h.startIx(game, "u1", nil)
		i.ID = h.snowflake()
		board = h.Run(i).Shown(nil)
	} else if mode == fuzzEnd && len(steps) > 0 {
		// The table some runs of the due work before its game's end.
		states := endStates(t, game, pick)
		es := states[int(steps[0])%len(states)]
		steps = steps[1:]
		h.St.CopyFrom(es.st)
		h.Rec.CopyFrom(es.rec)
		h.N, now = es.n, es.now
		board = h.Rec.Message(es.board)
	} else {
		board = h.openGame(game, []string{"u1", "u2", "u3"}, nil, cpus...)
	}
	require.NotNil(t, board)
	var cmds []Command // the game's own command
	all := h.b.Commands()
	for _, c := range all {
		if c.Name == game {
			cmds = append(cmds, c)
		}
	}
	require.Len(t, cmds, 1, "the game's command")
	users := []string{"u1", "u2", "u3", "u9"}
	prompts := map[string]*tabletest.Message{}
	ctx := context.Background()
	var last *discordgo.Interaction // the latest interaction delivered
	// run runs the interaction i, deferred when the store is slow, in a
	// process that dies before its effects when it is to.
	run := func(i *discordgo.Interaction) result {
		last = i
		if dies {
			dies = false
			h.b.hooks.beforeEffects = func() { panic("the process dies") }
			defer func() { h.b = setUp(h.everyGameBot()) }()
		}
		if !slow {
			return h.Run(i)
		}
		slow = false
		h.b.deferAfter = 0
		flaky.hold()
		defer func() {
			flaky.release()
			h.b.deferAfter = harnessBudget
		}()
		return h.Run(i)
	}
	// due runs the table's next due work, the clock moved to it.
	due := func() error {
		rec, err := h.St.Get(ctx, h.Channel)
		require.NoError(t, err)
		if rec.Due.IsZero() || rec.Finished {
			return nil
		}
		if rec.Due.After(now) {
			now = rec.Due
		}
		return h.b.runDueOn(ctx, h.Rec, h.Channel, now)
	}
	// checkRefused: the interaction ix of user, answered by r, changed
	// nothing if it was refused, and the store recorded none but an absent
	// person's coming back; before and had are the channel's record before
	// it, refused the refusals counted then.
	checkRefused := func(ix, user string, r result, before tabletest.Stored, had bool, refused int) {
		t.Helper()
		if refusals(h) == refused {
			return
		}
		h.St.Mu.Lock()
		applied := h.St.Seen[h.Channel+"/"+ix]
		h.St.Mu.Unlock()
		after, has := h.St.Snapshot(h.Channel)
		require.Equal(t, had, has, "a refused interaction made or removed the game: %s", r.Describe())
		if !applied && (!had || reflect.DeepEqual(before, after)) {
			return
		}
		// Any click of an absent person brings them back
		// (answerStale), a refused one too: that alone, and only
		// that is recorded.
		require.True(t, had, "an interaction the store recorded was answered as refused: %s", r.Describe())
		assert.Equal(t, before.Rec.Data, after.Rec.Data, "a refused interaction changed the game")
		tb, err := decodeTableData(before.Rec.Meta)
		require.NoError(t, err)
		ta, err := decodeTableData(after.Rec.Meta)
		require.NoError(t, err)
		seat := tb.seatOf(user)
		require.True(t, seat >= 0 && seat < len(ta.Seats) && tb.Seats[seat].Away && !ta.Seats[seat].Away, "a refused interaction changed the table")
	}
	for k := 0; k+2 < len(steps) && k < 3*60; k += 3 {
		op, who, which := int(steps[k])%ops, steps[k+1], steps[k+2]
		user := users[int(who)%len(users)]
		if fuzzTrace {
			t.Logf("step %d: op %d, %s, %d; the board followed %s", k/3, op, user, which, board.ID)
		}
		if mode >= fuzzSession {
			// A command may have opened another board (a lobby, a
			// rematch's): the table's board, or its lobby, is followed.
			if m := tableMessage(h); m != nil {
				board = m
			}
		}
		switch op {
		case 10:
			// A command of the game's, well formed, by user; or, now and
			// then, another game's or the table's.
			before, had := h.St.Snapshot(h.Channel)
			refused := refusals(h)
			i := h.Base(user, discordgo.InteractionApplicationCommand)
			i.ID = h.snowflake()
			pool := cmds
			if which&128 != 0 {
				pool = all
			}
			i.Data = fuzzCommandData(pool, which, who>>2, who^which, text, users[int(which)%len(users)], 0)
			r := run(i)
			if fuzzTrace {
				t.Logf("command %+v: %s", i.Data, r.Describe())
			}
			once(t, r)
			checkRefused(i.ID, user, r, before, had, refused)
			if shown := r.Shown(nil); shown != nil && shown.Ephemeral && len(shown.Components) > 0 {
				prompts[user] = shown // a confirmation, a view with buttons
			}
			continue
		case 11:
			// Time passes without the table's due work: the next
			// interaction finds its deadlines passed.
			now = now.Add(time.Duration(which) * 15 * time.Second)
			continue
		case 0:
			if err := due(); !faults {
				require.NoError(t, err)
			}
			if m := h.Rec.Message(board.ID); m != nil {
				board = m
			}
			continue
		case 4:
			flaky.set(int(which%4), int(which>>2)%3)
			continue
		case 5:
			h.Rec.Mu.Lock()
			discordDown, limited, lose = int(which%4), which&64 != 0, which&16 != 0
			h.Rec.Mu.Unlock()
			slow = which&32 != 0
			continue
		case 6:
			h.b, other = other, h.b
			continue
		case 7:
			dies = true
			continue
		case 8:
			if last == nil {
				continue
			}
			again := *last
			before, _ := h.St.Snapshot(h.Channel)
			h.St.Mu.Lock()
			recorded := h.St.Seen[h.Channel+"/"+again.ID]
			h.St.Mu.Unlock()
			r := h.Run(&again)
			assert.Equal(t, 1, takenOf(h, again.ID), "Discord took one answer of the two deliveries: %s", r.Describe())
			// One refused is handled afresh: the table first catches up
			// with the deadlines passed, as for any interaction. One
			// applied changes nothing but, when its first answer is not
			// on Discord (the process died before it, or Discord refused
			// it), does the effects that delivery owed.
			if after, has := h.St.Snapshot(h.Channel); recorded && !reflect.DeepEqual(before, after) {
				tb, err := decodeTableData(before.Rec.Meta)
				require.NoError(t, err)
				assert.NotEmpty(t, tb.Outbox, "a delivery again of an interaction applied wrote, with no effect owed")
				if !has {
					// Archived: the game was over, its archiving owed.
					st, err := h.b.games[before.Rec.Game].Rules.Decode(before.Rec.Data)
					require.NoError(t, err)
					assert.True(t, st.Over(), "a delivery again of an interaction applied archived a game not over")
					continue
				}
				assert.Equal(t, before.Rec.Data, after.Rec.Data, "a delivery again of an interaction applied changed the game")
				ta, err := decodeTableData(after.Rec.Meta)
				require.NoError(t, err)
				// What the effects record: the work owed, the picture the
				// board's edit left on it, the ping posted, a board
				// Discord refused.
				for _, td := range []*tableData{tb, ta} {
					td.Outbox, td.Pic, td.Ping, td.Missing = nil, nil, nil, nil
				}
				assert.Equal(t, tb, ta, "a delivery again of an interaction applied changed the table beyond its effects")
			}
			continue
		case 9:
			var ixs []*discordgo.Interaction
			for n, c := range []byte{which % 16, which / 16} {
				ids := tabletest.ComponentIDs(board.Components)
				if len(ids) == 0 {
					break
				}
				i := h.ClickIx(users[(int(who)+n)%len(users)], board, ids[int(c)%len(ids)])
				i.ID = h.snowflake()
				ixs = append(ixs, i)
			}
			var wg sync.WaitGroup
			for _, i := range ixs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					h.Serve(&discordgo.InteractionCreate{Interaction: i}, h.Raw())
				}()
			}
			wg.Wait()
			for _, i := range ixs {
				assert.Equal(t, 1, takenOf(h, i.ID), "Discord took one answer")
				last = i
			}
			if m := h.Rec.Message(board.ID); m != nil {
				board = m
			}
			continue
		case 1:
			id, ok := gameFind(game, board, verbPrompt, "")
			if !ok {
				continue
			}
			i := h.ClickIx(user, board, id)
			i.ID = h.snowflake()
			r := run(i)
			once(t, r)
			if shown := r.Shown(nil); shown != nil && shown.Ephemeral && len(shown.Components) > 0 {
				prompts[user] = shown
			}
			continue
		}
		msg := board
		if op == 3 {
			if msg = prompts[user]; msg == nil {
				continue
			}
		}
		ids := tabletest.ComponentIDs(msg.Components)
		if len(ids) == 0 {
			continue
		}
		id := ids[int(which)%len(ids)]
		before, had := h.St.Snapshot(h.Channel)
		refused := refusals(h)
		var i *discordgo.Interaction
		if opts := tabletest.SelectOptions(msg, id); len(opts) > 0 {
			i = h.ClickIx(user, msg, id, opts[int(which/8)%len(opts)])
		} else {
			i = h.ClickIx(user, msg, id)
		}
		i.ID = h.snowflake()
		r := run(i)
		once(t, r)
		checkRefused(i.ID, user, r, before, had, refused)
		if resp := r.Taken(); resp != nil && resp.Type == discordgo.InteractionResponseModal {
			before, had = h.St.Snapshot(h.Channel)
			refused = refusals(h)
			m := h.submitIx(user, msg, resp.Data.CustomID, text)
			r = run(m)
			once(t, r)
			checkRefused(m.ID, user, r, before, had, refused)
		}
		if shown := r.Shown(msg); shown != nil {
			if msg == board || !shown.Ephemeral {
				board = shown
			} else {
				prompts[user] = shown
			}
		}
		if m := h.Rec.Message(board.ID); m != nil {
			board = m
		}
	}
	for _, kind := range []string{"button", "select", "modal", "command"} {
		assert.Zero(t, h.Obs.Outcomes[kind+"/panic"]+h.Obs.Outcomes[kind+"/error"], "%s: %v", kind, h.Obs.Outcomes)
	}

	// The store and Discord work again: the work owed is done by the
	// due work.
	if faults {
		flaky.set(0, 0)
	}
	h.Rec.Mu.Lock()
	discordDown, limited, lose = 0, false, false
	h.Rec.Mu.Unlock()
	rec, err := h.St.Get(ctx, h.Channel)
	require.NoError(t, err)
	td, err := decodeTableData(rec.Meta)
	require.NoError(t, err)
	// A dead process's effects wait for their grace, which may come after
	// a deadline's own work.
	for k := 0; k < 4 && len(td.Outbox) > 0 && !rec.Finished; k++ {
		require.NoError(t, due())
		rec, err = h.St.Get(ctx, h.Channel)
		require.NoError(t, err)
		td, err = decodeTableData(rec.Meta)
		require.NoError(t, err)
	}
	if fuzzTrace {
		traceCalls(t, h, rec)
	}
	if results != nil {
		// Every game over is recorded once, whatever failed meanwhile.
		results.checkOnce(t)
		if rec.Finished && rec.Data != nil {
			g := h.b.games[rec.Game]
			if st, err := g.Rules.Decode(rec.Data); err == nil && st.Over() {
				results.checkHas(t, resultOf(g, rec, td, st))
			}
		}
	}
	if rec.Data == nil {
		if rec.Finished {
			return
		}
		// A lobby: its message shows it as it stands.
		shown := tableMessage(h)
		require.NotNil(t, shown, "the lobby is on Discord")
		content, comps := lobbyView(h.b.games[rec.Game], td)
		// (a rematch's lobby calls its people back above it)
		assert.True(t, strings.HasSuffix(shown.Content, content), "the lobby shows the table as it stands: %q, not %q", shown.Content, content)
		assert.Equal(t, customIDs(comps), tabletest.ComponentIDs(shown.Components), "the lobby shows the table as it stands")
		return
	}
	gr := h.b.games[rec.Game]
	st, err := gr.Rules.Decode(rec.Data)
	require.NoError(t, err)
	if rec.Finished && st.Over() && td.Board != "" && td.Missing == nil {
		// A game over: its board is the final scoreboard.
		shown := h.Rec.Message(td.Board)
		require.NotNil(t, shown, "the final scoreboard is on Discord")
		pb := h.b.boardAt(gr, h.Channel, td, st, "")
		assert.Equal(t, customIDs(tableComponents(gr, st, td, pb)), tabletest.ComponentIDs(shown.Components), "the board shows the final scoreboard")
		assert.Equal(t, pb.Content, shown.Content, "the board shows the final scoreboard")
	}
	if rec.Finished || td.Missing != nil {
		return // archived; or its board refused for good, owed meanwhile
	}
	require.Empty(t, td.Outbox, "the work owed is done")
	if td.Board == "" && originalRefused(h, td.Origin) == originalTries {
		// A rematch's (or solo start's) board whose message Discord would
		// not name, every read refused: the first click on it makes it
		// the board (applyMove).
		return
	}
	shown := h.Rec.Message(td.Board)
	require.NotNil(t, shown, "the board is on Discord")

	pb := h.b.boardAt(gr, h.Channel, td, st, "")
	assert.Equal(t, customIDs(tableComponents(gr, st, td, pb)), tabletest.ComponentIDs(shown.Components), "the board shows the game as it stands")
}

// resultStore is a flakyStore that keeps the results of the games over
// (dixbot.Stats), failing as the flakyStore does: unapplied, or applied
// with its reply lost.
type resultStore struct {
	*flakyStore
	mu   sync.Mutex
	kept map[string]*dixbot.Result // by ID
}

func (s *resultStore) RecordResult(ctx context.Context, r *dixbot.Result) (bool, error) {
	if err := s.fails(); err != nil {
		return false, err
	}
	s.mu.Lock()
	_, had := s.kept[r.ID]
	if !had {
		s.kept[r.ID] = r
	}
	s.mu.Unlock()
	if s.take(&s.lies) {
		return false, dixbot.ErrUnavailable
	}
	return !had, nil
}

func (s *resultStore) PlayerStats(context.Context, string, string) ([]dixbot.PlayerStats, []dixbot.SoloStats, error) {
	return nil, nil, s.fails()
}

func (s *resultStore) Leaderboard(context.Context, string, string, string, int) ([]dixbot.Standing, *dixbot.Standing, error) {
	return nil, nil, s.fails()
}

func (s *resultStore) ForgetPlayer(context.Context, string, string) error { return s.fails() }

// checkOnce checks that no game was recorded twice, under two ids (its
// board's, then another's).
func (s *resultStore) checkOnce(t *testing.T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	seen := map[string]string{}
	for id, r := range s.kept {
		key := fmt.Sprint(r.Game, r.Seats)
		other, twice := seen[key]
		assert.False(t, twice, "a game recorded twice, as %s and %s", id, other)
		seen[key] = id
	}
}

// checkHas checks that the result want, of a game over, was recorded.
func (s *resultStore) checkHas(t *testing.T, want *dixbot.Result) {
	if want == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.kept {
		if r.Game == want.Game && reflect.DeepEqual(r.Seats, want.Seats) {
			return
		}
	}
	t.Errorf("the game over is not in the statistics: %+v", want.Seats)
}

// fuzzMode is what playFuzzed does between its steps.
type fuzzMode int

const (
	fuzzPlain   fuzzMode = iota // nothing: the game as played
	fuzzFaults                  // the store's and Discord's faults, two processes
	fuzzSession                 // the faults, the game's commands and time passing
	fuzzLobby                   // fuzzSession from a lobby just opened
	fuzzEnd                     // fuzzSession from a few moves before the game's end
)

// fuzzTrace, set by DIXBOT_FUZZ_TRACE=1, has playFuzzed log its steps,
// and at the end the table data and Discord's calls: a failing input,
// replayed with go test -v -run 'FuzzX/<name>', tells what happened.
var fuzzTrace = os.Getenv("DIXBOT_FUZZ_TRACE") != ""

// traceCalls logs rec's table data and the calls Discord got.
func traceCalls(t *testing.T, h *harness, rec *dixbot.Record) {
	t.Logf("table data %s", rec.Meta)
	for _, c := range h.Rec.Since(0) {
		desc := ""
		if c.Resp != nil {
			desc = fmt.Sprintf("type %d", c.Resp.Type)
			if c.Resp.Data != nil {
				desc += fmt.Sprintf(" %.60q", c.Resp.Data.Content)
			}
		}
		if c.Params != nil {
			desc += fmt.Sprintf(" %.60q", c.Params.Content)
		}
		t.Logf("%s %s %s refused %v %s", c.Op, c.Interaction, c.Message, c.Refused, desc)
	}
}

// tableMessage is the channel's table as Discord shows it: its board, or
// its lobby's message; nil when none is known or on Discord.
func tableMessage(h *harness) *tabletest.Message {
	st, ok := h.St.Snapshot(h.Channel)
	if !ok {
		return nil
	}
	td, err := decodeTableData(st.Rec.Meta)
	if err != nil {
		return nil
	}
	id := td.Board
	if v := td.BoardVia; st.Rec.Data == nil && v != nil {
		// A lobby: its message, or its answer's ("@original").
		id = v.Orig
		if id == "" {
			h.Rec.Mu.Lock()
			id = h.Rec.Origs[v.Token]
			h.Rec.Mu.Unlock()
		}
	}
	return h.Rec.Message(id)
}

// originalRefused is the number of reads of the answer to the interaction
// id Discord refused.
func originalRefused(h *harness, id string) int {
	h.Rec.Mu.Lock()
	defer h.Rec.Mu.Unlock()
	n := 0
	for _, c := range h.Rec.Calls {
		if c.Op == "original" && c.Interaction == id && c.Refused {
			n++
		}
	}
	return n
}

// takenOf is the number of answers to the interaction id Discord took.
func takenOf(h *harness, id string) int {
	h.Rec.Mu.Lock()
	defer h.Rec.Mu.Unlock()
	n := 0
	for _, c := range h.Rec.Calls {
		if c.Op == "respond" && !c.Refused && c.Interaction == id {
			n++
		}
	}
	return n
}

// takenOnce: Discord took exactly one answer to the interaction of r.
func takenOnce(t testing.TB, r result) {
	t.Helper()
	taken := 0
	for _, c := range r.Calls {
		if c.Op == "respond" && !c.Refused {
			taken++
		}
	}
	require.Equal(t, 1, taken, r.Describe())
}

// answeredOnce: the interaction of r was answered exactly once.
func answeredOnce(t testing.TB, r result) {
	t.Helper()
	answers := 0
	for _, c := range r.Calls {
		if c.Op == "respond" {
			answers++
		}
	}
	require.Equal(t, 1, answers, r.Describe())
}

// refusals counts the interactions refused so far, as bad input or stale.
func refusals(h *harness) int {
	n := 0
	for _, kind := range []string{"button", "select", "modal", "command"} {
		n += h.Obs.Outcomes[kind+"/refused"] + h.Obs.Outcomes[kind+"/stale"]
	}
	return n
}
