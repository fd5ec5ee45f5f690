package bot

import (
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
)

// TestInteractionSessionRenewed: the session of the interaction-token
// requests, whose rate limiter gains a bucket per interaction, is replaced
// once ixRenew old, with the settings of the bot's session.
func TestInteractionSessionRenewed(t *testing.T) {
	base := &discordgo.Session{Token: "Bot t", UserAgent: "dix", MaxRestRetries: 2}
	x := newSessionAPI(base).ix
	first := x.get()
	assert.Same(t, first, x.get(), "the same session within ixRenew")
	assert.NotSame(t, base.Ratelimiter, first.Ratelimiter, "a rate limiter of its own")
	assert.Equal(t, "Bot t", first.Token)
	assert.Equal(t, "dix", first.UserAgent)
	assert.Equal(t, 2, first.MaxRestRetries)
	assert.NotNil(t, first.Client)

	x.made = x.made.Add(-ixRenew)
	second := x.get()
	assert.NotSame(t, first, second, "a fresh session once ixRenew old")
	assert.NotSame(t, first.Ratelimiter, second.Ratelimiter, "and a fresh limiter: the old buckets go")
	assert.WithinDuration(t, time.Now(), x.made, time.Minute)
}
