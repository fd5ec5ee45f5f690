package bot

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"
	fastjson "github.com/segmentio/encoding/json"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/locales"
)

// The table of games: every game registered in Options.Games is
// played here through the engine contract and its presenter, under its own
// command (/<name>) and custom ids "<name>:<verb>:<n>[:<arg>]", n being
// the lobby counter (lobby verbs) or the state's Seq (verbMove). The
// record holds the game's name (Record.Game), its state (Record.Data) and
// the table's data (tableData in Record.Meta).
//
// This file holds the custom ids, the table data, the registry of games
// and their commands; start.go reads and writes a channel's
// record and opens a table; click.go routes the clicks and
// answers the lobby's; move.go applies decisions and shows the
// private prompts; board.go draws and posts the board;
// table_commands.go, rematch.go, pause.go, kick.go and absent.go answer
// the table's other commands and buttons.

// The verbs of a game's custom ids.
const (
	verbJoin   = "join"   // take a seat in the lobby
	verbLeave  = "leave"  // give one's lobby seat back
	verbCPU    = "cpu"    // seat a computer player; arg its level
	verbRmCPU  = "rmcpu"  // remove the last computer seat
	verbGo     = "go"     // the creator starts the game
	verbCancel = "cancel" // the creator closes the lobby
	verbMove   = "mv"     // the clicker's decision; arg the move
	verbPrompt = "pr"     // opens the clicker's private prompt
	verbStep   = "st"     // shows a step of the clicker's private prompt; arg its draft
	verbSelect = "sel"    // the prompt's menu: its value is the choice (present.ChoiceValue)
	verbModal  = "md"     // opens a form (present.Modal); arg its verb
	verbSubmit = "ms"     // the form's submission: the move is arg + " " + its text
	verbPace   = "pace"   // the lobby's pace menu: the pace chosen is its value
	verbOpt    = "opt"    // the lobby's options menu: its value is "<name>=<value>" (options.go)
	verbAgain  = "again"  // the final scoreboard's Rematch (rematch.go)
	verbLog    = "log"    // a page of /<game> log; n the page, 0 the latest
	verbKick   = "kick"   // a vote to hand a seat to the computer; arg the seat
	verbEnd    = "abyes"  // /<game> abandon confirmed; n the record's version, arg the table (abandonArg)
	verbKeep   = "abno"   // /<game> abandon called off
)

// gameVerbs are the verbs mounted under every game's prefix, with
// what their ids carry.
var gameVerbs = map[string]idVerb{
	verbJoin: {}, verbLeave: {}, verbCPU: {arg: true}, verbRmCPU: {}, verbGo: {}, verbCancel: {},
	verbMove: {arg: true}, verbPrompt: {}, verbStep: {arg: true}, verbSelect: {},
	verbModal: {arg: true}, verbSubmit: {arg: true}, verbPace: {}, verbOpt: {},
	verbAgain: {}, verbLog: {}, verbKick: {arg: true}, verbEnd: {arg: true}, verbKeep: {},
}

// modalText is the custom id of a form's text field.
const modalText = "text"

// The subcommands of every game's command, by handler id; their
// names are the table's ("cmd_<id>_name"), their descriptions the game's
// ("<game>_cmd_<id>_desc").
var gameSubcommands = []string{"start", "board", "hint", "rules", "leave", "abandon", "pause", "resume", "log"}

// tableDataVersion is the version of tableData.
const tableDataVersion = 1

// maxTableLog is how many event lines a game's board keeps.
const maxTableLog = 6

// tableData is the table's data of a game, compact JSON in
// Record.Meta.
type tableData struct {
	V       int         `json:"v"`
	Creator string      `json:"c"`
	Lang    string      `json:"l"`
	Seats   []tableSeat `json:"s"`
	Lobby   uint32      `json:"lc,omitempty"` // lobby counter: changes with every seat taken or given back
	Board   string      `json:"b,omitempty"`  // the board message (the lobby message the game started on)
	// Opened is the interaction that opened the table with /<game> start
	// (a rematch's is Origin): it names a lobby, which has no board yet.
	Opened string `json:"od,omitempty"`
	// Began is the board message the game started on, once the board was
	// posted again (/<game> board): it names the table in the log, folds
	// and confirmations, whatever its board is now. "": Board.
	Began string `json:"bg,omitempty"`
	Seed  int64  `json:"sd,omitempty"` // the game's seed, also of the computer's decisions
	// Open is, by seat, the Seq at which the seat's current decision
	// opened: a button shown at that Seq or later still means the same
	// decision, so clicks of several seats deciding at once all count.
	Open []uint64 `json:"op,omitempty"`
	Log  []string `json:"g,omitempty"` // the latest event lines, in Lang
	// Ended are the lines that ended the round before this one, for a
	// game whose board tells one round at a time (present.Rounder).
	Ended  []string `json:"ge,omitempty"`
	NoPics bool     `json:"np,omitempty"` // the board is text only
	Pace   string   `json:"pc,omitempty"` // the pace's name (present.Pace); "": the game's default
	// Acted is, by seat, when its person last decided (Unix ms), and Ping
	// the ping message not yet settled (pings.go).
	Acted []int64 `json:"ac,omitempty"`
	// OpenAt is, by seat, when its current decision opened (Unix ms), for
	// its clock (clock.go).
	OpenAt []int64  `json:"oa,omitempty"`
	Ping   *pingMsg `json:"pg,omitempty"`
	// Banks are, by seat, the milliseconds left in its time bank, the
	// decision running aside, for a pace of time banks
	// (clock.go); a seat beyond them has all of its bank.
	Banks []int64 `json:"bk,omitempty"`
	// First is the seat that started the game, plus one; Starts, in a
	// lobby, the seat that is to start it, plus one (0: drawn).
	First  int `json:"fs,omitempty"`
	Starts int `json:"st,omitempty"`
	// Called are the people the rematch's lobby mentioned, at CalledAt
	// (Unix ms): a start soon after does not ping them again.
	Called   []string `json:"cl,omitempty"`
	CalledAt int64    `json:"ca,omitempty"`
	// Rematch is the interaction that claimed the rematch of the game
	// over; Origin the interaction that opened this table as a rematch.
	Rematch string `json:"rm,omitempty"`
	Origin  string `json:"or,omitempty"`
	// Outbox is the Discord work owed by the changes made, NextEffect the
	// number of the last effect owed (outbox_run.go).
	Outbox     []effect `json:"ob,omitempty"`
	NextEffect uint32   `json:"ne,omitempty"`
	// BoardVia is the newest interaction whose answer is the board message
	// (the start command's, or a click's on the board): its token edits
	// the board without the bot token.
	BoardVia *Via `json:"bv,omitempty"`
	// Paused is who paused the game (""; running), PausedAt when (Unix
	// ms): the clocks stand still meanwhile (pause.go).
	Paused   string `json:"pz,omitempty"`
	PausedAt int64  `json:"pa,omitempty"`
	// Reminded is, by seat, the Seq plus one of the decision
	// (tableData.Open) its person was reminded of (0: none;
	// absent.go).
	Reminded []uint64 `json:"rd,omitempty"`
	// Wake is, by seat, when the computer playing it makes its current
	// decision (Unix ms; 0: not drawn yet), for a game whose computer
	// takes a reaction time (present.Game.Reaction; reaction.go).
	Wake []int64 `json:"wk,omitempty"`
	// Pic is the picture the board message has on Discord, when it is
	// known (pictures.go): an edit of the board showing the same
	// picture keeps Discord's files rather than drawing and uploading them
	// again. nil: not known.
	Pic *boardPic `json:"bp,omitempty"`
	// Opts are the values of the game's own options (present.Option), by
	// name; a value missing is the option's default.
	Opts map[string]string `json:"oo,omitempty"`
	// Missing is set while Discord refuses for good the board's edit (or
	// the final scoreboard's), which stays owed: no clock runs meanwhile
	// (missing.go).
	Missing *Missing `json:"bm,omitempty"`
	// Lines counts the event lines the table has told its game's log;
	// Unlogged are the latest of them (this update's and up to
	// maxUnlogged before), not known to be in the log record: every write of the log sends them again, and
	// the log keeps each line once (log.go). A write lost (a process dead
	// after its answer, a store that failed) is made good by the next.
	Lines    int      `json:"gn,omitempty"`
	Unlogged []string `json:"gu,omitempty"`
	// fresh are the event lines of this update, for the game's log, the
	// current round's from round on (tell).
	fresh []string
	round int
	// forgot: this update forgot the board's pictures, as of its click
	// (answerPicture).
	forgot bool
}

// tableSeat is one seat: a person's, or the computer's (Level set). A
// person who leaves keeps their seat's name and the computer plays it.
type tableSeat struct {
	User  string `json:"u,omitempty"`
	Name  string `json:"n"`
	Level string `json:"cpu,omitempty"`
	// Late counts the person's decisions in a row out of time; Away: the
	// computer plays for them until they click (absent.go).
	Late int  `json:"lt,omitempty"`
	Away bool `json:"aw,omitempty"`
	// Votes are the people who voted to hand the seat to the computer.
	Votes []string `json:"vt,omitempty"`
}

// text is the seat's name as text of a message: what its person typed,
// escaped (present.Escape). Pictures draw Name as it is.
func (s tableSeat) text() string { return present.Escape(s.Name) }

// escapedList is names as text of a message, comma-separated.
func escapedList(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = present.Escape(n)
	}
	return strings.Join(out, ", ")
}

func decodeTableData(b []byte) (*tableData, error) {
	var td tableData
	if err := json.Unmarshal(b, &td); err != nil {
		return nil, fmt.Errorf("%w: table data: %v", dixbot.ErrCorrupt, err)
	}
	if td.V > tableDataVersion {
		return nil, fmt.Errorf("%w: table data version %d", dixbot.ErrSchemaTooNew, td.V)
	}
	return &td, nil
}

// Encode writes the table data as encoding/json does, in less time
// (TestTableDataAsEncodingJSON); it is read back by encoding/json, faster
// here than segmentio's decoder.
func (td *tableData) Encode() []byte {
	b, err := fastjson.Marshal(td)
	if err != nil {
		panic(err) // plain data: cannot fail
	}
	return b
}

// onTable is fn as a store update of a table: a record of a game this
// process does not host, or of another than game when game is set, is
// ErrNothingToDo; fn gets the record's game and its table data, written
// back when fn returns nil.
func (b *Bot) onTable(game string, fn func(r *dixbot.Record, g *present.Game, td *tableData) error) func(*dixbot.Record) error {
	return b.onTableRead(game, nil, fn)
}

// onTableRead is onTable taking the table data from read when it is of
// the record's bytes (nil: none).
func (b *Bot) onTableRead(game string, read *written, fn func(r *dixbot.Record, g *present.Game, td *tableData) error) func(*dixbot.Record) error {
	return func(r *dixbot.Record) error {
		g, ok := b.games[r.Game]
		if !ok || game != "" && r.Game != game {
			return ErrNothingToDo
		}
		td := read.take(r)
		if td == nil {
			var err error
			if td, err = b.decodeTable(r); err != nil {
				return err
			}
		}
		if err := fn(r, g, td); err != nil {
			return err
		}
		b.encodeTable(r, td)
		return nil
	}
}

// refusalData is the data of a presenter's refusal, with the names of
// the seats it names.
func (td *tableData) refusalData(rf present.Refusal) map[string]any {
	return rf.DataWith(func(s int) string {
		if s >= 0 && s < len(td.Seats) {
			return td.Seats[s].text()
		}
		return "?"
	})
}

// seatOf is the seat a person plays (-1: none).
func (td *tableData) seatOf(user string) int {
	for s, st := range td.Seats {
		if st.User == user && st.Level == "" {
			return s
		}
	}
	return -1
}

// seated reports whether user holds a seat, played by them or handed to
// the computer.
func (td *tableData) seated(user string) bool {
	return slices.ContainsFunc(td.Seats, func(s tableSeat) bool { return s.User == user })
}

func (td *tableData) table(pictures bool) present.Table {
	t := present.Table{Lang: td.Lang, Log: td.Log, Ended: td.Ended, Pictures: pictures && !td.NoPics}
	for _, s := range td.Seats {
		t.Names = append(t.Names, s.Name)
		t.Computer = append(t.Computer, s.Level != "")
		t.Marks = append(t.Marks, seatMarkOf(td.Lang, s))
	}
	return t
}

// seatMarkOf is what the board's text adds after the name of a seat the
// computer plays: for good (a computer player, or a person who left or
// was voted out), the robot every game marks it with; or until they click
// (an absent person).
func seatMarkOf(lang string, s tableSeat) string {
	switch {
	case s.Level != "":
		return locales.T(lang, "mark_computer", nil)
	case s.Away:
		return locales.T(lang, "mark_away", nil)
	}
	return ""
}

// Errors of the contract table, each said with a locale key.
var (
	ErrOtherGame   = errors.New("bot: another game runs in this channel")
	errMoveRefused = errors.New("bot: the game refused the move")
)

// otherGame is the answer to a command or button of one game in a channel
// holding another.
func otherGame(game string) error {
	if game == "" {
		// A record kept by an earlier version that no hosted game converts.
		return Refuse(ErrOtherGame, "table_err_other_game_unnamed", nil)
	}
	return Refuse(ErrOtherGame, "table_err_other_game", map[string]any{"Game": gameTitle(game)})
}

// registry keeps the games by name.
type registry map[string]*present.Game

func newRegistry(games []present.Game) (registry, error) {
	r := registry{}
	for i := range games {
		g := &games[i]
		if g.Rules == nil || g.Presenter == nil || g.Player == nil {
			return nil, errors.New("bot: a game without rules, presenter or player")
		}
		name := g.Rules.Name()
		if name == "" || name == tablePrefix || r[name] != nil {
			return nil, fmt.Errorf("bot: game name %q taken", name)
		}
		if err := checkOptions(g); err != nil {
			return nil, err
		}
		if g.MinSeats < 1 || g.MaxSeats < g.MinSeats || len(g.Levels) == 0 {
			return nil, fmt.Errorf("bot: game %q: bad seats or levels", name)
		}
		if len(g.Paces) > present.MaxOptions {
			return nil, fmt.Errorf("bot: game %q: more paces than the lobby's menu holds", name)
		}
		r[name] = g
	}
	return r, nil
}

// gameNames are the hosted games' names, in the order the program lists
// them (Options.Games).
func (b *Bot) gameNames() []string { return slices.Clone(b.order) }

// buttonID builds a game's custom id.
func buttonID(game, verb string, n uint64, arg string) string {
	if arg == "" {
		return present.CustomID(game, verb, n)
	}
	return present.CustomID(game, verb, n, arg)
}

// gameCommands are the commands of the registered games.
func (b *Bot) gameCommands() []*discordgo.ApplicationCommand {
	var out []*discordgo.ApplicationCommand
	for _, name := range b.gameNames() {
		var subs []*discordgo.ApplicationCommandOption
		_, hints := b.games[name].Presenter.(present.Hinter)
		g := b.games[name]
		ids := slices.Clone(gameSubcommands)
		if g.MinSeats == 1 {
			ids = slices.Insert(ids, 1, "solo")
		}
		for _, id := range append(ids, g.Views...) {
			if id == "hint" && !hints {
				continue
			}
			sub := &discordgo.ApplicationCommandOption{
				Type:                     discordgo.ApplicationCommandOptionSubCommand,
				Name:                     En("cmd_" + id + "_name"),
				NameLocalizations:        *Localized("cmd_" + id + "_name"),
				Description:              En(name + "_cmd_" + id + "_desc"),
				DescriptionLocalizations: *Localized(name + "_cmd_" + id + "_desc"),
			}
			if id == "start" || id == "solo" {
				sub.Options = []*discordgo.ApplicationCommandOption{languageOption(), picturesOption()}
				if pace := gamePaceOption(g); pace != nil {
					sub.Options = append(sub.Options, pace)
				}
				sub.Options = append(sub.Options, startOptions(g)...)
			}
			subs = append(subs, sub)
		}
		out = append(out, &discordgo.ApplicationCommand{
			Name:                     En(name + "_cmd_name"),
			NameLocalizations:        Localized(name + "_cmd_name"),
			Description:              En(name + "_cmd_desc"),
			DescriptionLocalizations: Localized(name + "_cmd_desc"),
			Options:                  subs,
		})
	}
	return out
}

// gameCommand routes /<game> <subcommand>.
func (b *Bot) gameCommand(c *Call, g *present.Game, d discordgo.ApplicationCommandInteractionData) error {
	if len(d.Options) != 1 || d.Options[0] == nil {
		return ErrBadInput
	}
	c.Game = g.Rules.Name()
	sub, opts := Subcommand(d)
	id := b.cmdIDs[sub.Name]
	switch id {
	case "start", "solo":
		if id == "solo" && g.MinSeats != 1 {
			return ErrBadInput
		}
		// The channel's settings fill the options not given.
		s := c.startSettings()
		noPics, err := PicturesOff(orSetting(stringOpt(opts, optPictures), s.Pics))
		if err != nil {
			return err
		}
		options, err := chosenOptions(g, opts, s.Opts[g.Rules.Name()])
		if err != nil {
			return err
		}
		pace, err := chosenPace(g, stringOpt(opts, optPace), s.Paces[g.Rules.Name()])
		if err != nil {
			return err
		}
		lang := orSetting(stringOpt(opts, optLanguage), s.Lang)
		if id == "solo" {
			return c.startSolo(g, lang, noPics, pace, options)
		}
		return c.openLobby(g, lang, noPics, pace, options)
	case "board":
		return c.boardCommand(g)
	case "rules":
		c.EphemeralText(g.Presenter.Rules(c.Lang))
		return nil
	case "hint":
		return c.hintCommand(g)
	case "leave":
		return c.leaveCommand(g)
	case "abandon":
		return c.abandonCommand(g)
	case "pause":
		return c.pauseCommand(g, true)
	case "resume":
		return c.pauseCommand(g, false)
	case "log":
		return c.showLog(g, 0)
	}
	if slices.Contains(g.Views, id) {
		return c.showView(g, id)
	}
	return ErrBadInput
}
