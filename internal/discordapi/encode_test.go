package discordapi

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"
)

// oddString is a string of up to n pieces, each of which a JSON encoder
// may write otherwise: HTML's characters, quotes, control bytes, invalid
// UTF-8, U+2028, emoji, accents.
func oddString(rng *rand.Rand, n int) string {
	pieces := []string{"a", "Bid 7", "<", ">", "&", `"`, `\`, "\x00", "\x1f", "\b", "\f", "\n", "\r", "\t", "\x7f",
		"\xff", "\xc3", "\xe2\x80", "\u2028", "\u2029", "🟦", "é", "Chloé", "\ufffd", " ", "{{.X}}", "dix:mv:1:draw:17"}
	var b strings.Builder
	for range rng.IntN(n + 1) {
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	return b.String()
}

func oddButton(rng *rand.Rand) discordgo.Button {
	bt := discordgo.Button{Label: oddString(rng, 4), Style: discordgo.ButtonStyle(rng.IntN(7)), Disabled: rng.IntN(2) == 0}
	if rng.IntN(2) == 0 {
		bt.Emoji = &discordgo.ComponentEmoji{}
		if rng.IntN(2) == 0 {
			bt.Emoji.Name = oddString(rng, 2)
		}
		if rng.IntN(3) == 0 {
			bt.Emoji.ID = oddString(rng, 2)
		}
		bt.Emoji.Animated = rng.IntN(3) == 0
	}
	if rng.IntN(4) == 0 {
		bt.URL = oddString(rng, 3)
	}
	if rng.IntN(4) != 0 {
		bt.CustomID = oddString(rng, 3)
	}
	return bt
}

func oddComponent(rng *rand.Rand) discordgo.MessageComponent {
	switch rng.IntN(8) {
	case 0:
		one := 1
		return discordgo.SelectMenu{CustomID: oddString(rng, 3), Placeholder: oddString(rng, 3), MinValues: &one, MaxValues: rng.IntN(3),
			Options: []discordgo.SelectMenuOption{{Label: oddString(rng, 3), Value: oddString(rng, 2), Default: rng.IntN(2) == 0,
				Emoji: &discordgo.ComponentEmoji{Name: oddString(rng, 1)}}}}
	case 1:
		return discordgo.TextInput{CustomID: oddString(rng, 2), Label: oddString(rng, 3), Style: discordgo.TextInputShort, Required: true, MaxLength: 40}
	case 2:
		bt := oddButton(rng)
		return &bt
	default:
		return oddButton(rng)
	}
}

func oddRow(rng *rand.Rand) discordgo.ActionsRow {
	var r discordgo.ActionsRow
	if rng.IntN(10) != 0 {
		r.Components = []discordgo.MessageComponent{}
		for range rng.IntN(6) {
			r.Components = append(r.Components, oddComponent(rng))
		}
	}
	return r
}

// A row written by hand is the very bytes discordgo's methods give,
// alone and inside every request body that carries components.
func TestQuickRowAsDiscordgo(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	for range 4000 {
		row := oddRow(rng)
		want, err := json.Marshal(row)
		require.NoError(t, err)
		got, err := json.Marshal(quickRow{row})
		require.NoError(t, err)
		require.Equal(t, string(want), string(got))
		raw, err := quickRow{row}.MarshalJSON()
		require.NoError(t, err)
		require.True(t, json.Valid(raw))
		require.Equal(t, string(want), string(raw), "compact as written")

		comps := []discordgo.MessageComponent{row, &row, oddComponent(rng)}
		kept := append([]discordgo.MessageComponent(nil), comps...)
		quick := quickComponents(comps)
		require.Equal(t, kept, comps, "the caller's components are left as they were")
		content := oddString(rng, 5)
		for _, pair := range [][2]any{
			{&discordgo.InteractionResponse{Type: 7, Data: &discordgo.InteractionResponseData{Content: content, Components: comps}},
				&discordgo.InteractionResponse{Type: 7, Data: &discordgo.InteractionResponseData{Content: content, Components: quick}}},
			{&discordgo.WebhookEdit{Content: &content, Components: &comps}, quickEdit(&discordgo.WebhookEdit{Content: &content, Components: &comps})},
			{&discordgo.WebhookParams{Content: content, Components: comps}, &discordgo.WebhookParams{Content: content, Components: quick}},
			{&discordgo.MessageSend{Content: content, Components: comps}, &discordgo.MessageSend{Content: content, Components: quick}},
		} {
			want, err := json.Marshal(pair[0])
			require.NoError(t, err)
			got, err := json.Marshal(pair[1])
			require.NoError(t, err)
			require.Equal(t, string(want), string(got))
		}
	}
	require.Nil(t, quickComponents(nil))
	require.Nil(t, quickEdit(nil))
	noComps := &discordgo.WebhookEdit{}
	require.Same(t, noComps, quickEdit(noComps))
}

// appendString writes every string as encoding/json does: each byte, each
// rune around the escapes, and random mixtures.
func TestAppendStringAsEncodingJSON(t *testing.T) {
	t.Parallel()
	check := func(s string) {
		want, err := json.Marshal(s)
		require.NoError(t, err)
		require.Equal(t, string(want), string(appendString(nil, s)), "%q", s)
	}
	for c := range 256 {
		check(string([]byte{byte(c)}))
		check("x" + string([]byte{byte(c)}) + "y")
	}
	for r := rune(0); r < 0x3000; r++ {
		check(string(r))
	}
	check("")
	rng := rand.New(rand.NewPCG(9, 10))
	for range 20000 {
		check(oddString(rng, 12))
		b := make([]byte, rng.IntN(16))
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		check(string(b))
	}
}

// A board's answer: four rows of five buttons, discordgo's way and by
// hand.
func boardAnswer(quick bool) *discordgo.InteractionResponse {
	var rows []discordgo.MessageComponent
	for range 4 {
		var bs []discordgo.MessageComponent
		for range 5 {
			bs = append(bs, discordgo.Button{Label: "Draw", Style: discordgo.PrimaryButton, CustomID: "dix:mv:12345678:draw:17",
				Emoji: &discordgo.ComponentEmoji{Name: "🃏"}})
		}
		rows = append(rows, discordgo.ActionsRow{Components: bs})
	}
	if quick {
		rows = quickComponents(rows)
	}
	return &discordgo.InteractionResponse{Type: 7, Data: &discordgo.InteractionResponseData{
		Content: "▶ Alice's turn. Bob draws 🟪6.", Components: rows,
		Embeds: []*discordgo.MessageEmbed{{Title: "DIX", Description: "Alice 12 · Bob 9", Image: &discordgo.MessageEmbedImage{URL: "attachment://board.png"}}}}}
}

func BenchmarkMarshalBoardAnswer(b *testing.B) {
	for _, quick := range []bool{false, true} {
		name := "discordgo"
		if quick {
			name = "quick"
		}
		b.Run(name, func(b *testing.B) {
			v := boardAnswer(quick)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := json.Marshal(v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// FuzzQuickRow: a row of buttons of any labels, ids and emoji, written by
// hand, is the bytes discordgo's methods give; appendString writes any
// string as encoding/json does.
func FuzzQuickRow(f *testing.F) {
	f.Add("Bid 7", "dix:mv:1:draw:17", "🟦", uint8(3), uint8(1))
	f.Add("<a & b>", "\xff\u2028", "", uint8(6), uint8(0))
	f.Fuzz(func(t *testing.T, label, id, emoji string, style, n uint8) {
		want, err := json.Marshal(label + id + emoji)
		require.NoError(t, err)
		require.Equal(t, string(want), string(appendString(nil, label+id+emoji)))
		var row discordgo.ActionsRow
		for i := range int(n % 6) {
			bt := discordgo.Button{Label: label, CustomID: id, Style: discordgo.ButtonStyle(style % 7), Disabled: i%2 == 0}
			if emoji != "" {
				bt.Emoji = &discordgo.ComponentEmoji{Name: emoji, ID: id[:min(len(id), i)], Animated: i == 1}
			}
			if i == 3 {
				bt.URL, bt.CustomID = id, ""
			}
			row.Components = append(row.Components, bt)
		}
		want, err = json.Marshal(row)
		require.NoError(t, err)
		got, err := quickRow{row}.MarshalJSON()
		require.NoError(t, err)
		require.Equal(t, string(want), string(got))
	})
}
