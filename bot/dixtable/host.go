package dixtable

import (
	"context"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/bot"
)

// Table is DIX's own table, as the shared table reaches it
// (bot.OwnTable). A process hosts it by importing this package.
type Table struct{}

func init() { bot.Host(Table{}) }

func (Table) Command(b *bot.Bot) *discordgo.ApplicationCommand { return dixCommand(b) }
func (Table) Run(b *bot.Bot, c *bot.Call, d discordgo.ApplicationCommandInteractionData) error {
	return command(b, c, d)
}
func (Table) Verbs() map[string]bot.VerbSpec { return dixVerbs() }
func (Table) ErrorKeys() []bot.ErrorKey      { return dixErrorKeys }
func (Table) Refusal(err error) (string, map[string]any, error, bool) {
	return dixRefusal(err)
}
func (Table) RefusalKey(err error) (string, bool)    { return dixRefusalKey(err) }
func (Table) AnswerApplied(c *bot.Call)              { answerApplied(c) }
func (Table) AnswerOver(c *bot.Call, err error) bool { return answerOver(c, err) }
func (Table) StaleText(c *bot.Call, text string) (string, []discordgo.MessageComponent, []*discordgo.MessageEmbed) {
	return staleText(c, text)
}
func (Table) ComeBack(c *bot.Call, r *dixbot.Record) *dixbot.Record { return dixComeBack(c, r) }
func (Table) Over(b *bot.Bot, r *dixbot.Record) (*dixbot.Result, bool) {
	return dixOver(b, r)
}
func (Table) ApplyFold(fd *bot.Fold, r *dixbot.Record, now time.Time) (bool, error) {
	return applyDix(fd, r, now)
}
func (Table) Repost(c *bot.Call)                   { repost(c) }
func (Table) SeenMissing(c *bot.Call) *bot.Missing { return seenMissing(c) }
func (Table) RetryMissing(b *bot.Bot, ctx context.Context, d bot.DiscordAPI, channel string, ix *bot.Via) (*bot.Missing, error) {
	return retryMissing(b, ctx, d, channel, ix)
}
func (Table) RunDue(b *bot.Bot, ctx context.Context, d bot.DiscordAPI, channel string, asOf time.Time) error {
	return runDixDue(b, ctx, d, channel, asOf)
}
