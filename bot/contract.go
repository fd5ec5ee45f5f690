package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot/present"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/locales"
)

// The table of contract games: every game registered in Options.Games is
// played here through the engine contract and its presenter, under its own
// command (/<name>) and custom ids "<name>:<verb>:<n>[:<arg>]", n being
// the lobby counter (lobby verbs) or the state's Seq (verbMove). The
// record holds the game's name (Record.Game), its state (Record.Data) and
// the table's data (tableData in Record.Meta).

// The verbs of a contract game's custom ids.
const (
	CverbJoin   = "join"   // take a seat in the lobby
	cverbLeave  = "leave"  // give one's lobby seat back
	CverbCPU    = "cpu"    // seat a computer player; arg its level
	cverbRmCPU  = "rmcpu"  // remove the last computer seat
	CverbGo     = "go"     // the creator starts the game
	cverbCancel = "cancel" // the creator closes the lobby
	CverbMove   = "mv"     // the clicker's decision; arg the move
	cverbPrompt = "pr"     // opens the clicker's private prompt
	cverbStep   = "st"     // shows a step of the clicker's private prompt; arg its draft
	cverbSelect = "sel"    // the prompt's menu: its value is the choice (present.ChoiceValue)
	cverbModal  = "md"     // opens a form (present.Modal); arg its verb
	cverbSubmit = "ms"     // the form's submission: the move is arg + " " + its text
	cverbPace   = "pace"   // the lobby's pace menu: the pace chosen is its value
	CverbAgain  = "again"  // the final scoreboard's Rematch (contract_table_rematch.go)
	cverbLog    = "log"    // a page of /<game> log; n the page, 0 the latest
	cverbKick   = "kick"   // a vote to hand a seat to the computer; arg the seat
	CverbEnd    = "abyes"  // /<game> abandon confirmed; n the record's version, arg the table (abandonArg)
	cverbKeep   = "abno"   // /<game> abandon called off
)

// modalText is the custom id of a form's text field.
const modalText = "text"

// maxModalText bounds the text of a form's submission (Discord's own limit
// of a text input's value, https://discord.com/developers/docs/interactions/message-components#text-inputs).
const maxModalText = 4000

// The subcommands of every contract game's command, by handler id; their
// names are the table's ("cmd_<id>_name"), their descriptions the game's
// ("<game>_cmd_<id>_desc").
var ContractSubcommands = []string{"start", "board", "hint", "rules", "leave", "abandon", "pause", "resume", "log"}

// tableDataVersion is the version of tableData.
const tableDataVersion = 1

// maxTableLog is how many event lines a contract game's board keeps.
const maxTableLog = 6

// TableData is the table's data of a contract game, compact JSON in
// Record.Meta.
type TableData struct {
	V       int         `json:"v"`
	Creator string      `json:"c"`
	Lang    string      `json:"l"`
	Seats   []TableSeat `json:"s"`
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
	// the ping message not yet settled (pings_contract.go).
	Acted []int64 `json:"ac,omitempty"`
	// OpenAt is, by seat, when its current decision opened (Unix ms), for
	// its clock (clock_contract.go).
	OpenAt []int64  `json:"oa,omitempty"`
	Ping   *pingMsg `json:"pg,omitempty"`
	// Banks are, by seat, the milliseconds left in its time bank, the
	// decision running aside, for a pace of time banks
	// (clock_contract.go); a seat beyond them has all of its bank.
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
	// number of the last effect owed (outbox_contract.go).
	Outbox     []Effect `json:"ob,omitempty"`
	NextEffect uint32   `json:"ne,omitempty"`
	// BoardVia is the newest interaction whose answer is the board message
	// (the start command's, or a click's on the board): its token edits
	// the board without the bot token.
	BoardVia *Via `json:"bv,omitempty"`
	// Paused is who paused the game (""; running), PausedAt when (Unix
	// ms): the clocks stand still meanwhile (contract_table_pause.go).
	Paused   string `json:"pz,omitempty"`
	PausedAt int64  `json:"pa,omitempty"`
	// Reminded is, by seat, the Seq plus one of the decision
	// (tableData.Open) its person was reminded of (0: none;
	// contract_table_absent.go).
	Reminded []uint64 `json:"rd,omitempty"`
	// Wake is, by seat, when the computer playing it makes its current
	// decision (Unix ms; 0: not drawn yet), for a game whose computer
	// takes a reaction time (present.Game.Reaction; reaction_contract.go).
	Wake []int64 `json:"wk,omitempty"`
	// Pic is the picture the board message has on Discord, when it is
	// known (pictures_contract.go): an edit of the board showing the same
	// picture keeps Discord's files rather than drawing and uploading them
	// again. nil: not known.
	Pic *BoardPic `json:"bp,omitempty"`
	// Opts are the values of the game's own options (present.Option), by
	// name; a value missing is the option's default.
	Opts map[string]string `json:"oo,omitempty"`
	// Missing is set while Discord refuses for good the board's edit (or
	// the final scoreboard's), which stays owed: no clock runs meanwhile
	// (missing_contract.go).
	Missing *Missing `json:"bm,omitempty"`
	// fresh are the event lines of this update, for the game's log, the
	// current round's from round on (tell).
	fresh []string
	round int
	// forgot: this update forgot the board's pictures, as of its click
	// (answerContractPicture).
	forgot bool
}

// TableSeat is one seat: a person's, or the computer's (Level set). A
// person who leaves keeps their seat's name and the computer plays it.
type TableSeat struct {
	User  string `json:"u,omitempty"`
	Name  string `json:"n"`
	Level string `json:"cpu,omitempty"`
	// Late counts the person's decisions in a row out of time; Away: the
	// computer plays for them until they click (contract_table_absent.go).
	Late int  `json:"lt,omitempty"`
	Away bool `json:"aw,omitempty"`
	// Votes are the people who voted to hand the seat to the computer.
	Votes []string `json:"vt,omitempty"`
}

func DecodeTableData(b []byte) (*TableData, error) {
	var td TableData
	if err := json.Unmarshal(b, &td); err != nil {
		return nil, fmt.Errorf("%w: table data: %v", dixbot.ErrCorrupt, err)
	}
	if td.V > tableDataVersion {
		return nil, fmt.Errorf("%w: table data version %d", dixbot.ErrSchemaTooNew, td.V)
	}
	return &td, nil
}

func (td *TableData) Encode() []byte {
	b, err := json.Marshal(td)
	if err != nil {
		panic(err) // plain data: cannot fail
	}
	return b
}

// refusalData is the data of a presenter's refusal, with the names of
// the seats it names.
func (td *TableData) refusalData(rf present.Refusal) map[string]any {
	for k, s := range rf.Names {
		if rf.Data == nil {
			rf.Data = map[string]any{}
		}
		if s >= 0 && s < len(td.Seats) {
			rf.Data[k] = td.Seats[s].Name
		}
	}
	return rf.Data
}

// seatOf is the seat a person plays (-1: none).
func (td *TableData) seatOf(user string) int {
	for s, st := range td.Seats {
		if st.User == user && st.Level == "" {
			return s
		}
	}
	return -1
}

// seated reports whether user holds a seat, played by them or handed to
// the computer.
func (td *TableData) seated(user string) bool {
	return slices.ContainsFunc(td.Seats, func(s TableSeat) bool { return s.User == user })
}

func (td *TableData) table(pictures bool) present.Table {
	t := present.Table{Lang: td.Lang, Log: td.Log, Ended: td.Ended, Pictures: pictures && !td.NoPics}
	for _, s := range td.Seats {
		t.Names = append(t.Names, s.Name)
		t.Computer = append(t.Computer, s.Level != "")
		t.Marks = append(t.Marks, seatMarkOf(td.Lang, s))
	}
	return t
}

// seatMarkOf is what the board adds after the name of a person the
// computer plays for: absent until they click, or for good (they left or
// were voted out).
func seatMarkOf(lang string, s TableSeat) string {
	switch {
	case s.User != "" && s.Level != "":
		return locales.T(lang, "mark_gone", nil)
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
	return Refuse(ErrOtherGame, "table_err_other_game", map[string]any{"Game": game})
}

// registry keeps the contract games by name.
type registry map[string]*present.Game

func newRegistry(games []present.Game) (registry, error) {
	r := registry{}
	for i := range games {
		g := &games[i]
		if g.Rules == nil || g.Presenter == nil || g.Player == nil {
			return nil, errors.New("bot: a game without rules, presenter or player")
		}
		name := g.Rules.Name()
		if _, ownless := own.(noTable); name == "" || name == idPrefix && !ownless || name == tablePrefix || r[name] != nil {
			return nil, fmt.Errorf("bot: game name %q taken", name)
		}
		if err := checkOptions(g); err != nil {
			return nil, err
		}
		if g.MinSeats < 1 || g.MaxSeats < g.MinSeats || len(g.Levels) == 0 {
			return nil, fmt.Errorf("bot: game %q: bad seats or levels", name)
		}
		r[name] = g
	}
	return r, nil
}

// gameNames are the names of the games, sorted.
func (b *Bot) gameNames() []string {
	names := make([]string, 0, len(b.Games))
	for name := range b.Games {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// gameOfID returns the game whose prefix the custom id carries.
func (r registry) gameOfID(id string) (*present.Game, bool) {
	prefix, _, ok := strings.Cut(id, ":")
	if !ok {
		return nil, false
	}
	g, ok := r[prefix]
	return g, ok
}

// ContractID builds a contract game's custom id.
func ContractID(game, verb string, n uint64, arg string) string {
	if arg == "" {
		return present.CustomID(game, verb, n)
	}
	return present.CustomID(game, verb, n, arg)
}

// contractParsed is a parsed contract custom id.
type contractParsed struct {
	Verb string
	n    uint64
	Arg  string
}

func ParseContractID(s string) (contractParsed, error) {
	if len(s) > 100 {
		return contractParsed{}, fmt.Errorf("%w: too long", ErrBadCustomID)
	}
	parts := strings.SplitN(s, ":", 4)
	if len(parts) < 3 {
		return contractParsed{}, fmt.Errorf("%w: %q", ErrBadCustomID, s)
	}
	n, err := strconv.ParseUint(parts[2], 10, 64)
	if err != nil || (len(parts[2]) > 1 && parts[2][0] == '0') {
		return contractParsed{}, fmt.Errorf("%w: number %q", ErrBadCustomID, parts[2])
	}
	p := contractParsed{Verb: parts[1], n: n}
	if len(parts) == 4 {
		p.Arg = parts[3]
	}
	needsArg := p.Verb == CverbCPU || p.Verb == CverbMove || p.Verb == cverbModal || p.Verb == cverbSubmit || p.Verb == cverbKick || p.Verb == CverbEnd ||
		p.Verb == cverbStep
	switch p.Verb {
	case CverbJoin, cverbLeave, CverbCPU, cverbRmCPU, CverbGo, cverbCancel, CverbMove, cverbPrompt, cverbStep, cverbSelect, cverbModal, cverbSubmit:
	case cverbPace, cverbOpt, CverbAgain, cverbLog, cverbKick, CverbEnd, cverbKeep:
	default:
		return contractParsed{}, fmt.Errorf("%w: verb %q", ErrBadCustomID, p.Verb)
	}
	if needsArg != (p.Arg != "") || len(p.Arg) > engine.MaxMoveLen {
		return contractParsed{}, fmt.Errorf("%w: argument of %q", ErrBadCustomID, p.Verb)
	}
	return p, nil
}

// contractCommands are the commands of the registered games.
func (b *Bot) contractCommands() []*discordgo.ApplicationCommand {
	var out []*discordgo.ApplicationCommand
	for _, name := range b.gameNames() {
		var subs []*discordgo.ApplicationCommandOption
		_, hints := b.Games[name].Presenter.(present.Hinter)
		g := b.Games[name]
		ids := slices.Clone(ContractSubcommands)
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
				sub.Options = []*discordgo.ApplicationCommandOption{LanguageOption(), PicturesOption()}
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
			Contexts:                 &GuildOnly,
			Options:                  subs,
		})
	}
	return out
}

// contractCommand routes /<game> <subcommand>.
func (b *Bot) contractCommand(c *Call, g *present.Game, d discordgo.ApplicationCommandInteractionData) error {
	if len(d.Options) != 1 || d.Options[0] == nil {
		return ErrBadInput
	}
	c.Game = g.Rules.Name()
	sub, opts := Subcommand(d)
	id := b.CmdIDs[sub.Name]
	switch id {
	case "start", "solo":
		if id == "solo" && g.MinSeats != 1 {
			return ErrBadInput
		}
		// The channel's settings fill the options not given.
		s := c.StartSettings()
		noPics, err := PicturesOff(OrSetting(StringOpt(opts, OptPictures), s.Pics))
		if err != nil {
			return err
		}
		options, err := chosenOptions(g, opts, s.Opts[g.Rules.Name()])
		if err != nil {
			return err
		}
		pace, err := chosenPace(g, StringOpt(opts, OptPace), s.Paces[g.Rules.Name()])
		if err != nil {
			return err
		}
		lang := OrSetting(StringOpt(opts, OptLanguage), s.Lang)
		if id == "solo" {
			return c.contractSolo(g, lang, noPics, pace, options)
		}
		return c.contractStart(g, lang, noPics, pace, options)
	case "board":
		return c.contractBoardCommand(g)
	case "rules":
		c.EphemeralText(g.Presenter.Rules(c.Lang))
		return nil
	case "hint":
		return c.contractHint(g)
	case "leave":
		return c.contractLeave(g)
	case "abandon":
		return c.contractAbandon(g)
	case "pause":
		return c.contractPause(g, true)
	case "resume":
		return c.contractPause(g, false)
	case "log":
		return c.contractLog(g, 0)
	}
	if slices.Contains(g.Views, id) {
		return c.contractView(g, id)
	}
	return ErrBadInput
}

// contractGet loads the channel's active record of game g.
func (c *Call) contractGet(g *present.Game) (*dixbot.Record, *TableData, error) {
	var r *dixbot.Record
	err := c.Retry("get", func(ctx context.Context) (err error) {
		r, err = c.B.get(ctx, c.I.ChannelID)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	c.Notice.Seen = r
	if r.Finished {
		return nil, nil, Refuse(dixbot.ErrNotFound, "table_err_no_game", map[string]any{"Command": "/" + En(g.Rules.Name()+"_cmd_name")})
	}
	if r.Game != g.Rules.Name() {
		return nil, nil, otherGame(gameTitle(r.Game))
	}
	td, err := DecodeTableData(r.Meta)
	if err != nil {
		return nil, nil, err
	}
	return r, td, nil
}

// gameTitle is the name of a record's game as players know it.
func gameTitle(game string) string {
	if game == "" {
		return "DIX"
	}
	return En(game + "_title")
}

// contractChange runs fn on the game's record and table data inside one
// exactly-once store update (see change).
func (c *Call) contractChange(g *present.Game, fn func(r *dixbot.Record, td *TableData) error) (*dixbot.Record, *TableData, error) {
	var td *TableData
	var read *dixbot.Record // the record as a change fn refused found it
	r, err := c.Change(func(r *dixbot.Record) error {
		if r.Game != g.Rules.Name() {
			return otherGame(gameTitle(r.Game))
		}
		var err error
		if td, err = DecodeTableData(r.Meta); err != nil {
			return err
		}
		seen := *r
		if err := fn(r, td); err != nil {
			read = &seen
			return err
		}
		c.answerContractPicture(td)
		r.Meta = td.Encode()
		return nil
	})
	if err == nil {
		c.keepLog(td)
	} else if read != nil && c.Notice.Seen == nil {
		c.Notice.Seen = read // a refused change still sees a board missing (notice.go)
	}
	return r, td, err
}

// contractStart opens a lobby: /<game> start.
// pace is the table's pace ("": the game's default), options the values
// of the game's own options.
func (c *Call) contractStart(g *present.Game, lang string, noPics bool, pace string, options map[string]string) error {
	if err := c.MissingPermission(); err != nil {
		return err
	}
	if lang == "" {
		lang = c.GameLanguage("", false)
	}
	if !locales.Supported(lang) {
		return ErrBadInput
	}
	td := &TableData{V: tableDataVersion, Creator: c.User, Lang: lang, NoPics: noPics || c.B.NoPictures,
		Seats: []TableSeat{{User: c.User, Name: c.Name}}, Pace: pace, Opts: options, Opened: c.I.ID}
	rec := &dixbot.Record{Channel: c.I.ChannelID, Guild: c.I.GuildID, Game: g.Rules.Name()}
	if v := c.startVia(); v != nil {
		// The answer is the lobby, later the board: this token edits it.
		// The lobby is owed until the answer went out (contract_lobby.go).
		td.BoardVia = v
		td.oweLobby(rec, c.B.Now(), v)
	}
	rec.Meta = td.Encode()
	err := c.Retry("create", func(ctx context.Context) error { return c.B.Store.Create(ctx, rec) })
	if errors.Is(err, dixbot.ErrExists) && c.startAgain(g) {
		return nil
	}
	if errors.Is(err, dixbot.ErrExists) && c.FinishOver() {
		err = c.Retry("create", func(ctx context.Context) error { return c.B.Store.Create(ctx, rec) })
	}
	if errors.Is(err, dixbot.ErrExists) {
		return c.busyChannel()
	}
	if err != nil {
		return err
	}
	content, comps := c.lobbyView(g, td)
	c.Respond(&discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: content, Components: comps, AllowedMentions: NoMentions()},
	})
	c.settleContract(rec)
	return nil
}

// gameLang is the language of a new game: the server's when supported,
// else the bot's default.
func (c *Call) gameLang() string {
	if c.I.GuildLocale != nil {
		if l := locales.For(string(*c.I.GuildLocale)); l != "" {
			return l
		}
	}
	return c.B.lang
}

// FinishOver archives the channel's record when its game, of any game, is
// over (its archiving was interrupted), its result recorded first, so a
// new game may open.
func (c *Call) FinishOver() bool {
	r, err := c.getQuietAny()
	if err != nil {
		return false
	}
	if r.Game == "" {
		res, over := own.Over(c.B, r)
		if !over {
			return false
		}
		if err := c.B.Record(c.Ctx, res); err != nil {
			c.B.Log.Warn("could not record a finished game's result; it stays active", "channel", c.I.ChannelID, "err", err)
			return false
		}
	} else {
		rules, ok := c.B.Games[r.Game]
		if !ok || r.Data == nil {
			return false
		}
		st, err := rules.Rules.Decode(r.Data)
		if err != nil || !st.Over() {
			return false
		}
		if err := c.B.recordOver(c.Ctx, r); err != nil {
			c.B.Log.Warn("could not record a finished game's result; it stays active", "channel", c.I.ChannelID, "err", err)
			return false
		}
	}
	return c.Retry("finish", func(ctx context.Context) error { return c.B.Store.Finish(ctx, c.I.ChannelID) }) == nil
}

// getQuietAny is the channel's active record, whatever its game.
func (c *Call) getQuietAny() (*dixbot.Record, error) {
	ctx, cancel := c.StoreCtx()
	defer cancel()
	r, err := c.B.get(ctx, c.I.ChannelID)
	if err == nil && r.Finished {
		return nil, dixbot.ErrNotFound
	}
	return r, err
}

// busyChannel is the answer to a start in a channel with a game: which
// game runs there.
func (c *Call) busyChannel() error {
	r, err := c.getQuietAny()
	if err != nil {
		return Refuse(dixbot.ErrExists, "err_game_exists", nil)
	}
	return otherGame(gameTitle(r.Game))
}

// lobbyView is the lobby message of a contract game.
func (c *Call) lobbyView(g *present.Game, td *TableData) (string, []discordgo.MessageComponent) {
	return contractLobbyView(g, td)
}

// contractLobbyView is the lobby message of a contract game.
func contractLobbyView(g *present.Game, td *TableData) (string, []discordgo.MessageComponent) {
	name := g.Rules.Name()
	var seats []string
	for _, s := range td.Seats {
		key := "table_lobby_seat"
		if s.Level != "" {
			key = "table_lobby_seat_cpu"
		}
		seats = append(seats, locales.T(td.Lang, key, map[string]any{"Name": s.Name, "Level": locales.T(td.Lang, "table_level_"+s.Level, nil)}))
	}
	content := locales.T(td.Lang, "table_lobby", map[string]any{
		"Game": En(name + "_title"), "Creator": td.creatorName(), "Seats": strings.Join(seats, "\n"),
		"Min": g.MinSeats, "Max": g.MaxSeats,
	}) + "\n" + tableOptions(g, td)
	if line := optionsLine(g, td); line != "" {
		content += "\n" + line
	}
	btn := func(label string, style discordgo.ButtonStyle, verb, arg string) discordgo.MessageComponent {
		n := uint64(td.Lobby)
		if steadyLobbyVerb(verb) {
			n = 0
		}
		return discordgo.Button{Label: label, Style: style, CustomID: ContractID(name, verb, n, arg)}
	}
	row1 := []discordgo.MessageComponent{
		btn(locales.T(td.Lang, "btn_join", nil), discordgo.PrimaryButton, CverbJoin, ""),
		btn(locales.T(td.Lang, "btn_leave", nil), discordgo.SecondaryButton, cverbLeave, ""),
		btn(locales.T(td.Lang, "btn_start", nil), discordgo.SuccessButton, CverbGo, ""),
		btn(locales.T(td.Lang, "btn_cancel", nil), discordgo.DangerButton, cverbCancel, ""),
	}
	var row2 []discordgo.MessageComponent
	for _, l := range g.Levels {
		row2 = append(row2, btn(locales.T(td.Lang, "table_btn_add_cpu", map[string]any{"Level": locales.T(td.Lang, "table_level_"+l, nil)}),
			discordgo.SecondaryButton, CverbCPU, l))
		if len(row2) == 4 {
			break
		}
	}
	row2 = append(row2, btn(locales.T(td.Lang, "table_btn_remove_cpu", nil), discordgo.SecondaryButton, cverbRmCPU, ""))
	comps := []discordgo.MessageComponent{
		discordgo.ActionsRow{Components: row1},
		discordgo.ActionsRow{Components: row2},
	}
	if row := paceMenu(g, td); row != nil {
		comps = append(comps, row)
	}
	if row := optionsMenu(g, td); row != nil {
		comps = append(comps, row)
	}
	return content, comps
}

// contractClick handles a click on a contract game's component.
func (b *Bot) contractClick(c *Call, g *present.Game, id string) error {
	c.Game = g.Rules.Name()
	p, err := ParseContractID(id)
	if err != nil && g.OldClick != nil {
		return c.contractOldClick(g, id, err)
	}
	if err != nil {
		return err
	}
	if c.I.Type != discordgo.InteractionMessageComponent {
		return fmt.Errorf("%w: %q is not a modal", ErrBadCustomID, id)
	}
	switch p.Verb {
	case CverbAgain:
		return c.contractRematch(g)
	case cverbLog:
		return c.contractLog(g, p.n)
	case cverbKick:
		return c.contractKick(g, p.Arg)
	case CverbEnd:
		return c.contractEnd(g, p)
	case cverbKeep:
		c.UpdateOrReply(locales.T(c.Lang, "abandon_kept", nil), nil)
		return nil
	case CverbMove:
		return c.contractMove(g, p)
	case cverbPrompt:
		return c.contractPrompt(g, p, "")
	case cverbStep:
		return c.contractPrompt(g, p, p.Arg)
	case cverbModal:
		return c.contractOpenModal(g, p)
	case cverbSubmit:
		return fmt.Errorf("%w: %q is a form's", ErrBadCustomID, id)
	case cverbSelect:
		vals := c.Values()
		if len(vals) != 1 || len(vals[0]) > present.MaxOptionValue {
			return ErrBadInput
		}
		kind, arg, _ := strings.Cut(vals[0], ":")
		if arg == "" || len(arg) > engine.MaxMoveLen {
			return ErrBadInput
		}
		p.Arg = arg
		switch kind {
		case "mv":
			return c.contractMove(g, p)
		case "st":
			return c.contractPrompt(g, p, arg)
		}
		return ErrBadInput
	case cverbPace, cverbOpt:
		vals := c.Values()
		if len(vals) != 1 || vals[0] == "" || len(vals[0]) > engine.MaxMoveLen {
			return ErrBadInput
		}
		p.Arg = vals[0]
	}
	return c.contractLobby(g, p)
}

// contractSubmit handles the submission of a contract game's form: the
// move is the form's verb and its text.
func (b *Bot) contractSubmit(c *Call, g *present.Game, id string) error {
	c.Game = g.Rules.Name()
	p, err := ParseContractID(id)
	if err != nil {
		return err
	}
	if p.Verb != cverbSubmit {
		return fmt.Errorf("%w: %q is not a form", ErrBadCustomID, id)
	}
	text, ok := c.ModalValues()[modalText]
	if !ok || len(text) > maxModalText {
		return ErrBadInput
	}
	p.Arg += " " + text
	return c.contractMove(g, p)
}

// steadyLobbyVerb reports whether a lobby button of verb means the same
// whatever the lobby shows (join, leave, add a computer, start, cancel):
// its custom id carries no lobby counter (0) and stays the same across
// the lobby's edits, so that two people clicking at once both land
// (STYLE.md, Handlers). Removing the last computer seat depends on the
// seats shown: its id carries the counter.
func steadyLobbyVerb(verb string) bool {
	switch verb {
	case CverbJoin, cverbLeave, CverbCPU, CverbGo, cverbCancel:
		return true
	}
	return false
}

// contractLobby handles the lobby's buttons. A button of an earlier
// table's lobby (a message older than the interaction that opened this
// one) is outdated, whatever its id.
func (c *Call) contractLobby(g *present.Game, p contractParsed) error {
	started, cancelled := false, false
	r, td, err := c.contractChange(g, func(r *dixbot.Record, td *TableData) error {
		steady := p.n == 0 && steadyLobbyVerb(p.Verb)
		if r.Data != nil || !steady && uint64(td.Lobby) != p.n || c.I.Message != nil && LaterID(td.opening(), c.I.Message.ID) {
			return ErrStale
		}
		if v := c.boardVia(); v != nil {
			td.BoardVia = v
		}
		td.lobbyPosted(r)
		switch p.Verb {
		case CverbJoin:
			if td.seated(c.User) {
				return ErrAlreadyJoined
			}
			if len(td.Seats) >= g.MaxSeats {
				return ErrLobbyFull
			}
			td.Seats = append(td.Seats, TableSeat{User: c.User, Name: c.Name})
		case cverbLeave:
			s := td.seatOf(c.User)
			switch {
			case s < 0:
				return ErrNotJoined
			case c.User == td.Creator:
				return ErrCreatorLeave
			}
			td.Seats = slices.Delete(td.Seats, s, s+1)
		case CverbCPU:
			if !slices.Contains(g.Levels, p.Arg) {
				return ErrBadCustomID
			}
			if c.User != td.Creator {
				return ErrNotCreator // the creator seats the computers, as at DIX's table
			}
			if len(td.Seats) >= g.MaxSeats {
				return ErrLobbyFull
			}
			td.Seats = append(td.Seats, TableSeat{Name: locales.T(td.Lang, "table_cpu_name", map[string]any{
				"N": len(td.Seats) + 1, "Level": locales.T(td.Lang, "table_level_"+p.Arg, nil)}), Level: p.Arg})
		case cverbRmCPU:
			if c.User != td.Creator {
				return ErrNotCreator
			}
			last := len(td.Seats) - 1
			if last < 1 || td.Seats[last].User != "" {
				return Refuse(ErrBadInput, "table_err_no_cpu", nil)
			}
			td.Seats = td.Seats[:last]
		case cverbCancel:
			if c.User != td.Creator {
				return ErrNotCreator
			}
			cancelled = true
		case cverbPace:
			if err := choosePace(g, td, c.User, p.Arg); err != nil {
				return err
			}
		case cverbOpt:
			if err := chooseOption(g, td, c.User, p.Arg); err != nil {
				return err
			}
		case CverbGo:
			if c.User != td.Creator {
				return ErrNotCreator
			}
			if len(td.Seats) < g.MinSeats {
				return Refuse(ErrTooFew, "err_too_few", map[string]any{"Min": g.MinSeats})
			}
			now := c.B.Now()
			td.Board = c.I.Message.ID
			st, err := c.B.startTable(g, r, td, now)
			if err != nil {
				return err
			}
			td.oweChange(r, g, st, planPings(st, td, 0, td.seatOf(c.User), now), now)
			started = true
		}
		td.Lobby++
		return nil
	})
	if errors.Is(err, ErrStale) {
		return c.contractStale(g, true)
	}
	if err != nil {
		return err
	}
	c.Shows = &Shows{Seq: uint64(td.Lobby)}
	if cancelled {
		c.Shows = &Shows{Retire: true}
		c.Retry("finish", func(ctx context.Context) error { return c.B.Store.Finish(ctx, c.I.ChannelID) })
		c.Update(locales.T(td.Lang, "table_lobby_closed", map[string]any{"Game": En(g.Rules.Name() + "_title")}), nil, nil)
		return nil
	}
	if started {
		c.settleContract(r)
		return c.showContractBoard(g, r, td)
	}
	content, comps := c.lobbyView(g, td)
	c.Update(content, nil, comps)
	return nil
}

// contractMove applies the clicker's decision, then the forced decisions
// and the computer seats' until a person must decide, in one update.
func (c *Call) contractMove(g *present.Game, p contractParsed) error {
	m := engine.Move(p.Arg)
	if sp, ok := g.Presenter.(present.Stamper); ok {
		click, err := strconv.ParseUint(c.I.ID, 10, 64)
		if err != nil {
			return fmt.Errorf("%w: interaction id %q", ErrBadInput, c.I.ID)
		}
		if m, err = sp.Stamp(m, click); err != nil {
			return fmt.Errorf("%w: %v", ErrBadCustomID, err)
		}
	}
	back := false
	// The computer's decisions this move leads to are worked out before
	// the update, for a game whose computer is slow (foresight.go).
	foreseen := c.foresee(g, p.n, m)
	r, td, err := c.contractChange(g, func(r *dixbot.Record, td *TableData) error {
		if r.Data == nil {
			return ErrStale
		}
		seat := td.seatOf(c.User)
		if seat < 0 {
			if td.seated(c.User) {
				return Refuse(ErrHandedOver, "table_err_handed_over", nil)
			}
			return Refuse(ErrNotInGame, "table_err_not_seated", nil)
		}
		if olderThanBoard(c.I.Message, td.Board) {
			return ErrStale // a message of an earlier game of the channel
		}
		if v := c.boardVia(); v != nil && LaterID(v.Orig, td.Board) {
			// A board posted again (/<game> board) whose adoption was
			// lost: the click makes it the board.
			td.adopt(r, g, v.Orig, v, c.B.Now())
		}
		if td.Paused != "" {
			return Refuse(ErrPaused, "table_err_paused", map[string]any{"Name": td.Paused, "Command": "/" + En(g.Rules.Name()+"_cmd_name")})
		}
		st, err := g.Rules.Decode(r.Data)
		if err != nil {
			return err
		}
		if td.Seats[seat].Away {
			// An absent person's click brings them back, and only that.
			back = true
			td.comeBack(seat, st, c.B.Now())
			setContractDue(r, td, g, st)
			td.oweChange(r, g, st, pingPlan{}, c.B.Now())
			return nil
		}
		switch {
		case p.n > st.Seq():
			return fmt.Errorf("%w: version %d is newer than the game's %d", ErrAhead, p.n, st.Seq())
		case seat < len(td.Open) && p.n < td.Open[seat]:
			return ErrStale
		}
		since := st.Seq() + 1
		now := c.B.Now()
		evs, err := applyOpen(g, st, td, seat, m, now, true)
		if err != nil {
			if errors.Is(err, engine.ErrInvariant) || errors.Is(err, engine.ErrCorrupt) {
				return err
			}
			rf := g.Presenter.Refusal(c.Lang, st, seat, m, err)
			return Refuse(errMoveRefused, rf.Key, td.refusalData(rf))
		}
		more, err := c.B.advanceWith(g, st, td, now, foreseen)
		if err != nil {
			return err
		}
		td.tell(g, append(evs, more...))
		noteActed(td, seat, now)
		td.Seats[seat].Late = 0 // they decide in time again
		setContractDue(r, td, g, st)
		td.oweChange(r, g, st, planPings(st, td, since, seat, now), now)
		r.Data = st.Encode()
		return nil
	})
	if errors.Is(err, ErrAhead) {
		return c.contractRestored(g)
	}
	if errors.Is(err, ErrStale) {
		return c.contractStale(g, false)
	}
	if err != nil {
		return err
	}
	c.settleContract(r)
	if back {
		c.Ephemeral(locales.T(c.Lang, "table_back_you", nil), nil)
		return nil
	}
	switch {
	case c.FromPrompt() || (c.I.Message != nil && c.I.Message.Flags&discordgo.MessageFlagsEphemeral != 0):
		// A decision from a private prompt: the prompt says it is taken,
		// and the public board is edited after the answer (its owed edit).
		// When the seat decides again in a prompt ("your bid won, now
		// pay"), the prompt shows that decision's first step in place.
		if next, st, ok := c.B.nextPrompt(g, r, td, c.Lang, c.User); ok {
			done := locales.T(c.Lang, "table_prompt_done", nil)
			c.Update(withLine(done, next.Content), next.Embeds, promptComponents(g.Rules.Name(), st.Seq(), next), next.Files...)
			return nil
		}
		c.Update(locales.T(c.Lang, "table_prompt_done", nil), nil, nil)
		return nil
	case c.I.Message == nil:
		// A form's submission without its message: said privately.
		c.Ephemeral(locales.T(c.Lang, "table_prompt_done", nil), nil)
		return nil
	}
	return c.showContractBoard(g, r, td)
}

// promptOf is the clicker's seat, the game and the step of draft of the
// presenter's private prompt for a click on a board (or a prompt) of
// version p.n. A draft that is not a step of the seat's decision now is
// refused as a forged custom id; a prompt beyond Discord's limits is the
// presenter's fault, logged and said as an internal error, never cut.
func (c *Call) promptOf(g *present.Game, p contractParsed, draft string) (present.Prompt, engine.State, error) {
	pr, ok := g.Presenter.(present.Prompter)
	if !ok {
		return present.Prompt{}, nil, ErrBadCustomID
	}
	r, td, err := c.contractGet(g)
	if err != nil {
		return present.Prompt{}, nil, err
	}
	if r.Data == nil {
		return present.Prompt{}, nil, ErrStale
	}
	seat := td.seatOf(c.User)
	if seat < 0 {
		return present.Prompt{}, nil, Refuse(ErrNotInGame, "table_err_not_seated", nil)
	}
	st, err := g.Rules.Decode(r.Data)
	if err != nil {
		return present.Prompt{}, nil, err
	}
	if p.n > st.Seq() {
		return present.Prompt{}, nil, fmt.Errorf("%w: version %d is newer than the game's %d", ErrAhead, p.n, st.Seq())
	}
	if olderThanBoard(c.I.Message, td.Board) || (seat < len(td.Open) && p.n < td.Open[seat]) {
		return present.Prompt{}, nil, ErrStale
	}
	if td.Seats[seat].Away {
		// Looking at one's prompt or hand is a click too: an absent
		// person is back.
		if err := c.backAtTable(g); err != nil {
			return present.Prompt{}, nil, err
		}
	}
	prompt, err := c.B.promptStep(pr, td, c.Lang, st, seat, draft)
	var why *present.NoPromptError
	switch {
	case errors.As(err, &why):
		return present.Prompt{}, nil, Refuse(ErrNotYourTurn, why.Refusal.Key, td.refusalData(why.Refusal))
	case errors.Is(err, present.ErrBadDraft):
		return present.Prompt{}, nil, fmt.Errorf("%w: %v", ErrBadCustomID, err)
	case errors.Is(err, present.ErrNoPrompt), err == nil && prompt.Empty():
		return present.Prompt{}, nil, Refuse(ErrNotYourTurn, "table_err_no_prompt", nil)
	case err != nil:
		return present.Prompt{}, nil, err
	}
	if err := prompt.Check(); err != nil {
		return present.Prompt{}, nil, fmt.Errorf("bot: %s's prompt at step %q: %w", g.Rules.Name(), draft, err)
	}
	return c.B.promptPictured(td, prompt), st, nil
}

// backAtTable gives the clicker, absent, their seat back (and does only
// that), as their click on a move would.
func (c *Call) backAtTable(g *present.Game) error {
	r, _, err := c.contractChange(g, func(r *dixbot.Record, td *TableData) error {
		seat := td.seatOf(c.User)
		if seat < 0 || !td.Seats[seat].Away || r.Data == nil {
			return ErrNothingToDo
		}
		st, err := g.Rules.Decode(r.Data)
		if err != nil {
			return err
		}
		td.comeBack(seat, st, c.B.Now())
		setContractDue(r, td, g, st)
		td.oweChange(r, g, st, pingPlan{}, c.B.Now())
		return nil
	})
	if errors.Is(err, ErrNothingToDo) {
		return nil
	}
	if err == nil {
		c.settleContract(r)
	}
	return err
}

// nextPrompt is the first step of the private prompt of user's seat in
// the game r holds, when the seat must decide in one now.
func (b *Bot) nextPrompt(g *present.Game, r *dixbot.Record, td *TableData, lang, user string) (present.Prompt, engine.State, bool) {
	pr, ok := g.Presenter.(present.Prompter)
	seat := td.seatOf(user)
	if !ok || seat < 0 || r.Data == nil || td.Paused != "" {
		return present.Prompt{}, nil, false
	}
	st, err := g.Rules.Decode(r.Data)
	if err != nil || !slices.Contains(st.ToDecide(), seat) {
		return present.Prompt{}, nil, false
	}
	next, err := b.promptStep(pr, td, lang, st, seat, "")
	if err != nil || next.Empty() || next.Check() != nil {
		return present.Prompt{}, nil, false
	}
	return b.promptPictured(td, next), st, true
}

// contractOpenModal opens the form of the clicker's private prompt whose
// verb the button carries.
func (c *Call) contractOpenModal(g *present.Game, p contractParsed) error {
	prompt, st, err := c.promptOf(g, p, "")
	if errors.Is(err, ErrAhead) {
		return c.contractRestored(g)
	}
	if errors.Is(err, ErrStale) {
		return c.contractStale(g, false)
	}
	if err != nil {
		return err
	}
	for _, bt := range prompt.Buttons {
		if md := bt.Modal; md != nil && md.Verb == p.Arg {
			c.Modal(ContractID(g.Rules.Name(), cverbSubmit, st.Seq(), md.Verb), md.Title, []discordgo.TextInput{{
				CustomID: modalText, Label: Truncate(md.Label, 45), Style: discordgo.TextInputShort, Placeholder: Truncate(md.Placeholder, 100),
				Required: true, MinLength: md.Min, MaxLength: md.Max,
			}})
			return nil
		}
	}
	return Refuse(ErrNotYourTurn, "table_err_no_prompt", nil)
}

// contractPrompt shows the step of draft of the clicker's private prompt
// (Prompter): a menu of choices, or buttons, with the step's pictures. It
// writes nothing: a step opened from the board is a new private message,
// one opened from the prompt replaces it in place.
func (c *Call) contractPrompt(g *present.Game, p contractParsed, draft string) error {
	prompt, st, err := c.promptOf(g, p, draft)
	if errors.Is(err, ErrAhead) {
		return c.contractRestored(g)
	}
	if errors.Is(err, ErrStale) {
		return c.contractStale(g, false)
	}
	if err != nil {
		return err
	}
	comps := promptComponents(g.Rules.Name(), st.Seq(), prompt)
	if c.I.Message != nil && c.I.Message.Flags&discordgo.MessageFlagsEphemeral != 0 {
		c.Update(prompt.Content, prompt.Embeds, comps, prompt.Files...)
		return nil
	}
	c.EphemeralFiles(prompt.Content, comps, prompt.Files, prompt.Embeds...)
	return nil
}

// promptComponents are the menu and the buttons of a prompt's step shown
// at state version seq; prompt passed its Check.
func promptComponents(game string, seq uint64, prompt present.Prompt) []discordgo.MessageComponent {
	var comps []discordgo.MessageComponent
	if len(prompt.Choices) > 0 {
		var opts []discordgo.SelectMenuOption
		for _, ch := range prompt.Choices {
			opts = append(opts, discordgo.SelectMenuOption{Label: ch.Label, Value: present.ChoiceValue(ch)})
		}
		comps = append(comps, discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.SelectMenu{CustomID: ContractID(game, cverbSelect, seq, ""), Placeholder: prompt.Placeholder, Options: opts},
		}})
	}
	if len(prompt.Buttons) > 0 {
		comps = append(comps, boardComponents(game, seq, present.Board{Rows: [][]present.Button{prompt.Buttons}})...)
	}
	return comps
}

// olderThanBoard reports whether msg was posted before the board message
// board: it then belongs to an earlier game of the channel, or is a
// board posted again since (custom ids carry only the state's version).
// Message ids are snowflakes, whose order is their creation order
// (https://discord.com/developers/docs/reference#snowflakes); they are
// compared as laterID does.
func olderThanBoard(msg *discordgo.Message, board string) bool {
	if msg == nil || board == "" {
		return false
	}
	return LaterID(board, msg.ID)
}

// applyOpen applies seat's move m and keeps td.Open: a seat whose decision
// opens with this move (newly deciding, deciding again after its own move,
// or deciding something else, for a decisionKeyer) gets the new Seq, and
// now as the start of its clock. A seat whose decision closes is charged
// its time (TableData.spend), seat's own with the increment when made
// (its person clicked, or their time ran out).
func applyOpen(g *present.Game, st engine.State, td *TableData, seat int, m engine.Move, now time.Time, made bool) ([]engine.Event, error) {
	before := st.ToDecide()
	keyer, _ := st.(decisionKeyer)
	var keys []uint64
	if keyer != nil {
		for _, s := range before {
			keys = append(keys, keyer.DecisionKey(s))
		}
	}
	evs, err := st.Apply(seat, m)
	if err != nil {
		return nil, err
	}
	if len(td.Open) < len(td.Seats) {
		td.Open = append(td.Open, make([]uint64, len(td.Seats)-len(td.Open))...)
	}
	after := st.ToDecide()
	for i, s := range before {
		j := slices.Index(after, s)
		if s == seat || j < 0 || (keyer != nil && keyer.DecisionKey(s) != keys[i]) {
			td.spend(g, s, now, made && s == seat)
		}
	}
	for _, s := range after {
		i := slices.Index(before, s)
		if s == seat || i < 0 || (keyer != nil && keyer.DecisionKey(s) != keys[i]) {
			td.Open[s] = st.Seq()
			noteOpened(td, s, now)
			if s < len(td.Wake) {
				td.Wake[s] = 0 // a new decision, a new reaction
			}
		}
	}
	return evs, nil
}

// decisionKeyer is a state that names each seat's current decision, for
// a seat whose decision changes while it stays deciding (in Dixxit, a
// guesser who becomes the next clue-giver when another finds the target).
type decisionKeyer interface {
	DecisionKey(seat int) uint64
}

// maxAdvance bounds the decisions the table takes in one update: more
// than any game's whole length.
const maxAdvance = 100000

// advance takes the forced decisions and the computer seats' decisions
// until a person must decide, the computer seats left are still taking
// their time (reaction_contract.go), or the game is over.
func (b *Bot) advance(g *present.Game, st engine.State, td *TableData, now time.Time) ([]engine.Event, error) {
	return b.advanceWith(g, st, td, now, nil)
}

// advanceWith is advance with the computer's decisions foreseen in f
// (foresight.go; nil: none).
func (b *Bot) advanceWith(g *present.Game, st engine.State, td *TableData, now time.Time, f *foresight) ([]engine.Event, error) {
	var all []engine.Event
	if td.Paused != "" {
		return nil, nil // nobody plays while the game is paused
	}
	f = f.of(td)
	player := func(level string) engine.Player { return f.player(g.Player(level), level) }
	if g.PlayerIn != nil {
		player = func(level string) engine.Player { return f.player(g.PlayerIn(level, td.Lang), level) }
	}
	for range maxAdvance {
		if st.Over() {
			return all, nil
		}
		seat, m, ok := -1, engine.Move(""), false
		due, dueAt := -1, int64(0) // the computer seat whose reaction ended first
		for _, s := range st.ToDecide() {
			m, ok = st.Forced(s)
			if !ok && s < len(td.Seats) && td.Seats[s].Away && td.Seats[s].Level == "" {
				var err error
				r := rand.New(rand.NewPCG(uint64(td.Seed), st.Seq()*8+uint64(s)))
				if m, err = f.player(g.Player(g.Default), g.Default).Timeout(st, s, r); err != nil {
					return nil, fmt.Errorf("bot: absent seat %d: %w", s, err)
				}
				ok = true
			}
			if !ok && s < len(td.Seats) && td.Seats[s].Level != "" {
				if at, reacts := td.wake(g, st, s, now); reacts {
					if at <= now.UnixMilli() && td.Missing == nil && (due < 0 || at < dueAt) {
						due, dueAt = s, at
					}
					continue
				}
				var err error
				r := rand.New(rand.NewPCG(uint64(td.Seed), st.Seq()*8+uint64(s)))
				if m, err = player(td.Seats[s].Level).Decide(st, s, r); err != nil {
					return nil, fmt.Errorf("bot: computer seat %d: %w", s, err)
				}
				ok = true
			}
			if ok {
				seat = s
				break // who decides may have changed
			}
		}
		if seat < 0 && due >= 0 {
			var err error
			r := rand.New(rand.NewPCG(uint64(td.Seed), st.Seq()*8+uint64(due)))
			if m, err = player(td.Seats[due].Level).Decide(st, due, r); err != nil {
				return nil, fmt.Errorf("bot: computer seat %d: %w", due, err)
			}
			if m, err = stampAt(g, m, time.UnixMilli(dueAt)); err != nil {
				return nil, fmt.Errorf("bot: computer seat %d: %w", due, err)
			}
			seat = due
		}
		if seat < 0 {
			return all, nil
		}
		evs, err := applyOpen(g, st, td, seat, m, now, false)
		if err != nil {
			return nil, fmt.Errorf("bot: decision %q of seat %d: %w", m, seat, err)
		}
		all = append(all, evs...)
	}
	return nil, fmt.Errorf("%w: the game does not end", engine.ErrInvariant)
}

func appendLog(log, lines []string) []string {
	log = append(log, lines...)
	if len(log) > maxTableLog {
		log = append([]string(nil), log[len(log)-maxTableLog:]...)
	}
	return log
}

// contractBoard renders the record's board: the lobby before the game,
// the running board with the buttons of the decisions open, or the final
// scoreboard.
//
// kept is the picture the message shows already ("": none known): a board
// showing that same picture is not drawn, and carries no files
// (present.Table.Kept).
func (b *Bot) contractBoard(g *present.Game, r *dixbot.Record, td *TableData, kept string) (present.Board, engine.State, error) {
	st, err := g.Rules.Decode(r.Data)
	if err != nil {
		return present.Board{}, nil, err
	}
	t := td.boardTable(g, st, !b.NoPictures)
	t.Kept = kept
	pb := g.Presenter.Board(t, st)
	if err := pb.Check(); err != nil {
		// The presenter's fault: Discord refuses the board as it is, and the
		// table cuts nothing of it.
		b.Log.Error("a board beyond Discord's limits", "game", g.Rules.Name(), "err", err)
	}
	pb.Content = withLine(pb.Content, tableClockLine(g, st, td))
	return pb, st, nil
}

// buttonsVersion is the version a board's decision buttons carry: for a
// game with SteadyButtons, the latest at which a decision still open
// opened (td.Open), so that the buttons keep their custom ids while seats
// decide at once; otherwise, and when no decision is open, the version of
// st.
func buttonsVersion(g *present.Game, st engine.State, td *TableData) uint64 {
	if !g.SteadyButtons {
		return st.Seq()
	}
	n, open := uint64(0), false
	for _, s := range st.ToDecide() {
		if s < len(td.Open) {
			n, open = max(n, td.Open[s]), true
		}
	}
	if !open || n > st.Seq() {
		return st.Seq()
	}
	return n
}

// boardComponents are the buttons of a board at state version seq; never
// nil, so that an edit to a board without buttons sends an empty list,
// which removes the buttons: Discord keeps them on a "components": null
// (https://github.com/discord/discord-api-docs/issues/5860).
func boardComponents(game string, seq uint64, pb present.Board) []discordgo.MessageComponent {
	rows := []discordgo.MessageComponent{}
	for _, row := range pb.Rows {
		var cs []discordgo.MessageComponent
		for _, bt := range row {
			btn := discordgo.Button{Label: bt.Label, Style: bt.Style, CustomID: ContractID(game, CverbMove, seq, string(bt.Move))}
			switch {
			case bt.Prompt:
				btn.CustomID = ContractID(game, cverbPrompt, seq, "")
			case bt.Next != "":
				btn.CustomID = ContractID(game, cverbStep, seq, bt.Next)
			case bt.Modal != nil:
				btn.CustomID = ContractID(game, cverbModal, seq, bt.Modal.Verb)
			}
			if btn.Style == 0 {
				btn.Style = discordgo.SecondaryButton
			}
			if bt.Emoji != "" {
				btn.Emoji = &discordgo.ComponentEmoji{Name: bt.Emoji}
			}
			cs = append(cs, btn)
		}
		if len(cs) > 0 {
			rows = append(rows, discordgo.ActionsRow{Components: cs})
		}
	}
	return rows
}

// showContractBoard answers the click by drawing the board in place; for a
// game over the board is its scoreboard (the game is archived by its last
// effect).
//
// The answer carries the board's pictures even when the message has them
// (see answerContractPicture).
func (c *Call) showContractBoard(g *present.Game, r *dixbot.Record, td *TableData) error {
	pb, st, err := c.B.contractBoard(g, r, td, "")
	if err != nil {
		return err
	}
	c.keepContractPicture(td, pb.Picture)
	c.AnswerPic = pb.Picture
	c.Shows = &Shows{Seq: boardSeq(td, st)}
	c.Update(pb.Content, pb.Embeds, tableComponents(g, st, td, pb), pb.Files...)
	return nil
}

// boardSeq is what a contract game's board message shows, for its fence:
// the lobby's counter while it is a lobby (td.Lobby), then that counter
// plus the game's version, so a render of the same game is never older
// whatever else the table data recorded since.
func boardSeq(td *TableData, st engine.State) uint64 {
	return uint64(td.Lobby) + st.Seq()
}

// contractStale answers an outdated click: a click on the current board
// redraws it as it stands, and the clicker is told privately.
func (c *Call) contractStale(g *present.Game, lobbyClick bool) error {
	text := locales.T(c.Lang, "err_stale", nil)
	r, td, err := c.contractGet(g)
	if seat := -1; err == nil {
		if seat = td.seatOf(c.User); seat >= 0 && td.Seats[seat].Away {
			// Any click of an absent person brings them back, an
			// outdated one too.
			if err := c.backAtTable(g); err != nil {
				return err
			}
		}
	}
	if err == nil && c.I.Message != nil && c.I.Message.Flags&discordgo.MessageFlagsEphemeral == 0 {
		switch {
		case r.Data == nil && lobbyClick:
			content, comps := c.lobbyView(g, td)
			c.Shows = &Shows{Seq: uint64(td.Lobby)}
			c.Update(content, nil, comps)
		case c.I.Message.ID == td.Board && c.boardUpToDate(g, r, td):
			// Shown as it stands, or about to be: the answer is the
			// notice alone, which costs no request (a burst of clicks
			// redrawing the board would spend the channel's webhook
			// messages on notices).
		case c.I.Message.ID == td.Board:
			if err := c.showContractBoard(g, r, td); err != nil {
				return err
			}
		case r.Data != nil && td.Board != "" && (lobbyClick || olderThanBoard(c.I.Message, td.Board)):
			// A board (or lobby) that should have been retired: it is,
			// by this answer, and the clicker is led to the board.
			c.Shows = &Shows{Retire: true}
			c.Update(c.I.Message.Content, c.I.Message.Embeds, nil)
			text += "\n" + locales.T(c.Lang, "stale_link", map[string]any{"URL": MessageURL(c.I.GuildID, c.I.ChannelID, td.Board)})
		}
	}
	c.Ephemeral(text, nil)
	return nil
}

// contractRestored answers a click on a message showing a later state of
// the game than the store has (its data restored from an older copy):
// the message says so and loses its buttons in the answer itself, and a
// fresh board showing the game as the store has it is posted after it (a
// follow-up of the click) and becomes the table's board, so that the game
// goes on from there.
func (c *Call) contractRestored(g *present.Game) error {
	r, td, err := c.contractGet(g)
	if err != nil {
		return err
	}
	if r.Data == nil || c.I.Message == nil || c.I.Message.Flags&discordgo.MessageFlagsEphemeral != 0 {
		return c.contractStale(g, false)
	}
	pb, st, err := c.B.contractBoard(g, r, td, "")
	if err != nil {
		return err
	}
	c.B.Log.Info("buttons of a game the store has at an older state retired", "interaction", c.I.ID, "channel", c.I.ChannelID,
		"message", c.I.Message.ID)
	c.Shows = &Shows{Retire: true}
	c.Update(locales.T(c.Lang, "err_game_restored", nil), c.I.Message.Embeds, nil)
	board := &discordgo.WebhookParams{Content: pb.Content, Embeds: pb.Embeds, Files: pb.Files,
		Components: tableComponents(g, st, td, pb), AllowedMentions: NoMentions()}
	c.adoptPosted(g, contractTableOf(td), r.Version, func(ctx context.Context) (*discordgo.Message, string, error) {
		msg, err := c.D.Followup(ctx, c.I, board)
		if err != nil || msg == nil {
			return nil, "", err
		}
		return msg, msg.ID, nil
	})
	return nil
}

// boardUpToDate reports whether the board of r needs no redraw for an
// outdated click on it: the click is not from a game ahead of the stored
// one (a store restored from a backup), and an edit of the board is owed
// (whoever makes it shows the game as it stands then) or this process
// made it show the game as it stands.
func (c *Call) boardUpToDate(g *present.Game, r *dixbot.Record, td *TableData) bool {
	if r.Data == nil || c.I.Type != discordgo.InteractionMessageComponent {
		return false
	}
	st, err := g.Rules.Decode(r.Data)
	if err != nil {
		return false
	}
	if p, err := ParseContractID(c.I.MessageComponentData().CustomID); err != nil || p.n > st.Seq() {
		return false
	}
	if slices.ContainsFunc(td.Outbox, func(e Effect) bool { return e.Kind == ceffEdit }) {
		return true
	}
	seq, ok := c.B.Fences.Shown(td.Board)
	return ok && seq == boardSeq(td, st)
}

// contractBoardCommand posts the board (or the lobby) again: /<game> board.
func (c *Call) contractBoardCommand(g *present.Game) error {
	r, td, err := c.contractGet(g)
	if err != nil {
		return err
	}
	if r.Data == nil {
		content, comps := c.lobbyView(g, td)
		c.Respond(&discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: content, Components: comps, AllowedMentions: NoMentions()},
		})
		if o := td.opening(); o != "" {
			c.adoptBoard(g, "lobby "+o, r.Version)
		}
		return nil
	}
	pb, st, err := c.B.contractBoard(g, r, td, "")
	if err != nil {
		return err
	}
	c.Respond(&discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: pb.Content, Embeds: pb.Embeds, Files: pb.Files,
			Components: tableComponents(g, st, td, pb), AllowedMentions: NoMentions()},
	})
	if contractTableOf(td) != "" {
		c.adoptBoard(g, contractTableOf(td), r.Version)
	}
	return nil
}

// adoptBoard makes the answer of /<game> board, which showed the game
// of table at version shown, the table's board once it is posted: clicks
// and edits go to it, the previous board loses its buttons (and its
// clicks are outdated), a ping waiting for a decision leads to it, and a
// game that moved on meanwhile is shown on it. A board posted again by an
// earlier command loses its buttons to a later one; the message loses
// them too when its table ended (or its lobby started) meanwhile. In a
// lobby (table "lobby <opening>") the new message is the lobby's.
func (c *Call) adoptBoard(g *present.Game, table string, shown uint64) {
	c.adoptPosted(g, table, shown, func(ctx context.Context) (*discordgo.Message, string, error) {
		msg, err := c.D.Original(ctx, c.I)
		return msg, "@original", err
	})
}

// adoptPosted is adoptBoard for the message post posts after the answer
// through the interaction's token (with the id its edits go to).
func (c *Call) adoptPosted(g *present.Game, table string, shown uint64, post func(context.Context) (*discordgo.Message, string, error)) {
	channel, i, at := c.I.ChannelID, c.I, c.At
	done := c.B.Batches.Start(channel)
	c.Then(func(ctx context.Context) {
		defer done()
		msg, target, err := post(ctx)
		if err != nil || msg == nil {
			c.B.Log.Warn("could not read the board posted again", "channel", channel, "err", err)
			return
		}
		v := &Via{App: i.AppID, Token: i.Token, At: at.UnixMilli(), Orig: msg.ID}
		ended := true // the table is no longer the channel's
		// The adoption is tried again while the store fails for a moment:
		// a board posted again and not adopted would keep live buttons
		// beside the board (a click on it adopts it too: contractMove).
		rec, err := c.B.retryUpdate(ctx, channel, func(r *dixbot.Record) error {
			if r.Game != g.Rules.Name() {
				return ErrNothingToDo
			}
			td, err := DecodeTableData(r.Meta)
			if err != nil {
				return err
			}
			now := c.B.Now()
			if lobby := "lobby " + td.opening(); r.Data == nil || table == lobby {
				ended = r.Data != nil || table != lobby
				if ended {
					return ErrNothingToDo
				}
				v0 := td.BoardVia
				switch {
				case v0 != nil && v0.Orig == msg.ID:
					return ErrNothingToDo
				case v0 != nil && LaterID(v0.Orig, msg.ID):
					// A later /<game> board was adopted first.
					td.owe(r, now, Effect{Kind: ceffRetire, Msg: msg.ID, Via: v})
				default:
					if v0 != nil {
						td.owe(r, now, Effect{Kind: ceffRetire, Msg: v0.Orig, Via: v0})
					}
					td.BoardVia = v
				}
				r.Meta = td.Encode()
				return nil
			}
			ended = contractTableOf(td) != table
			switch {
			case ended || msg.ID == td.Board:
				return ErrNothingToDo
			case !LaterID(msg.ID, td.Board):
				// A later /<game> board was adopted first.
				td.owe(r, now, Effect{Kind: ceffRetire, Msg: msg.ID, Via: v})
			default:
				td.adopt(r, g, msg.ID, v, now)
				if r.Version != shown {
					td.owe(r, now, Effect{Kind: ceffEdit, Again: true})
				}
			}
			r.Meta = td.Encode()
			return nil
		})
		if ended && (err == nil || errors.Is(err, ErrNothingToDo) || errors.Is(err, dixbot.ErrNotFound)) {
			// Ended (or followed by another game) before its board was
			// posted again: that message keeps no buttons.
			none := []discordgo.MessageComponent{}
			if err := c.D.FollowupEdit(ctx, i, target, &discordgo.WebhookEdit{Components: &none, AllowedMentions: NoMentions()}); err != nil {
				c.B.Log.Info("could not take the buttons off a board of an ended game", "channel", channel, "err", err)
			}
			return
		}
		if errors.Is(err, ErrNothingToDo) {
			return
		}
		if err != nil {
			c.B.Log.Warn("could not make the board posted again the board", "channel", channel, "err", err)
			return
		}
		c.B.WakeAt(rec.Due)
		if err := c.B.contractOutbox(ctx, c.B.ApiFor(ctx), rec, nil, 0); err != nil {
			c.B.Log.Warn("effects left for later", "channel", channel, "err", err)
		}
	})
}

// contractHint gives the caller the presenter's advice: /<game> hint.
func (c *Call) contractHint(g *present.Game) error {
	h, ok := g.Presenter.(present.Hinter)
	if !ok {
		return ErrBadInput
	}
	r, td, err := c.contractGet(g)
	if err != nil {
		return err
	}
	seat := td.seatOf(c.User)
	if seat < 0 {
		return Refuse(ErrNotInGame, "table_err_not_seated", nil)
	}
	if r.Data == nil {
		return Refuse(ErrNotStarted, "table_err_not_started", nil)
	}
	st, err := g.Rules.Decode(r.Data)
	if err != nil {
		return err
	}
	c.EphemeralText(h.Hint(c.Lang, st, seat))
	return nil
}

// contractLeave hands the caller's seat to the computer: /<game> leave.
// In a lobby the caller leaves it.
func (c *Call) contractLeave(g *present.Game) error {
	lobby := false
	r, _, err := c.contractChange(g, func(r *dixbot.Record, td *TableData) error {
		s := td.seatOf(c.User)
		if s < 0 {
			return Refuse(ErrNotInGame, "table_err_not_seated", nil)
		}
		if r.Data == nil {
			if c.User == td.Creator {
				return ErrCreatorLeave
			}
			lobby = true
			td.Seats = slices.Delete(td.Seats, s, s+1)
			td.Lobby++
			return nil
		}
		st, err := g.Rules.Decode(r.Data)
		if err != nil {
			return err
		}
		td.Seats[s].Level = g.Default
		since := st.Seq() + 1
		evs, err := c.B.advance(g, st, td, c.B.Now())
		if err != nil {
			return err
		}
		td.addLog([]string{locales.T(td.Lang, "table_left", map[string]any{"Name": td.Seats[s].Name})})
		td.tell(g, evs)
		setContractDue(r, td, g, st)
		td.oweChange(r, g, st, planPings(st, td, since, s, c.B.Now()), c.B.Now())
		r.Data = st.Encode()
		return nil
	})
	if err != nil {
		return err
	}
	key := "table_left_you"
	if lobby {
		key = "table_left_lobby_you"
	}
	c.Ephemeral(locales.T(c.Lang, key, nil), nil)
	if !lobby {
		c.settleContract(r)
	}
	return nil
}

// contractAbandon asks the game's creator, the last person still playing,
// or a member who may manage the channel, to confirm that the game ends
// (DISCORD-UX: /dix abandon, which every game's table follows); anyone
// else is refused.
func (c *Call) contractAbandon(g *present.Game) error {
	r, td, err := c.contractGet(g)
	if err != nil {
		return err
	}
	if !c.Manages(td.Creator) && !td.lastPlaying(c.User) {
		return ErrNoPermission
	}
	name := g.Rules.Name()
	c.Ephemeral(locales.T(c.Lang, "abandon_confirm", nil), []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		Button(c.Lang, "btn_abandon_yes", nil, discordgo.DangerButton, ContractID(name, CverbEnd, r.Version, abandonArg(td))),
		Button(c.Lang, "btn_abandon_no", nil, discordgo.SecondaryButton, ContractID(name, cverbKeep, 0, "")),
	}}})
	return nil
}

// abandonArg names the table a confirmation of /<game> abandon was asked
// at: its opening and its board ("-" before the board is known).
func abandonArg(td *TableData) string {
	if t := contractTableOf(td); t != "" {
		return t
	}
	return "-"
}

// contractEnd ends the game once /<game> abandon is confirmed: the channel
// is told who ended it; the board says so instead of its clock, and it (or
// the lobby) loses its buttons; a ping waiting for a decision says it too. A confirmation of
// an earlier table, or by someone who may not end the game, changes
// nothing; one whose game is over already (ended by another confirmation,
// say) is told so.
func (c *Call) contractEnd(g *present.Game, p contractParsed) error {
	r, td, err := c.contractGet(g)
	if errors.Is(err, dixbot.ErrNotFound) || errors.Is(err, ErrOtherGame) {
		// Confirmed by someone else first (or the game ended meanwhile):
		// the confirmation says so, and loses its buttons.
		c.UpdateOrReply(locales.T(c.Lang, "table_abandon_over", map[string]any{"Game": En(g.Rules.Name() + "_title")}), nil)
		return nil
	}
	if err != nil {
		return err
	}
	switch {
	case p.n == 0 || p.Arg != abandonArg(td):
		return ErrStale
	case p.n > r.Version:
		return fmt.Errorf("%w: version %d is newer than the record's %d", ErrBadCustomID, p.n, r.Version)
	}
	if !c.Manages(td.Creator) && !td.lastPlaying(c.User) {
		return ErrNoPermission
	}
	if err := c.Retry("finish", func(ctx context.Context) error { return c.B.finishTable(ctx, c.I.ChannelID, r.Game, td) }); err != nil {
		return err
	}
	c.UpdateOrReply(locales.T(c.Lang, "abandon_done", nil), nil)
	notice := locales.T(td.Lang, "table_abandoned", map[string]any{"Name": c.Name, "Game": En(g.Rules.Name() + "_title")})
	// The board says it ended where it said who must decide, without its
	// clock; its picture stays. A ping waiting for a decision says there
	// is none any more, in fewer words.
	var ended *string
	if r.Data != nil {
		if st, err := g.Rules.Decode(r.Data); err == nil {
			t := td.table(!c.B.NoPictures)
			t.Kept, t.Abandoned = td.picKey(), notice
			text := g.Presenter.Board(t, st).Content
			ended = &text
		}
	}
	settled := locales.T(td.Lang, "table_ping_abandoned", nil)
	board, v, ping := td.Board, td.BoardVia, td.Ping
	c.Then(func(ctx context.Context) {
		d := c.B.ApiFor(ctx)
		if _, err := d.Followup(ctx, c.I, &discordgo.WebhookParams{Content: notice, AllowedMentions: NoMentions()}); err != nil {
			c.B.Log.Warn("could not tell the channel the game was abandoned", "channel", c.I.ChannelID, "err", err)
		}
		if ping != nil && ping.ID != "" {
			// The ping's decision will not be made: it says so.
			text := settled
			var err error
			if ping.Via.Usable(time.Now()) {
				err = d.FollowupEdit(ctx, ping.Via.Interaction(), ping.ID, &discordgo.WebhookEdit{Content: &text, AllowedMentions: NoMentions()})
			}
			if !ping.Via.Usable(time.Now()) || err != nil {
				err = d.Edit(ctx, &discordgo.MessageEdit{Channel: c.I.ChannelID, ID: ping.ID, Content: &text, AllowedMentions: NoMentions()})
			}
			if err != nil {
				c.B.Log.Warn("could not settle the ping of an abandoned game", "channel", c.I.ChannelID, "err", err)
			}
		}
		if board == "" {
			return
		}
		c.B.Fences.Send(board, Shows{Retire: true}, c.B.Now(), func() error {
			none := &[]discordgo.MessageComponent{}
			if v.Usable(time.Now()) && (v.Orig == "" || v.Orig == board) {
				// The board's newest interaction edits it (outbox_contract.go).
				if err := d.FollowupEdit(ctx, v.Interaction(), "@original", &discordgo.WebhookEdit{Content: ended, Components: none}); err == nil {
					return nil
				}
			}
			return d.Edit(ctx, &discordgo.MessageEdit{Channel: c.I.ChannelID, ID: board, Content: ended, Components: none})
		})
	})
	return nil
}
