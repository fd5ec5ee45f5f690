package bot

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot"
	botqwixx "github.com/dixgame/dixbot/bot/qwixx"
)

// A person who leaves is taken out of the ping still to be posted (the
// computer decides for them now), the others stay in it, and the ping goes
// when nobody is left in it; a ping posted already is left as it was.
func TestLeaverTakenOutOfTheOwedPing(t *testing.T) {
	t.Parallel()
	g := botqwixx.Game()
	r := &dixbot.Record{Guild: "g1", Channel: "c1"}
	td := &tableData{Lang: "en", Board: "b1", NextEffect: 4,
		Ping:   &pingMsg{Eff: 5, Users: []string{"u1", "u2"}, Names: []string{"Ann", "Bob"}, Opens: []uint64{3, 3}},
		Outbox: []effect{{ID: 4, Kind: effEdit}, {ID: 5, Kind: effPing, Users: []string{"u1", "u2"}, Text: "both"}}}
	td.unping(r, &g, "u2")
	require.NotNil(t, td.Ping)
	assert.Equal(t, []string{"u1"}, td.Ping.Users)
	assert.Equal(t, []string{"Ann"}, td.Ping.Names)
	require.Len(t, td.Outbox, 2)
	assert.Equal(t, []string{"u1"}, td.Outbox[1].Users)
	assert.Contains(t, td.Outbox[1].Text, "<@u1>")
	assert.NotContains(t, td.Outbox[1].Text, "<@u2>")

	td.unping(r, &g, "u1")
	assert.Nil(t, td.Ping, "nobody left to ping")
	assert.Len(t, td.Outbox, 1, "the ping is no longer owed")
	assert.Equal(t, effEdit, td.Outbox[0].Kind)

	posted := &pingMsg{ID: "m9", Users: []string{"u1", "u2"}}
	td = &tableData{Lang: "en", Ping: posted}
	td.unping(r, &g, "u2")
	assert.Equal(t, []string{"u1", "u2"}, td.Ping.Users, "a ping posted stays as it went out")
}
