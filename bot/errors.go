package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/dixgame/dixbot"
)

// Bot errors. Handlers return these (wrapped with %w, or as a *userError
// carrying message data); reply maps every one to a locale key.
var (
	ErrStale         = errors.New("bot: outdated prompt")
	ErrBadCustomID   = errors.New("bot: unknown or malformed component id")
	ErrBadInput      = errors.New("bot: unreadable input")
	ErrNotInGame     = errors.New("bot: the user is not in this game")
	ErrNotYourTurn   = errors.New("bot: not this user's decision")
	ErrNotCreator    = errors.New("bot: only the creator may do this")
	ErrNoPermission  = errors.New("bot: only the creator or a channel manager may do this")
	ErrLobbyFull     = errors.New("bot: the lobby is full")
	ErrAlreadyJoined = errors.New("bot: the user already joined")
	ErrNotJoined     = errors.New("bot: the user is not in the lobby")
	ErrCreatorLeave  = errors.New("bot: the creator cannot leave the lobby")
	ErrTooFew        = errors.New("bot: not enough players")
	ErrNotStarted    = errors.New("bot: the game has not started")
	ErrClosing       = errors.New("bot: shutting down")
	ErrNoChannel     = errors.New("bot: not in a channel")
	ErrPaused        = errors.New("bot: the game is paused")
	ErrNotPaused     = errors.New("bot: the game is not paused")
	ErrHandedOver    = errors.New("bot: the user's seat is played by the computer")
	ErrNoKick        = errors.New("bot: that seat cannot be handed to the computer now")
	ErrAlreadyVoted  = errors.New("bot: the user already voted")
	// ErrAhead: the message clicked shows a later state of the game than
	// the store has (its data was restored from an older copy).
	ErrAhead = errors.New("bot: the message is ahead of the stored game")
)

// UserError is an expected refusal with data for its message.
type UserError struct {
	err  error // one of the sentinels above
	key  string
	data map[string]any
}

func (e *UserError) Error() string { return fmt.Sprintf("%v (%s)", e.err, e.key) }
func (e *UserError) Unwrap() error { return e.err }

// Refuse returns a userError for sentinel err with message key and data.
func Refuse(err error, key string, data map[string]any) error {
	return &UserError{err: err, key: key, data: data}
}

// Outcomes reported to the Observer.
const (
	outcomeOK      = "ok"
	OutcomeRefused = "refused"
	outcomeStale   = "stale"
	// outcomeDuplicate is a redelivered interaction, already applied and
	// answered: it gets no answer at all.
	outcomeDuplicate = "duplicate"
	OutcomeError     = "error"
	outcomePanic     = "panic"
)

// ErrorKey is one sentinel error, its message key and its outcome.
type ErrorKey struct {
	Err     error
	Key     string
	Outcome string
}

// ErrorKeys maps the table's sentinel errors to their message keys.
var ErrorKeys = []ErrorKey{
	// Store sentinels.
	{dixbot.ErrDuplicate, "err_stale", outcomeStale},
	{dixbot.ErrNotFound, "err_no_game", OutcomeRefused},
	{dixbot.ErrExists, "err_game_exists", OutcomeRefused},
	{dixbot.ErrConflict, "err_conflict", OutcomeError},
	{dixbot.ErrUnavailable, "err_store_unavailable", OutcomeError},
	{dixbot.ErrLocked, "err_store_unavailable", OutcomeError},
	{dixbot.ErrSchemaTooNew, "err_schema_too_new", OutcomeError},
	{dixbot.ErrCorrupt, "err_corrupt", OutcomeError},
	// Bot sentinels.
	{ErrStale, "err_stale", outcomeStale},
	{ErrBadCustomID, "err_bad_custom_id", OutcomeRefused},
	{ErrBadInput, "err_bad_input", OutcomeRefused},
	{ErrNotInGame, "err_not_in_game", OutcomeRefused},
	{ErrNotYourTurn, "err_not_your_turn_generic", OutcomeRefused},
	{ErrNotCreator, "err_not_creator", OutcomeRefused},
	{ErrNoPermission, "err_no_permission", OutcomeRefused},
	{ErrLobbyFull, "err_lobby_full", OutcomeRefused},
	{ErrAlreadyJoined, "err_already_joined", OutcomeRefused},
	{ErrNotJoined, "err_not_joined", OutcomeRefused},
	{ErrCreatorLeave, "err_creator_leave", OutcomeRefused},
	{ErrTooFew, "err_too_few", OutcomeRefused},
	{ErrNotStarted, "err_not_started", OutcomeRefused},
	{ErrClosing, "err_restarting", OutcomeRefused},
	{ErrNoChannel, "err_no_channel", OutcomeRefused},
	{ErrPaused, "err_paused_generic", OutcomeRefused},
	{ErrNotPaused, "err_not_paused", OutcomeRefused},
	{ErrHandedOver, "err_handed_over", OutcomeRefused},
	{ErrNoKick, "err_no_kick", OutcomeRefused},
	{ErrAlreadyVoted, "err_already_voted", OutcomeRefused},
	{ErrAhead, "err_game_restored", outcomeStale},
	{ErrMissingPermission, "err_missing_permission", OutcomeRefused},
}

// errorKeysLast are matched after every game's: a store call that ran out
// of time is an unreachable store.
var errorKeysLast = []ErrorKey{
	{context.DeadlineExceeded, "err_store_unavailable", OutcomeError},
}

// allErrorKeys are the table's, then the last.
var allErrorKeys = slices.Concat(ErrorKeys, errorKeysLast)

// Classify returns the message key, its data and the outcome of err, and
// whether err is unexpected (to be logged).
func Classify(err error) (key string, data map[string]any, outcome string, unexpected bool) {
	var ue *UserError
	if errors.As(err, &ue) {
		_, _, outcome, _ = Classify(ue.err)
		return ue.key, ue.data, outcome, false
	}
	for _, e := range allErrorKeys {
		if errors.Is(err, e.Err) {
			return e.Key, nil, e.Outcome, e.Outcome == OutcomeError
		}
	}
	return "err_internal", nil, OutcomeError, true
}

// IsStoreFailure reports whether err is the store failing (as opposed to an
// answer such as "no game here").
func IsStoreFailure(err error) bool {
	for _, e := range []error{dixbot.ErrConflict, dixbot.ErrUnavailable, dixbot.ErrLocked,
		dixbot.ErrSchemaTooNew, dixbot.ErrCorrupt, context.DeadlineExceeded} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// ErrClaimed: another click claimed the rematch of the finished game.
var ErrClaimed = errors.New("bot: the rematch is claimed")
