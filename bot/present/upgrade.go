package present

import "github.com/dixgame/dixbot/engine"

// Upgraded is a record kept by a table that hosted a game before the
// shared table did, read by the game (Game.Upgrade) and described in the
// shared table's terms, which the table turns into its own data. Times are
// Unix milliseconds; a zero value is "none" or "unknown".
type Upgraded struct {
	Creator string // the user who opened the table
	Lang    string // the game's language
	// Seats are the table's seats as the shared table keeps them, in the
	// order of the game's seats: people's and computer players'. A seat
	// the rules play themselves (no person, no computer player of the
	// table) is not one of them.
	Seats []UpgradedSeat
	// Lobby is the lobby's counter, which the lobby's buttons carry.
	Lobby uint32
	// Board is the board (or lobby) message; Opened the interaction that
	// opened the table, which names the table and its log.
	Board  string
	Opened string
	// Via is the interaction whose answer is the board message, whose
	// token edits it: its application, token and time (Unix ms).
	Via *UpgradedVia
	// Options are the values of the game's own options (Game.Options).
	Options map[string]string
	// NoPictures: the board is text only.
	NoPictures bool
	// Pace is the name of the table's pace (Game.Paces).
	Pace string
	// Seed is the game's seed; First the seat that started it, plus one
	// (0: not known).
	Seed  int64
	First int
	// Starts is, in a lobby opened by a rematch, the seat that is to start
	// the game, plus one (0: drawn).
	Starts int
	// Log are the latest event lines, oldest first, in Lang.
	Log []string
	// Banks are, by seat, what is left of its time bank in milliseconds,
	// the decision running aside (nil: every seat has all of its bank).
	Banks []int64
	// Deciding is the seat whose decision runs on the clock (-1: none),
	// since DecidingAt; Reminded reports that its person was reminded of
	// it.
	Deciding   int
	DecidingAt int64
	Reminded   bool
	// PausedBy is the name of who paused the game ("": running), PausedAt
	// when.
	PausedBy string
	PausedAt int64
	// Rematch is the interaction that claimed the rematch of the game
	// over.
	Rematch string
}

// UpgradedSeat is one seat of an Upgraded table.
type UpgradedSeat struct {
	User string // the person's user id ("": a computer player's seat)
	Name string // the name shown ("": the table names a computer seat)
	// Level is the computer player's level of a computer seat; Gone that
	// the person's seat is played by the computer for the rest of the
	// game (they left, or were voted out).
	Level string
	Gone  bool
	// Late counts the person's decisions in a row out of time; Away: the
	// computer plays for them until they click.
	Late int
	Away bool
	// Votes are the people who voted to hand the seat to the computer.
	Votes []string
}

// UpgradedVia is an interaction whose token edits a message.
type UpgradedVia struct {
	App, Token, Orig string
	At               int64
}

// OldClick is what a click on a component posted by the table that hosted
// a game before the shared table (Game.OldClick) means on the shared
// table: one of a move, the private prompt, a step of it, or a computer
// player seated in the lobby. The shared table checks it as any click of
// the same meaning: it applies while the state it was shown at still
// stands, and is answered as outdated otherwise.
type OldClick struct {
	Move   engine.Move // the clicker's seat's move
	Prompt bool        // opens the clicker's private prompt
	Next   string      // shows the step of this draft of the private prompt
	Level  string      // seats a computer player of this level in the lobby
}

// OldSettings are a channel's settings for the game as the table that
// hosted it before the shared table kept them (Game.UpgradeSettings):
// that table's names of its pace, its variant and its solo difficulty
// ("" or 0: not set).
type OldSettings struct {
	Pace       string
	Variant    string
	Difficulty int
}
