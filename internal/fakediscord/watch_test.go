package fakediscord_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/fakediscord"
)

// closed reports whether ch is closed, without waiting.
func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

func TestChannelChangesWakesOnlyItsChannel(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	other, err := w.srv.AddChannel(w.guild.ID, "other")
	require.NoError(t, err)
	path := "/channels/" + w.channel.ID + "/messages"

	mine, theirs := w.srv.ChannelChanges(w.channel.ID), w.srv.ChannelChanges(other.ID)
	assert.Equal(t, mine, w.srv.ChannelChanges(w.channel.ID), "one notification per change, shared by its waiters")
	r := callH(t, w.srv, w.srv.Token(), http.MethodPost, path, obj{"content": "first"})
	require.Equal(t, http.StatusOK, r.status)
	assert.True(t, closed(mine), "a message created in the channel")
	assert.False(t, closed(theirs), "nothing happened in the other channel")

	mine = w.srv.ChannelChanges(w.channel.ID)
	assert.False(t, closed(mine), "a new one after the wake-up")
	id := r.body["id"].(string)
	require.Equal(t, http.StatusOK, callH(t, w.srv, w.srv.Token(), http.MethodPatch, path+"/"+id, obj{"content": "edited"}).status)
	assert.True(t, closed(mine), "a message edited")

	mine = w.srv.ChannelChanges(w.channel.ID)
	require.Equal(t, http.StatusNoContent, callH(t, w.srv, w.srv.Token(), http.MethodDelete, path+"/"+id, nil).status)
	assert.True(t, closed(mine), "a message deleted")

	mine = w.srv.ChannelChanges(w.channel.ID)
	require.NoError(t, w.srv.Close())
	assert.True(t, closed(mine), "Close wakes every waiter")
	assert.True(t, closed(theirs), "Close wakes the waiters of every channel")
	assert.True(t, closed(w.srv.ChannelChanges(other.ID)), "and any later one at once")
}

func TestRecentMessages(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	path := "/channels/" + w.channel.ID + "/messages"
	var ids []string
	for _, text := range []string{"one", "two", "three", "four"} {
		r := callH(t, w.srv, w.srv.Token(), http.MethodPost, path, obj{"content": text})
		require.Equal(t, http.StatusOK, r.status)
		ids = append(ids, r.body["id"].(string))
	}
	require.Equal(t, http.StatusNoContent, callH(t, w.srv, w.srv.Token(), http.MethodDelete, path+"/"+ids[3], nil).status)
	rawBot(t, w.srv)
	ix := interactionFor(t, w)
	cb := callH(t, w.srv, "", http.MethodPost, "/interactions/"+ix.ID+"/"+ix.Token+"/callback", obj{"type": 4, "data": obj{"content": "only alice", "flags": 64}})
	require.Equal(t, http.StatusNoContent, cb.status, "%v", cb.body)
	r, ok := ix.Response() // alice's ephemeral answer, newest in the channel
	require.True(t, ok)
	require.True(t, r.Ephemeral())

	contents := func(ms []fakediscord.Message) []string {
		var out []string
		for _, m := range ms {
			out = append(out, m.Content)
		}
		return out
	}
	assert.Equal(t, []string{"two", "three"}, contents(w.srv.RecentMessages(w.channel.ID, "", 2)),
		"the last two public ones, oldest first, the deleted one left out")
	mine := w.srv.RecentMessages(w.channel.ID, w.alice.ID, 2)
	require.Len(t, mine, 2)
	assert.Equal(t, "three", mine[0].Content)
	assert.Equal(t, r.Message.ID, mine[1].ID, "alice also sees her ephemeral answer")
	assert.Len(t, w.srv.RecentMessages(w.channel.ID, "", 100), 3, "fewer than the limit")
	assert.Empty(t, w.srv.RecentMessages("123", "", 5), "an unknown channel")
}

// TestGatewayIntentsFilterMessageEvents: message events reach a session
// only when its IDENTIFY asked for GUILD_MESSAGES (1 << 9); interactions
// reach it whatever its intents.
func TestGatewayIntentsFilterMessageEvents(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		intents  any // nil: no intents field
		messages bool
	}{
		{"guilds only", 1, false},
		{"guild messages", 1 | 1<<9, true},
		{"no intents field", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			ws := dial(t, w.srv)
			d := obj{"token": "Bot " + w.srv.Token()}
			if tc.intents != nil {
				d["intents"] = tc.intents
			}
			require.NoError(t, ws.WriteJSON(obj{"op": 2, "d": d}))
			require.Equal(t, "READY", read(t, ws).T)
			require.Equal(t, "GUILD_CREATE", read(t, ws).T)

			r := callH(t, w.srv, w.srv.Token(), http.MethodPost, "/channels/"+w.channel.ID+"/messages", obj{"content": "hello"})
			require.Equal(t, http.StatusOK, r.status)
			interactionFor(t, w) // an interaction comes whatever the intents
			require.NoError(t, ws.SetReadDeadline(time.Now().Add(30*time.Second)))
			next := read(t, ws)
			if tc.messages {
				assert.Equal(t, "MESSAGE_CREATE", next.T)
				next = read(t, ws)
			}
			assert.Equal(t, "INTERACTION_CREATE", next.T)
		})
	}
}
