package e2e

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	dixbot "github.com/dixgame/dixbot"
	"github.com/dixgame/dixbot/internal/fakediscord"
	"github.com/dixgame/dixbot/internal/redistest"
	"github.com/dixgame/dixbot/store"
)

// interactionsURL is the endpoint of the "serving interactions" log line.
func interactionsURL(t *testing.T, log string) string {
	t.Helper()
	return "http://" + loggedAddr(t, log, "serving interactions") + "/interactions"
}

// TestThreeReplicasOverHTTP: three dixbot processes in HTTP interactions
// mode on one Redis, behind the stand-in's round robin (a load balancer).
// One is killed mid-game and another stopped; the game finishes, every interaction is answered
// in time, and requests with a forged signature or a stale timestamp are
// refused with 401 and change nothing.
func TestThreeReplicasOverHTTP(t *testing.T) {
	t.Parallel()
	fake := fakediscord.Start(t, fakediscord.Options{DisableWeb: true})
	redisURL := redistest.Start(t).URL()
	env := []string{
		"DISCORD_TOKEN=" + fake.Token(),
		"DISCORD_API_URL=" + fake.URL(),
		"DISCORD_PUBLIC_KEY=" + fake.PublicKey(),
		"INTERACTIONS_ADDR=127.0.0.1:0",
		"REDIS_URL=" + redisURL,
		"REDIS_PREFIX=replicas:",
		"LOG_LEVEL=info",
	}
	var replicas []*process
	var urls []string
	for range 3 {
		p := startProcess(t, env)
		replicas = append(replicas, p)
		urls = append(urls, interactionsURL(t, p.log()))
	}
	t.Cleanup(func() {
		if t.Failed() {
			for i, p := range replicas {
				t.Logf("replica %d:\n%s", i, p.log())
			}
		}
	})
	require.NoError(t, fake.SetInteractionsEndpoints(waitCtx(t), urls...))
	assert.False(t, fake.Connected(), "no replica opens a gateway connection")

	st, err := store.OpenRedis(context.Background(), store.Options{URL: redisURL, Prefix: "replicas:"})
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	tb := newTable(t, fake, "en-US", "Alice", "Bob", "Chloe")
	tb.store = func() dixbot.Store { return st }
	tb.lobby("/dix start")
	for range 9 {
		require.True(t, tb.decide())
	}
	before := fake.Stats().HTTPDeliveries
	require.Positive(t, before)

	refuseForged(t, tb, urls[0])

	// A replica dies between two clicks; the load balancer's next turn
	// to it goes to the next one.
	require.NoError(t, replicas[1].cmd.Process.Signal(syscall.SIGKILL))
	<-replicas[1].done
	for range 6 {
		require.True(t, tb.decide())
	}
	// Another stops gracefully: its endpoint closes first, so the load
	// balancer sends the next interactions to the last one.
	assert.Equal(t, 0, replicas[2].terminate(), "exit status after SIGTERM")
	assert.NotContains(t, replicas[2].log(), "unclean shutdown")
	tb.playToEnd()
	tb.checkScoreboard([]string{"Alice", "Bob", "Chloe"})

	// A delivery counts once its HTTP reply is read, which may come after
	// the interaction's answer through its token.
	assert.Eventually(t, func() bool { return fake.Stats().HTTPDeliveries == len(fake.Interactions()) }, waitTimeout, 20*time.Millisecond,
		"every interaction was delivered over HTTP: %d of %d", fake.Stats().HTTPDeliveries, len(fake.Interactions()))
	stats := fake.Stats()
	assert.Positive(t, stats.HTTPFailovers, "the dead replica's turns went to another")
	noViolations(t, fake)
	for i, p := range replicas {
		if i != 1 { // the killed one may have left a line half-written
			assert.NotContains(t, p.log(), "level=ERROR", "replica %d", i)
		}
	}
	t.Logf("%d interactions over HTTP to 3 replicas, one killed after %d; %d failovers; %d bot-token and %d interaction-token requests",
		stats.HTTPDeliveries, before, stats.HTTPFailovers, stats.BotToken, stats.InteractionToken)
}

// refuseForged posts the next click of the game to a replica twice, once
// with a forged signature and once signed correctly but 10 minutes old: both
// are refused with 401 and the game does not change. The same click made
// by the stand-in is then applied.
func refuseForged(t *testing.T, tb *table, url string) {
	t.Helper()
	// A turn's first decision: Draw needs no prompt.
	var rec *dixbot.Record
	var board fakediscord.Message
	var buttons map[string]customID
	for i := 0; ; i++ {
		require.Less(t, i, 200, "no Draw button came up")
		rec = tb.record()
		board, buttons = tb.boardFor(rec)
		if _, ok := buttons["draw"]; ok {
			break
		}
		require.True(t, tb.decide())
	}
	user := tb.user(seats(t, rec)[dixOf(rec).ToAct()])
	id := buttons["draw"]
	// A click as Discord would send it: the stand-in's last interaction,
	// made the next click.
	ixs := tb.fake.Interactions()
	last := ixs[len(ixs)-1]
	payload := map[string]any{
		"id": strconv.FormatUint(mustUint(t, last.ID)+1_000_000, 10), "application_id": tb.fake.ApplicationID(),
		"type": 3, "token": "forged-token", "version": 1, "locale": "en-US", "guild_locale": "en-US",
		"guild_id": tb.guild.ID, "channel_id": tb.channel.ID,
		"member":  map[string]any{"user": map[string]any{"id": user.ID, "username": user.Username}, "roles": []string{}, "permissions": "0"},
		"message": map[string]any{"id": board.ID, "channel_id": tb.channel.ID},
		"data":    map[string]any{"custom_id": id.raw, "component_type": 2},
	}
	body, err := json.Marshal(payload)
	require.NoError(t, err)

	post := func(ts string, sig string) int {
		req, err := http.NewRequestWithContext(waitCtx(t), http.MethodPost, url, bytes.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Signature-Ed25519", sig)
		req.Header.Set("X-Signature-Timestamp", ts)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	now := strconv.FormatInt(time.Now().Unix(), 10)
	forged, err := hex.DecodeString(tb.fake.SignRequest(now, body))
	require.NoError(t, err)
	forged[7] ^= 0x40
	assert.Equal(t, http.StatusUnauthorized, post(now, hex.EncodeToString(forged)), "forged signature")
	stale := strconv.FormatInt(time.Now().Add(-10*time.Minute).Unix(), 10)
	assert.Equal(t, http.StatusUnauthorized, post(stale, tb.fake.SignRequest(stale, body)), "stale timestamp, genuinely signed")

	// (The record's version may move: the work after the last click
	// records itself done.)
	after := tb.record()
	assert.Equal(t, dixOf(rec).Seq, dixOf(after).Seq, "nothing applied")
	assert.Equal(t, mustBinary(t, rec), mustBinary(t, after), "the game is unchanged")

	r := tb.click(user, board.ID, id.raw)
	require.Greater(t, dixOf(tb.record()).Seq, dixOf(rec).Seq, "the same click through Discord is applied: %s", describe(r))
	tb.fake.Advance(tb.think)
}

func mustUint(t *testing.T, s string) uint64 {
	t.Helper()
	n, err := strconv.ParseUint(s, 10, 64)
	require.NoError(t, err)
	return n
}

func mustBinary(t *testing.T, r *dixbot.Record) []byte {
	t.Helper()
	b, err := dixOf(r).MarshalBinary()
	require.NoError(t, err)
	return b
}
