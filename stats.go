package dixbot

import (
	"context"
	"time"
)

// Result is one finished game as a server's statistics keep it. Abandoned
// games have none.
type Result struct {
	Guild string    `json:"-"` // the server; its statistics are its own
	Game  string    `json:"g"` // the game's name (engine.Rules.Name)
	ID    string    `json:"i"` // unique per game: recording the same ID again counts nothing
	At    time.Time `json:"at"`
	Pace  string    `json:"pc,omitempty"`
	// Solo is the difficulty of a solo game (against the game's own
	// opponent), 0 for a game between players. Solo games are kept apart from the ratings.
	Solo  int          `json:"so,omitempty"`
	Seats []ResultSeat `json:"s"`
}

// ResultSeat is one seat's outcome.
type ResultSeat struct {
	User string `json:"u,omitempty"` // Discord user id; "" for a computer seat and a solo game's opponent
	Name string `json:"n,omitempty"` // the name shown at the table
	// Level is the computer's level ("easy", "normal", "strong"), or
	// LevelSolo; "" for a person.
	Level string `json:"l,omitempty"`
	Score int    `json:"sc"`
	Rank  int    `json:"r"` // 1 for the winners; tied seats share a rank
}

// LevelSolo is the Level of the opponent's seat in a solo game. (Its
// value is the name of DIX's solo opponent, ALIX, as results keep it.)
const LevelSolo = "alix"

// PlayerStats is one person's record at one game on one server.
type PlayerStats struct {
	Game   string
	Name   string // the name at the person's latest game
	Played int
	Won    int
	Total  int // sum of the scores
	Best   int
	// Mu and Sigma are the rating (package rating); Rated is false while
	// the person has played no rated game.
	Mu, Sigma float64
	Rated     bool
	// Ahead and Faced are the placements the rating rests on: over the
	// person's games against others, how many opponents (people and
	// computer seats) they finished ahead of, and how many they met. A tie
	// is neither ahead nor behind. A record kept before placements were
	// reads 0 for both, and only its later games add to them.
	Ahead, Faced int
}

// SoloStats is one person's record in a game's solo games (against the
// game's own opponent) at one difficulty.
type SoloStats struct {
	Difficulty int
	Played     int
	Won        int
	Best       int
}

// Standing is a line of a leaderboard.
type Standing struct {
	Rank   int // 1-based place by Mu − 3·Sigma
	User   string
	Name   string
	Mu     float64
	Sigma  float64
	Played int
	Won    int
	// Ahead and Faced are the person's placements (PlayerStats).
	Ahead, Faced int
}

// Stats keeps the servers' results and ratings. Every key of a server is its
// own: nothing of one server is read when answering for another.
type Stats interface {
	// RecordResult adds a finished game to its server's statistics and
	// ratings, once: it returns false, changing nothing, when the game's
	// ID is recorded already.
	RecordResult(ctx context.Context, r *Result) (bool, error)
	// PlayerStats returns a person's records on a server: one per game
	// played, and the solo records by difficulty.
	PlayerStats(ctx context.Context, guild, user string) ([]PlayerStats, []SoloStats, error)
	// Leaderboard returns the top n rated people of a game on a server,
	// best first, and user's own line (nil when user is unrated there).
	Leaderboard(ctx context.Context, guild, game, user string, n int) ([]Standing, *Standing, error)
	// ForgetPlayer deletes a person's statistics and ratings on a server,
	// and their id and name from the server's recorded results.
	ForgetPlayer(ctx context.Context, guild, user string) error
}
