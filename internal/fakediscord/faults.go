package fakediscord

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// Faults a test can inject on top of Discord's normal behaviour: the same
// interaction delivered twice, answers held up on their way to Discord,
// and 429 answers from limits the bot cannot see coming.

// Redeliver dispatches the interaction again over the gateway, with the same
// id, token and payload, to every bot session, as Discord may when a gateway
// session resumes. Nothing else changes: if the bot already answered, a
// second initial response is refused with 40060 (and recorded as a
// Violation), as Discord would. It returns ErrUnknownInteraction, ErrClosed,
// ErrNoBotConnected or ErrNoPayload (Options.DropPayloads) (wrapped) when
// nothing could be dispatched.
func (ix *Interaction) Redeliver(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s := ix.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	st, ok := s.ixByID[ix.ID]
	if !ok {
		return fmt.Errorf("%w: %s", ErrUnknownInteraction, ix.ID)
	}
	if !s.botReachableLocked(st.guildID) {
		return ErrNoBotConnected
	}
	if st.payload == nil {
		return fmt.Errorf("%w: %s", ErrNoPayload, ix.ID)
	}
	st.deliveries++
	s.deliverLocked(st)
	s.notifyLocked()
	return nil
}

// Deliveries returns how many times the interaction was dispatched (1, plus
// one per Redeliver).
func (ix *Interaction) Deliveries() int {
	s := ix.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.ixByID[ix.ID]; ok {
		return 1 + st.deliveries
	}
	return 0
}

// Hold holds up the initial responses (interaction callbacks) to the
// interactions of one user: each such request waits, before Discord looks
// at it, until Release. The interaction's deadline keeps running, so a
// request held past it is refused as late; a request whose sender goes
// away while it is held (its process killed) never reaches Discord and
// changes nothing. Tests use it to keep an interaction in flight in the
// bot at a known point. It is safe for concurrent use.
type Hold struct {
	s       *Server
	user    string
	arrived chan struct{}
	arrOnce sync.Once
	release chan struct{}
	relOnce sync.Once
}

// HoldCallbacks holds the initial responses to interactions of userID until
// the returned Hold is released (or the server closes). Release it before
// the test ends.
func (s *Server) HoldCallbacks(userID string) *Hold {
	h := &Hold{s: s, user: userID, arrived: make(chan struct{}), release: make(chan struct{})}
	s.mu.Lock()
	s.holds = append(s.holds, h)
	s.mu.Unlock()
	return h
}

// Arrived is closed when the first held request has arrived: the bot is
// then past its decision and waiting on Discord.
func (h *Hold) Arrived() <-chan struct{} { return h.arrived }

// Release lets the held requests (and later ones) through and removes the
// hold. It may be called more than once.
func (h *Hold) Release() {
	h.relOnce.Do(func() {
		s := h.s
		s.mu.Lock()
		for i, x := range s.holds {
			if x == h {
				s.holds = append(s.holds[:i], s.holds[i+1:]...)
				break
			}
		}
		s.mu.Unlock()
		close(h.release)
	})
}

// waitHold blocks a callback to interaction id while a Hold on its user is
// in place. It returns at once when there is none. It reports false when
// the request's sender went away (its process killed, its context ended)
// while the request was held: such a request never reached Discord.
func (s *Server) waitHold(ctx context.Context, id string) bool {
	s.mu.Lock()
	st, ok := s.ixByID[id]
	var h *Hold
	if ok {
		for _, x := range s.holds {
			if x.user == st.user.ID {
				h = x
				break
			}
		}
	}
	closed := s.closedCh
	s.mu.Unlock()
	if h == nil {
		return true
	}
	h.arrOnce.Do(func() { close(h.arrived) })
	select {
	case <-h.release:
	case <-closed:
	case <-ctx.Done():
		return false
	}
	return true
}

// RateLimitAfterBoards arms a fault for the next n public messages the bot
// posts with components (boards) through a follow-up or the channel's
// message route: the next k requests the bot sends after each one is
// created, other than reads and interactions' initial responses, are
// answered 429 with the shared scope, as Discord answers a request over a
// resource's limit (https://discord.com/developers/docs/topics/rate-limits#exceeding-a-rate-limit).
// A piece of work made of several requests (post the next board, then
// retire the old one, through the interaction's token and else the bot's)
// thus sees its second step refused after the first took effect.
func (s *Server) RateLimitAfterBoards(n, k int) *AfterBoards {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.after.left += n
	s.after.each = k
	return &AfterBoards{s: s}
}

// AfterBoards reports on a RateLimitAfterBoards fault.
type AfterBoards struct{ s *Server }

// Count is how many requests the fault answered 429.
func (a *AfterBoards) Count() int {
	a.s.mu.Lock()
	defer a.s.mu.Unlock()
	return a.s.after.answered
}

// afterBoardFault is the state of RateLimitAfterBoards.
type afterBoardFault struct {
	left     int // boards still to arm the fault
	each     int // requests refused after each
	armed    int // requests still to refuse
	answered int
}

// afterBoardRetry is the retry_after of the fault's 429s.
const afterBoardRetry = 300 * time.Millisecond

// afterBoardLocked answers 429 to the request when the fault is armed.
func (s *Server) afterBoardLocked(r *http.Request, template string) *rateLimited {
	f := &s.after
	if f.armed == 0 || r.Method == http.MethodGet || template == "POST /interactions/{id}/{token}/callback" {
		return nil
	}
	f.armed--
	f.answered++
	return &rateLimited{scope: "shared", retryAfter: afterBoardRetry}
}

// postedLocked arms the fault after a board is posted.
func (s *Server) postedLocked(r *http.Request, template string, resp any) {
	f := &s.after
	if f.left == 0 || r.Method != http.MethodPost || (template != "POST /webhooks/{id}/{token}" && template != "POST /channels/{id}/messages") {
		return
	}
	m, ok := resp.(messageJSON)
	if !ok || len(m.Components) == 0 || m.Flags&FlagEphemeral != 0 {
		return
	}
	f.left--
	f.armed = f.each
}

// rateFault answers the next left requests on route with a 429.
type rateFault struct {
	route string
	left  int
	after time.Duration
}

// RateLimitNext answers the next n requests on route (a route template as
// Stats names them, e.g. "POST /webhooks/{id}/{token}") with a 429 of
// scope "shared", retry_after after: what Discord answers when a limit on
// the resource, which no header announced, is reached ("The resource is
// being rate limited.",
// https://discord.com/developers/docs/topics/rate-limits#exceeding-a-rate-limit).
// The request is not served. It works with the rate limits on or off.
func (s *Server) RateLimitNext(route string, n int, retryAfter time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rateFaults = append(s.rateFaults, &rateFault{route: route, left: n, after: retryAfter})
}

// RateLimitGlobal answers every bot-token request for d with Discord's
// global 429, as documented in "Example Exceeded Global Rate Limit
// Response" (https://discord.com/developers/docs/topics/rate-limits#exceeding-a-rate-limit):
// Retry-After, X-RateLimit-Global: true, X-RateLimit-Scope: global and a
// body {"message", "retry_after", "global": true}, and no
// X-RateLimit-Limit, -Remaining, -Reset, -Reset-After or -Bucket header.
// Requests made with an interaction's token are not bound by the global
// limit and go through
// (https://discord.com/developers/docs/interactions/receiving-and-responding#endpoints).
// It works with the rate limits on or off.
func (s *Server) RateLimitGlobal(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.globalTill = s.now().Add(d)
}

// faultLocked is the 429 a fault owes a request on template, if any.
func (s *Server) faultLocked(template string, botToken bool) *rateLimited {
	now := s.now()
	if botToken && now.Before(s.globalTill) {
		return &rateLimited{scope: "global", global: true, retryAfter: s.globalTill.Sub(now)}
	}
	for i, f := range s.rateFaults {
		if f.route != template {
			continue
		}
		if f.left--; f.left <= 0 {
			s.rateFaults = append(s.rateFaults[:i], s.rateFaults[i+1:]...)
		}
		return &rateLimited{scope: "shared", retryAfter: f.after}
	}
	return nil
}
