package fakediscord

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"
)

// Interactions over HTTP ("outgoing webhooks"), as documented in
// https://discord.com/developers/docs/interactions/overview#configuring-an-interactions-endpoint-url
// and .../receiving-and-responding#receiving-an-interaction:
//
//   - each interaction is POSTed as JSON to the Interactions Endpoint URL,
//     signed with the application's Ed25519 key over timestamp + body, in
//     the X-Signature-Ed25519 (hex) and X-Signature-Timestamp headers; the
//     app checks them with the public key and answers 401 when they do
//     not verify;
//   - when the URL is set, Discord sends a PING (type 1) that must be
//     answered 200 {"type": 1}, and checks that an invalid signature is
//     refused ("Discord will also perform automated, routine security
//     checks against your endpoint, including purposefully sending you
//     invalid signatures");
//   - the HTTP reply may carry the initial response (an interaction
//     response object, "Inline HTTP Response Behavior"), or be 202 with no
//     body when the app answered through the callback route instead;
//     follow-ups and edits always use the REST routes with the token;
//   - HTTP and gateway delivery are mutually exclusive: with an endpoint
//     set, INTERACTION_CREATE is not sent on the gateway.
//
// Several URLs stand for the replicas behind a load balancer: deliveries
// go round robin, and a delivery whose connection fails (refused, reset,
// no answer before the connect timeout) is sent to the next URL. Discord
// itself documents no retry of a failed delivery (the user sees "The
// application did not respond"); this failover is what the load balancer
// in front of the replicas does, and the 3-second deadline still counts
// from the first attempt.

// ErrEndpointCheck is returned by SetInteractionsEndpoints when an endpoint
// fails Discord's PING or signature check.
var ErrEndpointCheck = errors.New("fakediscord: interactions endpoint check failed")

type httpDelivery struct {
	priv      ed25519.PrivateKey
	pub       ed25519.PublicKey
	endpoints []string
	next      int
	client    *http.Client
	delivered int
	failovers int
}

// connectTimeout bounds one delivery attempt's connection, so a dead
// replica leaves time for the next one.
const connectTimeout = 500 * time.Millisecond

func (s *Server) initHTTPDelivery() error {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return fmt.Errorf("fakediscord: key: %w", err)
	}
	dialer := &net.Dialer{Timeout: connectTimeout}
	s.httpIx = httpDelivery{priv: priv, pub: pub, client: &http.Client{
		Transport: &http.Transport{DialContext: dialer.DialContext, MaxIdleConnsPerHost: 64},
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}}
	return nil
}

// PublicKey returns the application's Ed25519 public key in hex, as the
// developer portal shows it (DISCORD_PUBLIC_KEY for the bot).
func (s *Server) PublicKey() string { return hex.EncodeToString(s.httpIx.pub) }

// SignRequest signs body as Discord does, for tests of an endpoint's
// signature check; it returns the X-Signature-Ed25519 and
// X-Signature-Timestamp values.
func (s *Server) SignRequest(timestamp string, body []byte) (signature string) {
	return hex.EncodeToString(ed25519.Sign(s.httpIx.priv, append([]byte(timestamp), body...)))
}

// SetInteractionsEndpoints makes the stand-in deliver interactions by
// signed HTTP POST to urls (round robin, failing over to the next URL when
// a connection fails) instead of the gateway. Like Discord when the URL is
// saved, it first checks each URL: a signed PING must be answered 200
// {"type":1} and a PING with an invalid signature 401; otherwise nothing
// changes and ErrEndpointCheck (wrapped) is returned. No URL switches back
// to the gateway.
func (s *Server) SetInteractionsEndpoints(ctx context.Context, urls ...string) error {
	for _, u := range urls {
		if err := s.checkEndpoint(ctx, u); err != nil {
			return err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.httpIx.endpoints = append([]string(nil), urls...)
	s.httpIx.next = 0
	return nil
}

func (s *Server) checkEndpoint(ctx context.Context, u string) error {
	ping := mustJSON(map[string]any{"id": s.newID(), "application_id": s.opts.ApplicationID, "type": InteractionPing,
		"token": randomToken(), "version": 1})
	status, body, err := s.post(ctx, u, ping, true)
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrEndpointCheck, u, err)
	}
	var pong struct {
		Type int `json:"type"`
	}
	if status != http.StatusOK || json.Unmarshal(body, &pong) != nil || pong.Type != CallbackPong {
		return fmt.Errorf("%w: %s answered PING with %d %q, want 200 {\"type\":1}", ErrEndpointCheck, u, status, body)
	}
	status, _, err = s.post(ctx, u, ping, false)
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrEndpointCheck, u, err)
	}
	if status != http.StatusUnauthorized {
		return fmt.Errorf("%w: %s answered a PING with an invalid signature with %d, want 401", ErrEndpointCheck, u, status)
	}
	return nil
}

// post sends a signed (or wrongly signed) interaction and returns the
// answer.
func (s *Server) post(ctx context.Context, u string, body []byte, validSig bool) (int, []byte, error) {
	resp, err := s.postRaw(ctx, u, body, validSig)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, out, err
}

func (s *Server) postRaw(ctx context.Context, u string, body []byte, validSig bool) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	sig := s.SignRequest(ts, body)
	if !validSig {
		b, _ := hex.DecodeString(sig)
		b[0] ^= 0xff
		sig = hex.EncodeToString(b)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Discord-Interactions/1.0 (+https://discord.com)")
	req.Header.Set("X-Signature-Ed25519", sig)
	req.Header.Set("X-Signature-Timestamp", ts)
	return s.httpIx.client.Do(req)
}

// deliverLocked sends an interaction to the bot: by HTTP when endpoints are
// set, else on the gateway shard serving its guild.
func (s *Server) deliverLocked(st *ixState) {
	eps := s.httpIx.endpoints
	if len(eps) == 0 {
		s.dispatchGuildLocked(st.guildID, "INTERACTION_CREATE", st.payload)
		return
	}
	start := s.httpIx.next
	s.httpIx.next = (start + 1) % len(eps)
	order := append(append([]string(nil), eps[start:]...), eps[:start]...)
	body := mustJSON(st.payload)
	deadline := time.Now().Add(s.opts.ResponseDeadline - s.now().Sub(st.createdAt))
	go s.deliverHTTP(st, order, body, deadline)
}

func (s *Server) deliverHTTP(st *ixState, order []string, body []byte, deadline time.Time) {
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	go func() {
		select {
		case <-s.closedCh:
			cancel()
		case <-ctx.Done():
		}
	}()
	for i, u := range order {
		resp, err := s.postRaw(ctx, u, body, true)
		if err != nil {
			if ctx.Err() != nil {
				return // the deadline passed: the timer records it
			}
			s.log.Warn("interactions endpoint unreachable, trying the next", "url", u, "err", err)
			if i+1 < len(order) {
				s.mu.Lock()
				s.httpIx.failovers++
				s.mu.Unlock()
			}
			continue
		}
		s.httpAnswer(st, u, resp)
		return
	}
}

// httpAnswer applies the reply to an HTTP delivery.
func (s *Server) httpAnswer(st *ixState, u string, resp *http.Response) {
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxRequestSize+1))
	s.mu.Lock()
	defer s.mu.Unlock()
	s.httpIx.delivered++
	s.notifyLocked()
	violate := func(code int, msg, details string) {
		s.violateLocked(&Violation{Method: http.MethodPost, Path: u, Status: resp.StatusCode, Code: code, Message: msg, Details: details, InteractionID: st.id})
	}
	switch {
	case resp.StatusCode == http.StatusAccepted || resp.StatusCode == http.StatusNoContent:
		return // answered through the callback route
	case resp.StatusCode != http.StatusOK:
		violate(0, fmt.Sprintf("interactions endpoint answered HTTP %d", resp.StatusCode), string(raw))
		return
	case len(raw) > maxRequestSize:
		violate(40005, "Request entity too large", "")
		return
	}
	var req callbackRequest
	files, e := decodeWithFiles(&http.Request{Header: resp.Header}, raw, &req)
	if e == nil {
		e = s.applyCallbackLocked(st, req, files)
	}
	if e != nil {
		violate(e.code, e.msg, e.fields.String())
	} else if empty := emptyUploads(files); empty != "" {
		violate(0, msgEmptyUpload, empty)
	}
}
