// Package present is what the Discord table asks of a game beyond the
// engine contract: a presenter that turns a state into a board (text,
// picture, buttons), events into lines and refusals into words, in the
// reader's language. The table (package bot) and each game's presenter
// (bot/<game>) both import it; it imports no game and not the table.
package present

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	fastjson "github.com/segmentio/encoding/json"

	"github.com/dixgame/dixbot/clock"
	"github.com/dixgame/dixbot/engine"
	"github.com/dixgame/dixbot/picture"
)

// Table is what the table tells a presenter about one game besides its
// state.
type Table struct {
	Lang     string   // the game's language ("en", "fr")
	Names    []string // display names by seat
	Computer []bool   // by seat: the computer plays it
	Log      []string // the latest event lines, oldest first, already in Lang
	// Abandoned, when set, says the game was abandoned: the board shows it
	// where it would say who must decide, and no buttons.
	Abandoned string
	// Ended, for a Rounder, are the lines that ended the round before the
	// current one (Log then holds the current round's only), in Lang.
	Ended    []string
	Pictures bool // draw the board as a picture
	// Marks are, by seat, what the board's text adds after a seat's name,
	// in Lang: the computer plays it for good (a computer player, or a
	// person's seat handed to the computer), or the person is absent (the
	// computer plays for them until they click); "" for none.
	Marks []string
	// TimeLeft are, by seat, the time left in the bank of a person who is
	// not deciding, for a pace of time banks (Pace.Bank), in Lang; "" for
	// none. The time of a person deciding is the table's clock line.
	TimeLeft []string
	// Pace is the game's pace as the lobby names it, in Lang; "" for a
	// game of one pace or none.
	Pace string
	// Kept is the Picture of the board the message shows already ("":
	// none known). A board whose Picture is Kept is not drawn again: its
	// Files are left out, its Embeds still show them by name
	// (attachment://<name>), as the message keeps the files it has.
	Kept string
}

// Name returns the display name of seat as text of a message, escaped
// (Escape: a name is what its person typed), "?" for a seat the table does
// not have. Pictures draw Names as they are.
func (t Table) Name(seat int) string {
	if seat >= 0 && seat < len(t.Names) {
		return Escape(t.Names[seat])
	}
	return "?"
}

// PictureMarks returns, for n seats, the mark every game's pictures draw
// before each seat's name: a robot for a seat the computer plays (a
// computer player, a seat handed to the computer for good, a seat the
// table does not hold, such as a solo game's virtual player), a moon for
// an absent player.
func (t Table) PictureMarks(n int) []picture.Mark {
	marks := make([]picture.Mark, n)
	for s := range marks {
		switch {
		case s >= len(t.Computer) || t.Computer[s]:
			marks[s] = picture.MarkComputer
		case s < len(t.Marks) && t.Marks[s] != "":
			marks[s] = picture.MarkAway
		}
	}
	return marks
}

// Label returns the display name of seat followed by its mark, for the
// board's lines about seats (their sheets, who is still to decide).
func (t Table) Label(seat int) string {
	if seat >= 0 && seat < len(t.Marks) {
		return t.Name(seat) + t.Marks[seat]
	}
	return t.Name(seat)
}

// LabelList returns the labels of seats, comma-separated.
func (t Table) LabelList(seats []int) string {
	out := make([]string, 0, len(seats))
	for _, s := range seats {
		out = append(out, t.Label(s))
	}
	return strings.Join(out, ", ")
}

// NameList returns the display names of seats, comma-separated.
func (t Table) NameList(seats []int) string {
	out := make([]string, 0, len(seats))
	for _, s := range seats {
		out = append(out, t.Name(s))
	}
	return strings.Join(out, ", ")
}

// Button is one button of a board: a click on it is the move Move of the
// clicker's own seat. The table builds its custom id.
type Button struct {
	Label string
	Emoji string // an emoji shown before the label ("" for none)
	Move  engine.Move
	Style discordgo.ButtonStyle
	// Prompt: the button opens the presenter's private prompt for the
	// clicker (Prompter) instead of making a move; Move is then empty.
	Prompt bool
	// Modal: the button opens a form with one text field; its submission
	// is the move Modal.Verb + " " + the text. Move is then empty.
	Modal *Modal
	// Next, in a private prompt: the button shows the prompt's step of
	// this draft (Prompter) instead of making a move; Move is then empty.
	Next string
}

// Modal is a form of one text field whose submission is a move.
type Modal struct {
	Verb        string // the move's first word; the text follows it
	Title       string
	Label       string
	Placeholder string
	Min, Max    int // the text's length bounds, in characters
}

// Stamper is a Presenter whose moves take the time of the click: the table
// passes every move a person makes through Stamp with the interaction's
// snowflake id (Discord's time of the click) before applying it, and the
// move of a computer seat that took its time (Game.Reaction) with the
// snowflake of the moment its decision was due. An error refuses the move
// as forged.
type Stamper interface {
	Stamp(m engine.Move, click uint64) (engine.Move, error)
}

// Prompter is a Presenter with a private prompt, where a seat may give
// several decisions at once.
//
// A prompt may take several steps (boardgame.io calls them stages): a
// choice or a button either makes a move, or shows the next step of the
// same decision, named by a draft (Choice.Next, Button.Next) that its
// custom id carries. The table shows a step without writing to the store,
// and asks Prompt again on every click, so a draft is checked against the
// game as it stands then. A list longer than Discord allows is split into
// steps by the presenter: the table never cuts one (Prompt.Check).
type Prompter interface {
	// Prompt is seat's private prompt in st at the step of draft ("": the
	// first step), at table t as its board shows it but in the clicker's
	// language (t.Lang), so that a step names the seats as the table does.
	// It returns an error wrapping ErrNoPrompt when the seat has nothing
	// to decide in a prompt now, and one wrapping ErrBadDraft when draft
	// is not a step of the seat's decision now (forged, or of an earlier
	// state).
	Prompt(t Table, st engine.State, seat int, draft string) (Prompt, error)
}

// Errors of a Prompter.
var (
	ErrNoPrompt = errors.New("present: nothing to decide in a prompt")
	ErrBadDraft = errors.New("present: not a step of the decision open")
)

// NoPromptError is ErrNoPrompt with the words that say why, to the
// clicker alone ("only Ann gives the clue this turn").
type NoPromptError struct{ Refusal Refusal }

func (e *NoPromptError) Error() string { return ErrNoPrompt.Error() + ": " + e.Refusal.Key }
func (e *NoPromptError) Unwrap() error { return ErrNoPrompt }

// Discord's limits on a message, its components, forms and commands
// (https://discord.com/developers/docs/interactions/message-components,
// https://discord.com/developers/docs/resources/message#create-message,
// https://discord.com/developers/docs/interactions/application-commands):
// the one place the table and the presenters take them from.
const (
	MaxRows        = 5    // action rows of a message
	MaxRowButtons  = 5    // buttons of a row
	MaxOptions     = 25   // options of a select menu
	MaxCustomID    = 100  // characters of a custom id
	MaxButtonLabel = 80   // characters of a button's label
	MaxOptionLabel = 100  // characters of an option's label
	MaxOptionValue = 100  // characters of an option's value
	MaxOptionDesc  = 100  // characters of an option's description
	MaxMenuHolder  = 150  // characters of a select menu's placeholder
	MaxContent     = 2000 // characters of a message's text
	MaxModalTitle  = 45   // characters of a form's title
	MaxInputLabel  = 45   // characters of a form's text field's label
	MaxInputHolder = 100  // characters of a text field's placeholder
	MaxInputText   = 4000 // characters of a text field's value
	MaxChoiceName  = 100  // characters of a command option's choice name, and of an option's description
)

// Discord's limits on a message's embeds
// (https://discord.com/developers/docs/resources/message#embed-object-embed-limits).
const (
	MaxDescription = 4096 // characters of an embed's description
	MaxEmbeds      = 10   // embeds of a message
	MaxEmbedsText  = 6000 // characters of all the embeds of a message
)

// Prompt is one step of a private prompt: a text and a menu of choices,
// or buttons (moves, forms, next steps), with pictures. It fits in one
// message: at most MaxOptions choices, one row of at most MaxRowButtons
// buttons (Check).
type Prompt struct {
	Content     string
	Placeholder string
	Choices     []Choice
	Buttons     []Button
	Embeds      []*discordgo.MessageEmbed
	Files       []*discordgo.File
	// Picture is the step's picture, drawn and shown in its first embed
	// only when its table shows pictures; nil: none.
	Picture *Picture
}

// Picture is a picture a step of a prompt shows when its table shows
// pictures (a game started with pictures off shows none): the table
// draws it then, attaches it as File and shows it in the step's first
// embed. One that fails to draw is left out: the text says everything
// it shows.
type Picture struct {
	File string
	Draw func() ([]byte, error)
	// Framed: the first embed only frames the picture (a title), and is
	// left out with it.
	Framed bool
}

// Empty reports whether p shows nothing: no text, choice, button or
// embed.
func (p Prompt) Empty() bool {
	return p.Content == "" && len(p.Choices) == 0 && len(p.Buttons) == 0 && len(p.Embeds) == 0
}

// Choice is one entry of a prompt's menu: a move, or the next step.
type Choice struct {
	Label string
	Move  engine.Move // non-empty: applying it is the choice's effect
	Next  string      // non-empty: the choice shows the step of this draft
}

// Check returns an error wrapping ErrTooBig when p does not fit in one
// Discord message as the table builds it: too many choices or buttons, a
// label too long, a move or draft longer than a custom id carries
// (engine.MaxMoveLen), a choice that is neither a move nor a step, or two
// choices that are the same. The table shows no prompt that fails it.
func (p Prompt) Check() error {
	if len(p.Choices) > MaxOptions {
		return fmt.Errorf("%w: %d choices", ErrTooBig, len(p.Choices))
	}
	if len(p.Buttons) > MaxRowButtons {
		return fmt.Errorf("%w: %d buttons", ErrTooBig, len(p.Buttons))
	}
	seen := map[string]bool{}
	for _, c := range p.Choices {
		v := ChoiceValue(c)
		switch {
		case utf8.RuneCountInString(c.Label) > MaxOptionLabel || c.Label == "":
			return fmt.Errorf("%w: choice label %q", ErrTooBig, c.Label)
		case (c.Move == "") == (c.Next == ""):
			return fmt.Errorf("%w: choice %q is both or neither a move and a step", ErrTooBig, c.Label)
		case len(c.Move) > engine.MaxMoveLen || len(c.Next) > engine.MaxMoveLen || len(v) > MaxOptionValue:
			return fmt.Errorf("%w: choice value %q", ErrTooBig, v)
		case seen[v]:
			return fmt.Errorf("%w: choice %q twice", ErrTooBig, v)
		}
		seen[v] = true
	}
	for _, b := range p.Buttons {
		if utf8.RuneCountInString(b.Label) > MaxButtonLabel || len(b.Move) > engine.MaxMoveLen || len(b.Next) > engine.MaxMoveLen {
			return fmt.Errorf("%w: button %q", ErrTooBig, b.Label)
		}
	}
	return nil
}

// ErrTooBig: a prompt or a board that does not fit in a Discord message.
var ErrTooBig = errors.New("present: beyond Discord's limits")

// ChoiceValue is the value of c in a menu: "mv:" and its move, or "st:"
// and the draft of the step it shows.
func ChoiceValue(c Choice) string {
	if c.Next != "" {
		return "st:" + c.Next
	}
	return "mv:" + string(c.Move)
}

// Board is a rendered board message.
type Board struct {
	Content string
	Embeds  []*discordgo.MessageEmbed
	Files   []*discordgo.File
	Rows    [][]Button // at most 5 rows of at most 5 buttons
	// Picture names what the board's files show, worked out from their
	// public input without drawing them (PictureKey): two boards with the
	// same Picture have the same files, by name and content. "": no files.
	Picture string
}

// PictureKey is the Picture of files drawn from parts alone (each a
// picture's input and its file name, say): a hash of their JSON (as
// encoding/json writes it, by a faster encoder). parts
// must hold everything the files show, and only public information; ""
// when they cannot be encoded.
func PictureKey(parts ...any) string {
	b, err := fastjson.Marshal(parts)
	if err != nil {
		return ""
	}
	k := sha256.Sum256(b)
	return hex.EncodeToString(k[:16])
}

// Refusal is a move refused by the engine, said to the clicker alone: a
// locale key and its data.
type Refusal struct {
	Key  string
	Data map[string]any
	// Names are data keys whose value is a seat's name: the table adds
	// them to Data.
	Names map[string]int
}

// DataWith is r's data with each seat r names given by name.
func (r Refusal) DataWith(name func(seat int) string) map[string]any {
	if len(r.Names) == 0 {
		return r.Data
	}
	data := make(map[string]any, len(r.Data)+len(r.Names))
	maps.Copy(data, r.Data)
	for k, s := range r.Names {
		data[k] = name(s)
	}
	return data
}

// Presenter renders one game. Implementations are safe for concurrent use.
type Presenter interface {
	// Board renders st for everyone: the running board with the buttons of
	// the decisions open, or, once st is over, the final scoreboard
	// without buttons.
	Board(t Table, st engine.State) Board
	// Events renders what happened, one line per event worth telling.
	Events(t Table, evs []engine.Event) []string
	// Refusal says why seat may not make move m in st (err is Apply's).
	Refusal(lang string, st engine.State, seat int, m engine.Move, err error) Refusal
	// Rules is a summary of the rules in lang.
	Rules(lang string) string
}

// Rounder is a Presenter whose board tells one round at a time (a turn
// of Dixxit): the table starts the board's latest lines afresh when a
// round starts, and keeps the lines that ended the round before apart
// (Table.Ended); the game's log keeps every line.
type Rounder interface {
	// RoundStarts reports whether e starts a new round.
	RoundStarts(e engine.Event) bool
}

// Hinter is a Presenter that can advise a seat: what the computer's best
// level would decide now, and why. The table offers /<game> hint for it.
type Hinter interface {
	// Hint is the advice to seat in st, in lang, for that seat alone.
	Hint(lang string, st engine.State, seat int) string
}

// Game is one game the table hosts.
type Game struct {
	Rules     engine.Game
	Presenter Presenter
	// Player returns the computer player of a level (one of Levels) for a
	// table that speaks lang (a Dixxit computer reads and gives clues in
	// the table's language).
	Player func(level, lang string) engine.Player
	// Levels are the computer's levels, weakest first; Default is the one
	// that takes over a seat whose player leaves.
	Levels  []string
	Default string
	// MinSeats and MaxSeats bound the seats of a table. A game of one
	// seat (MinSeats 1) also has /<game> solo: a table of its caller
	// alone, started at once.
	MinSeats int
	MaxSeats int
	// Views are steps of a seat's private prompt (Prompter) that a
	// subcommand of the game's command of the same name shows at once,
	// whoever is to decide: DIX's "hand".
	Views []string
	// Paces are the clocks a lobby may choose from, the first the default;
	// none: no clock. Once a decision's time is out, the computer's Timeout
	// decides for the seat.
	Paces []Pace
	// Reaction, when set, is how long a computer seat of level takes to
	// make its decision in st once it opened, clock being the time the
	// decision has under the table's pace: a person's reaction time, for a
	// game whose seats race (a computer that decides at once wins every
	// race). The decision is then the table's due work at that time, and a
	// Stamper's move carries that time as its click. Zero, or nil: the
	// computer decides at once.
	Reaction func(st engine.State, seat int, level string, clock time.Duration, r *rand.Rand) time.Duration
	// SteadyButtons keeps the custom ids of the board's decision buttons
	// while the decisions they were drawn for stay open, for a game whose
	// seats decide at once: a board redrawn because one seat decided then
	// leaves the others' buttons as they were (Discord checks a clicked
	// component against the message as it stands,
	// https://discord.com/developers/docs/interactions/message-components).
	// Otherwise every drawing carries the state's version.
	SteadyButtons bool
	// Foresight: the game's computer takes long to decide (it searches).
	// The table then works out the computer's decisions a person's move
	// leads to on a copy of the game, before the move's store update, and
	// the update takes them from there: its deadline is spent on the
	// store, not on the computer's thinking. The game's decisions stay the
	// same (a computer's decision is a function of the state, the seat,
	// the level and the game's seed).
	Foresight bool
	// Options are the game's own options (a variant, a difficulty): the
	// start command, the lobby and the server settings offer them, and the
	// table passes the chosen values to Rules.New (engine.Setup.Options).
	Options []Option
	// Upgrade, when set, reads a record of the game kept by the table
	// that hosted it before the shared table did: meta that table's data,
	// data the game's state as Rules.Decode reads it (nil: a lobby). ok is
	// false when meta is not that table's (the shared table's data). The
	// shared table converts such a record when it reads it, so that its
	// first write keeps it in its own shape.
	Upgrade func(meta, data []byte) (u Upgraded, ok bool, err error)
	// OldClick, when set, reads the custom id of a component posted by
	// that table, which the shared table's own ids do not read: verb and
	// arg its parts after the game's prefix and the state's version,
	// values a menu's choice. ok false: the click means nothing now; it is
	// answered as outdated, with the board as it stands.
	OldClick func(verb, arg string, values []string) (c OldClick, ok bool)
	// UpgradeSettings, when set, reads a channel's settings kept by that
	// table: the pace (one of Paces' names, "" for the default) and the
	// option values (by Option name) they give the game. The table saves
	// them among its own settings, under the game's name.
	UpgradeSettings func(old OldSettings) (pace string, opts map[string]string)
}

// Option is one of a game's own options. Its words are the game's locale
// keys: "<game>_opt_<name>" names it, "<game>_opt_<name>_<value>" names a
// value unless Label does (the value itself is shown when neither does).
type Option struct {
	// Name is its key in engine.Setup.Options: lowercase letters only.
	Name string
	// Values are the values a table may choose, in the order offered,
	// within the bounds of the game's rules; Default is one of them.
	Values  []string
	Default string
	// Solo: the option matters only to a game of one seat (the computer
	// opponent's difficulty); a table of more seats does not show it.
	Solo bool
	// Label, when set, names a value in lang.
	Label func(lang, value string) string
}

// Allows reports whether v is one of o's values.
func (o Option) Allows(v string) bool { return slices.Contains(o.Values, v) }

// Option returns the game's option named name.
func (g *Game) Option(name string) (Option, bool) {
	for _, o := range g.Options {
		if o.Name == name {
			return o, true
		}
	}
	return Option{}, false
}

// OptionValues are the values of every option of the game: chosen's when
// it holds an allowed one, else the option's default.
func (g *Game) OptionValues(chosen map[string]string) map[string]string {
	if len(g.Options) == 0 {
		return nil
	}
	out := make(map[string]string, len(g.Options))
	for _, o := range g.Options {
		out[o.Name] = o.Default
		if v, ok := chosen[o.Name]; ok && o.Allows(v) {
			out[o.Name] = v
		}
	}
	return out
}

// Pace is one choice of clocks for a game: a time for each decision
// (Clock), or a time bank per seat (Bank).
type Pace struct {
	// Name identifies the pace in the record and in its locale key
	// ("<game>_pace_<name>"; a pace of time banks is named by
	// PaceText).
	Name string
	// Clock is the time seat's current decision in st has, its clock
	// starting when the decision opens; zero: no clock.
	Clock func(st engine.State, seat int) time.Duration
	// Bank, when its Bank is positive, makes the pace a time bank per
	// seat (package clock), in the place of Clock: every seat starts with
	// Bank.Bank, a decision has what is left of its seat's bank and takes
	// the time it ran from it, and a decision the seat makes (or runs out
	// of time on) adds Bank.Increment, up to Bank.Bank.
	Bank clock.Pace
}

// Banked reports whether p is a pace of time banks.
func (p Pace) Banked() bool { return p.Bank.Bank > 0 }

// BankPaces are paces of the time banks paces, first the one named first
// (the default), then the others in their order.
func BankPaces(paces []clock.Pace, first string) []Pace {
	out := make([]Pace, 0, len(paces))
	for _, p := range paces {
		bp := Pace{Name: p.Name, Bank: p}
		if p.Name == first {
			out = slices.Insert(out, 0, bp)
		} else {
			out = append(out, bp)
		}
	}
	return out
}

// PaceOf returns the pace named name, or the default (the first pace; a
// pace without a clock when Paces is empty).
func (g *Game) PaceOf(name string) Pace {
	for _, p := range g.Paces {
		if p.Name == name {
			return p
		}
	}
	if len(g.Paces) > 0 {
		return g.Paces[0]
	}
	return Pace{Name: "live", Clock: func(engine.State, int) time.Duration { return 0 }}
}

// CustomID builds a component's custom id, "<prefix>:<verb>:<n>" and one
// ":<arg>" per argument: the shape of every custom id the table and the
// games' presenters build (prefix the game's name, or "dix" for the
// table's own components).
func CustomID(prefix, verb string, n uint64, args ...string) string {
	var sb strings.Builder
	sb.WriteString(prefix)
	sb.WriteByte(':')
	sb.WriteString(verb)
	sb.WriteByte(':')
	sb.WriteString(strconv.FormatUint(n, 10))
	for _, a := range args {
		sb.WriteByte(':')
		sb.WriteString(a)
	}
	return sb.String()
}

// Truncate cuts s to at most n characters (runes), ending with "…" when
// it cuts: Discord refuses a label, a title or a field longer than its
// limit.
func Truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// Check returns an error wrapping ErrTooBig when b's buttons do not fit
// in one Discord message: more than MaxRows rows or MaxRowButtons buttons
// a row, a label longer than MaxButtonLabel, a move or draft longer than
// a custom id carries.
func (b Board) Check() error {
	if len(b.Rows) > MaxRows {
		return fmt.Errorf("%w: %d rows", ErrTooBig, len(b.Rows))
	}
	for _, row := range b.Rows {
		if len(row) > MaxRowButtons {
			return fmt.Errorf("%w: a row of %d buttons", ErrTooBig, len(row))
		}
		for _, bt := range row {
			if utf8.RuneCountInString(bt.Label) > MaxButtonLabel || len(bt.Move) > engine.MaxMoveLen || len(bt.Next) > engine.MaxMoveLen {
				return fmt.Errorf("%w: button %q", ErrTooBig, bt.Label)
			}
		}
	}
	return nil
}

// Escape is text a person typed (a clue, a name), to show as typed in a
// message: Markdown's marks are escaped, mentions (<@id>, <#id>, <@&id>,
// @everyone, @here) are broken so that Discord neither draws nor sends
// them, whatever a message's allowed mentions, and so are links
// ("https://…": a zero-width space after the colon), so that a board never
// carries a link a player typed nor the preview Discord would draw of it
// (https://docs.discord.com/developers/link-previews/overview).
func Escape(s string) string { return typed.Replace(s) }

var typed = strings.NewReplacer(`\`, `\\`, `*`, `\*`, `_`, `\_`, `~`, `\~`, `|`, `\|`, "`", "\\`", `>`, `\>`, `<`, `\<`,
	`[`, `\[`, `]`, `\]`, `#`, `\#`, `@`, "@\u200b", "://", ":\u200b//")
