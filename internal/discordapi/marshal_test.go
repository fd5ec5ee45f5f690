package discordapi

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/bwmarrin/discordgo"
	fastjson "github.com/segmentio/encoding/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/randfill"
)

// Plain copies of discordgo's components, without their MarshalJSON
// methods: the anonymous structs those methods hand to discordgo.Marshal
// have these fields.
type (
	plainButton     discordgo.Button
	plainSelectMenu discordgo.SelectMenu
	plainTextInput  discordgo.TextInput
)

// discordgo.Marshal writes what encoding/json writes, for every request
// the bot sends (commands registered included) and the components
// inside them, on random values
// (strings JSON escapes, invalid UTF-8, HTML, line separators included).
func TestMarshalAsEncodingJSON(t *testing.T) {
	t.Parallel()
	strs := []string{"", "a", "Zoé", "<b>&amp;</b>", "\u2028\u2029", "\xff\xfe", "\"q\\", "\t\n\x01", "🎲 3 4", "1577551606021357570", "attachment://board.png"}
	r := rand.New(rand.NewPCG(42, 7))
	row := func() discordgo.MessageComponent {
		var b discordgo.Button
		randfill.Fill(r, reflect.ValueOf(&b).Elem(), strs)
		var s discordgo.SelectMenu
		randfill.Fill(r, reflect.ValueOf(&s).Elem(), strs)
		return discordgo.ActionsRow{Components: []discordgo.MessageComponent{b, &s}}
	}
	kinds := []func() any{
		func() any { return &discordgo.InteractionResponse{} },
		func() any { return &discordgo.WebhookParams{} },
		func() any { return &discordgo.WebhookEdit{} },
		func() any { return &discordgo.MessageSend{} },
		func() any { return &discordgo.MessageEdit{} },
		func() any { return &discordgo.ApplicationCommand{} },
		func() any { return &plainButton{} },
		func() any { return &plainSelectMenu{} },
		func() any { return &plainTextInput{} },
	}
	for i := range 3000 {
		v := kinds[i%len(kinds)]()
		randfill.Fill(r, reflect.ValueOf(v).Elem(), strs)
		switch v := v.(type) {
		case *discordgo.InteractionResponse:
			if v.Data != nil {
				v.Data.Components = []discordgo.MessageComponent{row(), quickRow{row().(discordgo.ActionsRow)}}
			}
		case *discordgo.WebhookParams:
			v.Components = []discordgo.MessageComponent{row()}
		}
		want, werr := json.Marshal(v)
		got, gerr := fastjson.Marshal(v)
		require.Equal(t, werr == nil, gerr == nil, "value %d: %v / %v", i, werr, gerr)
		assert.Equal(t, string(want), string(got), "value %d (%T)", i, v)
	}
	assert.Equal(t, reflect.ValueOf(fastjson.Marshal).Pointer(), reflect.ValueOf(discordgo.Marshal).Pointer(), "discordgo writes with the faster encoder")
}
