package dixtable

import (
	"errors"

	"github.com/dixgame/dixbot/bot"
	dixview "github.com/dixgame/dixbot/bot/dix"
	"github.com/dixgame/dixbot/engine/dix"
)

// dixErrorKeys are DIX's errors and their messages, matched after the
// table's (bot.ErrorKeys).
var dixErrorKeys = []bot.ErrorKey{
	{Err: dixview.ErrBadPick, Key: "err_bad_custom_id", Outcome: bot.OutcomeRefused},
	{Err: dixview.ErrBadValue, Key: "err_bad_input", Outcome: bot.OutcomeRefused},
	// Engine sentinels.
	{Err: dix.ErrBadOptions, Key: "err_bad_options", Outcome: bot.OutcomeRefused},
	{Err: dix.ErrGameOver, Key: "err_game_over", Outcome: bot.OutcomeRefused},
	{Err: dix.ErrNotYourTurn, Key: "err_not_your_turn_generic", Outcome: bot.OutcomeRefused},
	{Err: dix.ErrWrongPhase, Key: "err_wrong_phase", Outcome: bot.OutcomeRefused},
	{Err: dix.ErrUnknownPlayer, Key: "err_not_in_game", Outcome: bot.OutcomeRefused},
	{Err: dix.ErrUnknownAction, Key: "err_bad_input", Outcome: bot.OutcomeRefused},
	{Err: dix.ErrSchemaTooNew, Key: "err_schema_too_new", Outcome: bot.OutcomeError},
	{Err: dix.ErrCorrupt, Key: "err_corrupt", Outcome: bot.OutcomeError},
	{Err: dix.ErrInvariant, Key: "err_internal", Outcome: bot.OutcomeError},
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
