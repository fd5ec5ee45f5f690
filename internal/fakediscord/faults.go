package fakediscord

import (
	"context"
	"fmt"
	"sync"
)

// Faults a test can inject on top of Discord's normal behaviour: the same
// interaction delivered twice, and answers held up on their way to Discord.

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
// request held past it is refused as late. Tests use it to keep an
// interaction in flight in the bot at a known point. It is safe for
// concurrent use.
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
// in place. It returns at once when there is none.
func (s *Server) waitHold(ctx context.Context, id string) {
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
		return
	}
	h.arrOnce.Do(func() { close(h.arrived) })
	select {
	case <-h.release:
	case <-closed:
	case <-ctx.Done():
	}
}
