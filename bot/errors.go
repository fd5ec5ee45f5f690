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

// userError is an expected refusal with data for its message.
type userError struct {
	err  error // one of the sentinels above
	key  string
	data map[string]any
}

func (e *userError) Error() string { return fmt.Sprintf("%v (%s)", e.err, e.key) }
func (e *userError) Unwrap() error { return e.err }

// Refuse returns a userError for sentinel err with message key and data.
func Refuse(err error, key string, data map[string]any) error {
	return &userError{err: err, key: key, data: data}
}

// Outcomes reported to the Observer.
const (
	outcomeOK      = "ok"
	outcomeRefused = "refused"
	outcomeStale   = "stale"
	// outcomeDuplicate is a redelivered interaction, already applied and
	// answered: it gets no answer at all.
	outcomeDuplicate = "duplicate"
	outcomeError     = "error"
	outcomePanic     = "panic"
)

// ErrorKey is one sentinel error, its message key and its outcome.
type ErrorKey struct {
	Err     error
	Key     string
	outcome string
}

// ErrorKeys maps the table's sentinel errors to their message keys.
var ErrorKeys = []ErrorKey{
	// Store sentinels.
	{dixbot.ErrDuplicate, "err_stale", outcomeStale},
	{dixbot.ErrNotFound, "err_no_game", outcomeRefused},
	{dixbot.ErrExists, "err_game_exists", outcomeRefused},
	{dixbot.ErrConflict, "err_conflict", outcomeError},
	{dixbot.ErrUnavailable, "err_store_unavailable", outcomeError},
	{dixbot.ErrLocked, "err_store_unavailable", outcomeError},
	{dixbot.ErrSchemaTooNew, "err_schema_too_new", outcomeError},
	{dixbot.ErrCorrupt, "err_corrupt", outcomeError},
	// Bot sentinels.
	{ErrStale, "err_stale", outcomeStale},
	{ErrBadCustomID, "err_bad_custom_id", outcomeRefused},
	{ErrBadInput, "err_bad_input", outcomeRefused},
	{ErrNotInGame, "err_not_in_game", outcomeRefused},
	{ErrNotYourTurn, "err_not_your_turn_generic", outcomeRefused},
	{ErrNotCreator, "err_not_creator", outcomeRefused},
	{ErrNoPermission, "err_no_permission", outcomeRefused},
	{ErrLobbyFull, "err_lobby_full", outcomeRefused},
	{ErrAlreadyJoined, "err_already_joined", outcomeRefused},
	{ErrNotJoined, "err_not_joined", outcomeRefused},
	{ErrCreatorLeave, "err_creator_leave", outcomeRefused},
	{ErrTooFew, "err_too_few_generic", outcomeRefused},
	{ErrNotStarted, "err_not_started", outcomeRefused},
	{ErrClosing, "err_restarting", outcomeRefused},
	{ErrNoChannel, "err_no_channel", outcomeRefused},
	{ErrPaused, "err_paused_generic", outcomeRefused},
	{ErrNotPaused, "err_not_paused", outcomeRefused},
	{ErrHandedOver, "err_handed_over", outcomeRefused},
	{ErrNoKick, "err_no_kick", outcomeRefused},
	{ErrAlreadyVoted, "err_already_voted", outcomeRefused},
	{ErrAhead, "err_game_restored", outcomeStale},
	{ErrMissingPermission, "err_missing_permission_generic", outcomeRefused},
	// The shared table's refusals, always said in their own words.
	{errMoveRefused, "err_bad_input", outcomeRefused},
	{ErrOtherGame, "err_bad_input", outcomeRefused},
}

// errorKeysLast are matched after every game's: a store call that ran out
// of time is an unreachable store.
var errorKeysLast = []ErrorKey{
	{context.DeadlineExceeded, "err_store_unavailable", outcomeError},
}

// allErrorKeys are the table's, then the last.
var allErrorKeys = slices.Concat(ErrorKeys, errorKeysLast)

// classify returns the message key, its data and the outcome of err, and
// whether err is unexpected (to be logged).
func classify(err error) (key string, data map[string]any, outcome string, unexpected bool) {
	var ue *userError
	if errors.As(err, &ue) {
		_, _, outcome, _ = classify(ue.err)
		return ue.key, ue.data, outcome, false
	}
	for _, e := range allErrorKeys {
		if errors.Is(err, e.Err) {
			return e.Key, nil, e.outcome, e.outcome == outcomeError
		}
	}
	return "err_internal", nil, outcomeError, true
}

// isStoreFailure reports whether err is the store failing (as opposed to an
// answer such as "no game here").
func isStoreFailure(err error) bool {
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
