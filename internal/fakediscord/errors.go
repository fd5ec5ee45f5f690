package fakediscord

import (
	"errors"
	"fmt"
	"time"
)

// Sentinel errors returned by the scripting API. They describe a scripted
// action that a real Discord client could not perform, so nothing is sent.
var (
	ErrUnknownUser        = errors.New("fakediscord: unknown user")
	ErrUnknownGuild       = errors.New("fakediscord: unknown guild")
	ErrUnknownChannel     = errors.New("fakediscord: unknown channel")
	ErrUnknownMessage     = errors.New("fakediscord: unknown message")
	ErrUnknownInteraction = errors.New("fakediscord: unknown interaction")
	ErrNotMember          = errors.New("fakediscord: user is not a member of the guild")
	ErrMissingPermissions = errors.New("fakediscord: user lacks the command's default member permissions")
	ErrUnknownCommand     = errors.New("fakediscord: unknown command")
	ErrBadCommand         = errors.New("fakediscord: invalid command input")
	ErrUnknownComponent   = errors.New("fakediscord: no such component on the message")
	ErrComponentDisabled  = errors.New("fakediscord: component is disabled")
	ErrBadSelection       = errors.New("fakediscord: invalid select menu values")
	ErrNotVisible         = errors.New("fakediscord: message not visible to this user")
	ErrNoModal            = errors.New("fakediscord: the interaction did not open a modal")
	ErrBadModalInput      = errors.New("fakediscord: invalid modal input")
	ErrNoBotConnected     = errors.New("fakediscord: no bot session on the gateway")
	ErrNoResponse         = errors.New("fakediscord: the bot did not answer the interaction in time")
	ErrClosed             = errors.New("fakediscord: server closed")
	ErrBadMessage         = errors.New("fakediscord: invalid message")
	ErrNoPayload          = errors.New("fakediscord: the interaction's payload was not kept (Options.DropPayloads)")
)

// Violation is a breach of Discord's rules by the bot: a refused REST
// request, an interaction answered twice or too late, or not at all; or a
// request Discord takes that can only be a mistake (an empty file upload,
// msgEmptyUpload). It implements error.
type Violation struct {
	Time          time.Time
	Method, Path  string // the request, empty for a missed deadline
	Status        int    // HTTP status the fake answered
	Code          int    // Discord JSON error code (0: none, the request was taken)
	Message       string
	InteractionID string
	Details       string // field errors, if any
}

func (v *Violation) Error() string {
	s := fmt.Sprintf("discord rule violated: %d %s", v.Code, v.Message)
	if v.Method != "" {
		s += fmt.Sprintf(" (%s %s -> %d)", v.Method, v.Path, v.Status)
	}
	if v.InteractionID != "" {
		s += " interaction " + v.InteractionID
	}
	if v.Details != "" {
		s += ": " + v.Details
	}
	return s
}
