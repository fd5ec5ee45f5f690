package app

import (
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"
)

// discordgo hands INTERACTION_CREATE over undecoded, and the gate decodes
// it as discordgo did; the other events discordgo still decodes.
func TestGatewayInteractionsDecodedByTheGate(t *testing.T) {
	t.Parallel()
	require.True(t, takeInteractionDecoding(), "discordgo's table of events, as this code knows it")
	require.NotContains(t, discordgoEvents, interactionCreate)
	require.Contains(t, discordgoEvents, "READY")
	require.Contains(t, discordgoEvents, "GUILD_CREATE")

	files, err := filepath.Glob("../discordapi/testdata/interactions/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		raw, err := os.ReadFile(f)
		require.NoError(t, err)
		var got *discordgo.InteractionCreate
		var gotRaw []byte
		g := newGate(func(_ *discordgo.Session, i *discordgo.InteractionCreate, raw []byte) { got, gotRaw = i, raw }, slog.New(slog.DiscardHandler))
		g.HandleEvent(nil, &discordgo.Event{Type: interactionCreate, RawData: raw})
		var want discordgo.InteractionCreate
		require.NoError(t, json.Unmarshal(raw, &want))
		require.Equal(t, &want, got, f)
		require.Equal(t, raw, gotRaw)
	}
}

// An interaction that does not decode is handled as far as it decoded,
// as discordgo did; one without an interaction is dropped.
func TestGatewayInteractionThatDoesNotDecode(t *testing.T) {
	t.Parallel()
	var got []*discordgo.InteractionCreate
	g := newGate(func(_ *discordgo.Session, i *discordgo.InteractionCreate, _ []byte) { got = append(got, i) }, slog.New(slog.DiscardHandler))
	bad := []byte(`{"id":"7","type":3,"data":{"custom_id":"a"},"app_permissions":12}`)
	g.HandleEvent(nil, &discordgo.Event{Type: interactionCreate, RawData: bad})
	g.HandleEvent(nil, &discordgo.Event{Type: interactionCreate, RawData: []byte(`null`)})
	g.HandleEvent(nil, &discordgo.Event{Type: interactionCreate, RawData: []byte(`{`)})
	g.HandleEvent(nil, &discordgo.Event{Type: "MESSAGE_CREATE", RawData: []byte(`{"id":"8"}`)})
	var want discordgo.InteractionCreate
	require.Error(t, json.Unmarshal(bad, &want))
	require.Len(t, got, 1)
	require.Equal(t, &want, got[0])
}
