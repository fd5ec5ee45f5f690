package bot

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot"
)

// OwnTable is a game that keeps a table of its own beside the shared one:
// DIX (bot/dixtable), with its command /dix and its custom ids "dix:…".
// The shared table reaches it only through these methods. A process hosts
// it when its package registers it with Host, from an init function, as
// database/sql's drivers register.
type OwnTable interface {
	// Command is the definition of its command; Run runs one.
	Command(b *Bot) *discordgo.ApplicationCommand
	Run(b *Bot, c *Call, d discordgo.ApplicationCommandInteractionData) error
	// Verbs are its custom ids' verbs, ErrorKeys its errors' message keys;
	// Refusal and RefusalKey name the refusals of its rules.
	Verbs() map[string]VerbSpec
	ErrorKeys() []ErrorKey
	Refusal(err error) (key string, data map[string]any, inner error, ok bool)
	RefusalKey(err error) (string, bool)
	// AnswerApplied answers a redelivered click of its game the store
	// applied already and nobody answered; AnswerOver a click on a
	// message of its game that has ended since (reporting whether it
	// answered); StaleText adds the way back to its board to "outdated".
	AnswerApplied(c *Call)
	AnswerOver(c *Call, err error) bool
	StaleText(c *Call, text string) (string, []discordgo.MessageComponent, []*discordgo.MessageEmbed)
	// ComeBack seats back an absent player who clicks again.
	ComeBack(c *Call, r *dixbot.Record) *dixbot.Record
	// Over is the result of its game when r holds one that is over.
	Over(b *Bot, r *dixbot.Record) (*dixbot.Result, bool)
	// ApplyFold writes the effects of fd done on its record r.
	ApplyFold(fd *Fold, r *dixbot.Record, now time.Time) (bool, error)
	// Repost owes its board again; SeenMissing and RetryMissing are the
	// mark of a board Discord refused and the board tried again.
	Repost(c *Call)
	SeenMissing(c *Call) *Missing
	RetryMissing(b *Bot, ctx context.Context, d DiscordAPI, channel string, ix *Via) (*Missing, error)
	// RunDue claims and does the work due on channel (the contract games'
	// with RunContractDue).
	RunDue(b *Bot, ctx context.Context, d DiscordAPI, channel string, asOf time.Time) error
}

// own is the own table the process hosts (noTable: none).
var own OwnTable = noTable{}

// Host makes t the own table of every Bot of the process: its verbs and
// its error keys join the table's. It panics when a table is hosted
// already.
func Host(t OwnTable) {
	if _, ok := own.(noTable); !ok {
		panic("bot: an own table is hosted already")
	}
	own = t
	maps.Copy(Verbs, t.Verbs())
	allErrorKeys = slices.Concat(ErrorKeys, t.ErrorKeys(), errorKeysLast)
}

// noTable is no own table: only the shared table's games are played.
type noTable struct{}

func (noTable) Command(*Bot) *discordgo.ApplicationCommand { return nil }
func (noTable) Run(*Bot, *Call, discordgo.ApplicationCommandInteractionData) error {
	return ErrBadInput
}
func (noTable) Verbs() map[string]VerbSpec { return nil }
func (noTable) ErrorKeys() []ErrorKey      { return nil }
func (noTable) Refusal(error) (string, map[string]any, error, bool) {
	return "", nil, nil, false
}
func (noTable) RefusalKey(error) (string, bool)                   { return "", false }
func (noTable) AnswerApplied(*Call)                               {}
func (noTable) AnswerOver(*Call, error) bool                      { return false }
func (noTable) ComeBack(_ *Call, r *dixbot.Record) *dixbot.Record { return r }
func (noTable) StaleText(_ *Call, text string) (string, []discordgo.MessageComponent, []*discordgo.MessageEmbed) {
	return text, nil, nil
}
func (noTable) Over(*Bot, *dixbot.Record) (*dixbot.Result, bool)         { return nil, false }
func (noTable) ApplyFold(*Fold, *dixbot.Record, time.Time) (bool, error) { return false, nil }
func (noTable) Repost(*Call)                                             {}
func (noTable) SeenMissing(*Call) *Missing                               { return nil }
func (noTable) RetryMissing(*Bot, context.Context, DiscordAPI, string, *Via) (*Missing, error) {
	return nil, nil
}
func (noTable) RunDue(b *Bot, ctx context.Context, d DiscordAPI, channel string, asOf time.Time) error {
	return b.RunContractDue(ctx, d, channel, asOf)
}
