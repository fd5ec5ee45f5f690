package app

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/fakediscord"
)

// signer signs requests as Discord does: Ed25519 over the timestamp
// followed by the body.
type signer struct {
	pub  ed25519.PublicKey
	priv ed25519.PrivateKey
}

func newSigner(t *testing.T) signer {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	return signer{pub, priv}
}

func (s signer) request(body []byte, at time.Time) *http.Request {
	ts := strconv.FormatInt(at.Unix(), 10)
	r := httptest.NewRequest(http.MethodPost, "/interactions", bytes.NewReader(body))
	r.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(s.priv, append([]byte(ts), body...))))
	r.Header.Set("X-Signature-Timestamp", ts)
	return r
}

// testEndpoint is an endpoint whose handler records the interactions it
// gets and answers them at once.
type testEndpoint struct {
	*endpoint
	mu     sync.Mutex
	got    []string
	answer bool
}

func newTestEndpoint(t *testing.T, key ed25519.PublicKey, now time.Time) *testEndpoint {
	te := &testEndpoint{answer: true}
	te.endpoint = &endpoint{
		key:  key,
		gate: newGate(nil, slog.New(slog.DiscardHandler)),
		handle: func(i *discordgo.InteractionCreate, _ []byte, answered func()) {
			te.mu.Lock()
			te.got = append(te.got, i.ID)
			te.mu.Unlock()
			answered()
		},
		now: func() time.Time { return now },
		log: slog.New(slog.DiscardHandler),
	}
	return te
}

func (te *testEndpoint) handled() []string {
	te.mu.Lock()
	defer te.mu.Unlock()
	return append([]string(nil), te.got...)
}

func serve(h http.Handler, r *http.Request) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

const clickBody = `{"id":"1001","application_id":"7","type":3,"token":"tok","version":1,"channel_id":"5","guild_id":"4",` +
	`"member":{"user":{"id":"9","username":"alice"}},"data":{"custom_id":"x","component_type":2}}`

func TestEndpointAnswersPing(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	s := newSigner(t)
	e := newTestEndpoint(t, s.pub, now)
	w := serve(e, s.request([]byte(`{"id":"1","type":1,"token":"t","version":1}`), now))
	require.Equal(t, http.StatusOK, w.Code)
	assert.JSONEq(t, `{"type":1}`, w.Body.String())
	assert.Equal(t, "application/json", w.Header().Get("Content-Type"))
	assert.Empty(t, e.handled(), "a PING reaches no handler")
}

// Discord checks that a request it signed wrongly is refused with 401
// (https://discord.com/developers/docs/interactions/overview#setting-up-an-endpoint-validating-security-request-headers);
// a replayed request keeps its old timestamp, which the signature covers.
func TestEndpointRefusesUnsignedStaleAndForged(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	s := newSigner(t)
	other := newSigner(t)
	body := []byte(clickBody)
	cases := []struct {
		name string
		req  func() *http.Request
		want int
	}{
		{"valid", func() *http.Request { return s.request(body, now) }, http.StatusAccepted},
		{"a minute late is still fresh", func() *http.Request { return s.request(body, now.Add(-maxClockSkew)) }, http.StatusAccepted},
		{"signed by another key", func() *http.Request { return other.request(body, now) }, http.StatusUnauthorized},
		{"stale timestamp", func() *http.Request { return s.request(body, now.Add(-maxClockSkew-time.Second)) }, http.StatusUnauthorized},
		{"timestamp from the future", func() *http.Request { return s.request(body, now.Add(maxClockSkew+time.Second)) }, http.StatusUnauthorized},
		{"body changed after signing", func() *http.Request {
			r := s.request(body, now)
			r.Body = http.NoBody
			r.Body = httptest.NewRequest(http.MethodPost, "/", strings.NewReader(strings.Replace(clickBody, `"x"`, `"y"`, 1))).Body
			return r
		}, http.StatusUnauthorized},
		{"timestamp changed after signing", func() *http.Request {
			r := s.request(body, now)
			r.Header.Set("X-Signature-Timestamp", strconv.FormatInt(now.Unix()+1, 10))
			return r
		}, http.StatusUnauthorized},
		{"no signature", func() *http.Request {
			r := s.request(body, now)
			r.Header.Del("X-Signature-Ed25519")
			return r
		}, http.StatusUnauthorized},
		{"signature not hex", func() *http.Request {
			r := s.request(body, now)
			r.Header.Set("X-Signature-Ed25519", "zz"+r.Header.Get("X-Signature-Ed25519")[2:])
			return r
		}, http.StatusUnauthorized},
		{"no timestamp", func() *http.Request {
			r := s.request(body, now)
			r.Header.Del("X-Signature-Timestamp")
			return r
		}, http.StatusUnauthorized},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newTestEndpoint(t, s.pub, now)
			w := serve(e, c.req())
			assert.Equal(t, c.want, w.Code, w.Body.String())
			if c.want == http.StatusAccepted {
				assert.Equal(t, []string{"1001"}, e.handled())
			} else {
				assert.Empty(t, e.handled(), "nothing reaches the bot")
			}
		})
	}
}

func TestEndpointRefusesBadRequests(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	s := newSigner(t)
	e := newTestEndpoint(t, s.pub, now)

	w := serve(e, httptest.NewRequest(http.MethodGet, "/interactions", nil))
	assert.Equal(t, http.StatusMethodNotAllowed, w.Code)
	assert.Equal(t, http.MethodPost, w.Header().Get("Allow"))

	big := append([]byte(`{"type":2,"pad":"`), bytes.Repeat([]byte("a"), maxInteractionBody)...)
	big = append(big, `"}`...)
	w = serve(e, s.request(big, now))
	assert.Equal(t, http.StatusRequestEntityTooLarge, w.Code, "a body past the limit is refused before its signature is checked")

	w = serve(e, s.request([]byte(`not json`), now))
	assert.Equal(t, http.StatusBadRequest, w.Code)
	w = serve(e, s.request([]byte(`{"type":3}`), now))
	assert.Equal(t, http.StatusBadRequest, w.Code, "an interaction without an id")
	assert.Empty(t, e.handled())
}

// The HTTP request is replied to once the bot's first answer is sent, not
// after the work that follows it; the same interaction delivered twice is
// handled once.
func TestEndpointRepliesOnceAnsweredAndHandlesOnce(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	s := newSigner(t)
	e := newTestEndpoint(t, s.pub, now)
	release := make(chan struct{})
	finished := make(chan struct{})
	e.handle = func(i *discordgo.InteractionCreate, _ []byte, answered func()) {
		answered()
		<-release // the work after the answer
		close(finished)
	}
	w := serve(e, s.request([]byte(clickBody), now))
	assert.Equal(t, http.StatusAccepted, w.Code)
	assert.Empty(t, w.Body.String())
	require.Error(t, e.gate.Wait(expired(t)), "the work after the answer still runs")

	e.handle = func(*discordgo.InteractionCreate, []byte, func()) { t.Error("a redelivery was handled again") }
	w = serve(e, s.request([]byte(clickBody), now))
	assert.Equal(t, http.StatusAccepted, w.Code)
	assert.Equal(t, 1, e.gate.Dropped())

	close(release)
	<-finished
	require.NoError(t, e.gate.Wait(context.Background()))
}

func expired(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	t.Cleanup(cancel)
	return ctx
}

func TestConfigInteractionsMode(t *testing.T) {
	key := hex.EncodeToString(newSigner(t).pub)
	cases := []struct {
		name, addr, key string
		shards          ShardCount
		wantVar         string
	}{
		{"both", "127.0.0.1:8081", key, 1, ""},
		{"neither", "", "", 1, ""},
		{"address alone", "127.0.0.1:8081", "", 1, "DISCORD_PUBLIC_KEY"},
		{"key alone", "", key, 1, "INTERACTIONS_ADDR"},
		{"bad address", "8081", key, 1, "INTERACTIONS_ADDR"},
		{"bad key", "127.0.0.1:8081", key[:10], 1, "DISCORD_PUBLIC_KEY"},
		{"shards without a gateway", "127.0.0.1:8081", key, 2, "SHARD_COUNT"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := testConfig(t)
			cfg.InteractionsAddr, cfg.PublicKey, cfg.ShardCount = c.addr, c.key, c.shards
			err := cfg.Validate()
			if c.wantVar == "" {
				assert.NoError(t, err)
				return
			}
			assert.ErrorIs(t, err, ErrConfig)
			assert.ErrorContains(t, err, c.wantVar)
		})
	}
}

// Run in HTTP interactions mode: no gateway connection; Discord's endpoint
// check passes; a command is answered through the endpoint; the endpoint
// stops with Run.
func TestRunServesInteractionsOverHTTP(t *testing.T) {
	fake := fakediscord.Start(t, fakediscord.Options{DisableWeb: true})
	cfg := testConfig(t)
	cfg.APIURL = fake.URL()
	cfg.Token = fake.Token()
	cfg.InteractionsAddr = "127.0.0.1:0"
	cfg.PublicKey = fake.PublicKey()
	s, stop := startRun(t, cfg)
	assert.False(t, fake.Connected(), "no gateway connection")
	require.NotEmpty(t, s.InteractionsAddr)
	wctx, wcancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer wcancel()
	require.NoError(t, fake.SetInteractionsEndpoints(wctx, "http://"+s.InteractionsAddr+"/interactions"))

	g := fake.AddGuild(fakediscord.GuildSpec{Name: "Club"})
	ch, err := fake.AddChannel(g.ID, "dix")
	require.NoError(t, err)
	u := fake.AddUser(fakediscord.UserSpec{Name: "alice"})
	require.NoError(t, fake.AddMember(g.ID, u.ID, 0))
	ix, err := fake.RunCommand(wctx, u.ID, ch.ID, "/dix rules")
	require.NoError(t, err)
	r, err := ix.Wait(wctx)
	require.NoError(t, err)
	assert.NotEmpty(t, r.Message.Content, "the rules")
	for _, r := range fake.Interactions() {
		assert.True(t, r.InTime, "answered within Discord's deadline")
	}
	// The 202 reply comes after the answer through the callback route.
	require.NoError(t, fake.WaitFor(wctx, func() bool { return fake.Stats().HTTPDeliveries == 1 }))

	stop()
	_, err = http.Post("http://"+s.InteractionsAddr+"/interactions", "application/json", strings.NewReader("{}"))
	assert.Error(t, err, "the endpoint is closed")
	assert.Empty(t, fake.Violations())
}
