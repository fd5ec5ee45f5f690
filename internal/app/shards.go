package app

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// identifyInterval is how long Discord wants between two identifies of one
// rate-limit key: "you can only identify max_concurrency shards every 5
// seconds", the key of a shard being shard_id % max_concurrency
// (https://discord.com/developers/docs/events/gateway#sharding-max-concurrency).
// A variable so tests need not wait.
var identifyInterval = 5 * time.Second

// gatewaySessions returns the gateway sessions this process opens: s alone
// (the only shard, or shard SHARD_ID of SHARD_COUNT), or with
// SHARD_COUNT=auto one session per shard GET /gateway/bot recommends, s
// being shard 0 unless fresh asks for new sessions only. Every session
// gets the bot's intents and shares s's client and rate limiter, so the
// bot-token requests of all of them count against the one global limit
// they share on Discord. It also returns how many shards may identify at
// once.
func gatewaySessions(ctx context.Context, cfg Config, s *discordgo.Session, fresh bool) ([]*discordgo.Session, int, error) {
	// Interactions arrive whatever the intents; Guilds keeps the list of
	// servers (for the active-games gauge) and nothing privileged is asked.
	s.Identify.Intents = discordgo.IntentsGuilds
	switch {
	case cfg.ShardCount > 1:
		// This process gets the events of its shard's servers only; every
		// process still does the due work of every game (the store hands
		// each item to one).
		s.ShardID, s.ShardCount = cfg.ShardID, int(cfg.ShardCount)
		return []*discordgo.Session{s}, 1, nil
	case cfg.ShardCount != ShardsAuto:
		return []*discordgo.Session{s}, 1, nil
	}
	gb, err := s.GatewayBot(discordgo.WithContext(ctx), discordgo.WithRetryOnRatelimit(true))
	if err != nil {
		return nil, 0, fmt.Errorf("asking Discord how many shards to open (GET /gateway/bot): %w", err)
	}
	n := max(gb.Shards, 1)
	var sessions []*discordgo.Session
	for id := range n {
		if id == 0 && !fresh {
			s.ShardID, s.ShardCount = 0, n
			sessions = append(sessions, s)
			continue
		}
		si, err := discordgo.New(s.Token)
		if err != nil {
			return nil, 0, fmt.Errorf("creating the session of shard %d: %w", id, err)
		}
		si.Identify.Intents = s.Identify.Intents
		si.ShardID, si.ShardCount = id, n
		si.Client, si.Ratelimiter = s.Client, s.Ratelimiter
		si.ShouldRetryOnRateLimit = s.ShouldRetryOnRateLimit
		sessions = append(sessions, si)
	}
	return sessions, max(gb.SessionStartLimit.MaxConcurrency, 1), nil
}

// openShards opens the sessions, concurrency of them at a time and
// identifyInterval apart. On an error or when ctx ends, it closes those it
// opened.
func openShards(ctx context.Context, sessions []*discordgo.Session, concurrency int) (err error) {
	var opened []*discordgo.Session
	defer func() {
		if err != nil {
			closeShards(opened)
		}
	}()
	for start := 0; start < len(sessions); start += concurrency {
		if start > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(identifyInterval):
			}
		}
		batch := sessions[start:min(start+concurrency, len(sessions))]
		errs := make([]error, len(batch))
		var wg sync.WaitGroup
		for i, si := range batch {
			wg.Go(func() { errs[i] = si.Open() })
		}
		wg.Wait()
		for i, si := range batch {
			if errs[i] == nil {
				opened = append(opened, si)
			}
		}
		if err := errors.Join(errs...); err != nil {
			return err
		}
	}
	return nil
}

// closeShards closes the sessions and returns their errors.
func closeShards(sessions []*discordgo.Session) error {
	var errs []error
	for _, si := range sessions {
		if err := si.Close(); err != nil {
			errs = append(errs, fmt.Errorf("shard %d: %w", si.ShardID, err))
		}
	}
	return errors.Join(errs...)
}

// shardsReady reports whether every session is connected.
func shardsReady(sessions []*discordgo.Session) bool {
	for _, si := range sessions {
		if !gatewayReady(si) {
			return false
		}
	}
	return true
}
