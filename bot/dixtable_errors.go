package bot

import (
	"errors"

	dixview "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/engine/dix"
)

// dixErrorKeys are DIX's errors and their messages, matched after the
// table's (errorKeys).
var dixErrorKeys = []errorKey{
	{dixview.ErrBadPick, "err_bad_custom_id", outcomeRefused},
	{dixview.ErrBadValue, "err_bad_input", outcomeRefused},
	// Engine sentinels.
	{dix.ErrBadOptions, "err_bad_options", outcomeRefused},
	{dix.ErrGameOver, "err_game_over", outcomeRefused},
	{dix.ErrNotYourTurn, "err_not_your_turn_generic", outcomeRefused},
	{dix.ErrWrongPhase, "err_wrong_phase", outcomeRefused},
	{dix.ErrUnknownPlayer, "err_not_in_game", outcomeRefused},
	{dix.ErrUnknownAction, "err_bad_input", outcomeRefused},
	{dix.ErrSchemaTooNew, "err_schema_too_new", outcomeError},
	{dix.ErrCorrupt, "err_corrupt", outcomeError},
	{dix.ErrInvariant, "err_internal", outcomeError},
}

// dixRefusal unwraps a refusal DIX's presentation worded: its message key
// and data, and the error it words.
func dixRefusal(err error) (key string, data map[string]any, inner error, ok bool) {
	var dr *dixview.Refusal
	if !errors.As(err, &dr) {
		return "", nil, nil, false
	}
	return dr.Key, dr.Data, dr.Err, true
}

// dixRefusalKey is the message key of one of DIX's refusals that no error
// key names.
func dixRefusalKey(err error) (string, bool) { return dixview.RefusalKey(err) }
