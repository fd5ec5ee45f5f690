package fakediscord

// Reading one channel among many. Changes and WaitFor wake every waiter
// at every change anywhere; a load run with a thousand channels, each
// waited on by its own players, needs to be woken by its own channel only
// and to read the last few messages without copying the whole channel.

// ChannelChanges returns a channel that is closed at the next change to a
// message of channelID: a message created, edited or deleted (ephemeral
// ones included). Take a new one after each wake-up, then read the channel.
func (s *Server) ChannelChanges(channelID string) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.watched == nil {
		s.watched = map[string]chan struct{}{}
	}
	ch, ok := s.watched[channelID]
	if !ok {
		ch = make(chan struct{})
		if s.closed {
			close(ch)
			return ch
		}
		s.watched[channelID] = ch
	}
	return ch
}

// notifyChannelLocked wakes the waiters of one channel; s.mu must be held.
func (s *Server) notifyChannelLocked(channelID string) {
	if ch, ok := s.watched[channelID]; ok {
		close(ch)
		delete(s.watched, channelID)
	}
}

// closeWatchesLocked wakes every channel's waiters at Close.
func (s *Server) closeWatchesLocked() {
	for id, ch := range s.watched {
		close(ch)
		delete(s.watched, id)
	}
}

// RecentMessages returns the last limit messages of a channel that userID
// sees (public ones and the user's own ephemeral ones; "" for public only),
// not deleted, oldest first: what Discord's client shows at the bottom of
// the channel. It copies only those messages, however long the channel.
func (s *Server) RecentMessages(channelID, userID string, limit int) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := s.chanMsgs[channelID]
	var picked []*Message
	for i := len(ids) - 1; i >= 0 && len(picked) < limit; i-- {
		if m := s.messages[ids[i]]; m.visibleTo(userID) {
			picked = append(picked, m)
		}
	}
	out := make([]Message, len(picked))
	for i, m := range picked {
		out[len(picked)-1-i] = m.clone()
	}
	return out
}
