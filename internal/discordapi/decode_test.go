package discordapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"
)

// payloads are the interactions the Discord stand-in dispatched in games
// of DIX, Qwixx and Dixxit (testdata/interactions): commands, clicks on
// boards with and without pictures, select menus and a form.
func payloads(t testing.TB) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob("testdata/interactions/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	out := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		out[filepath.Base(f)] = b
	}
	return out
}

// messagesOf returns the messages the payloads carry, as Discord sends
// a message.
func messagesOf(t testing.TB, ps map[string][]byte) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for name, p := range ps {
		var v struct {
			Message json.RawMessage `json:"message"`
		}
		require.NoError(t, json.Unmarshal(p, &v))
		if len(v.Message) > 0 {
			out[name] = v.Message
		}
	}
	require.NotEmpty(t, out)
	return out
}

// stdInteraction decodes b as discordgo does on the gateway.
func stdInteraction(b []byte) (*discordgo.InteractionCreate, error) {
	var ic discordgo.InteractionCreate
	err := json.Unmarshal(b, &ic)
	return &ic, err
}

// sameAs checks that a decoding of b gave what encoding/json gives:
// the same value, and the same refusal.
func sameAs(t *testing.T, b []byte, want, got any, wantErr, err error) {
	t.Helper()
	if wantErr != nil {
		require.Error(t, err, "%s", b)
		require.Equal(t, wantErr.Error(), err.Error())
	} else {
		require.NoError(t, err, "%s", b)
	}
	require.Equal(t, want, got, "%s", b)
}

// sameInteraction checks that DecodeInteraction gives what encoding/json
// gives, value and refusal.
func sameInteraction(t *testing.T, b []byte) {
	t.Helper()
	want, wantErr := stdInteraction(b)
	got, err := DecodeInteraction(b)
	sameAs(t, b, want, got, wantErr, err)
}

func sameMessage(t *testing.T, b []byte) {
	t.Helper()
	var want, got discordgo.Message
	wantErr := json.Unmarshal(b, &want)
	err := DecodeMessage(b, &got)
	sameAs(t, b, want, got, wantErr, err)
}

// The stand-in's interactions decode to what encoding/json gives, and the
// decoding takes them in one pass (no fall back to encoding/json).
func TestDecodeInteractionAsDiscordgo(t *testing.T) {
	t.Parallel()
	for name, p := range payloads(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sameInteraction(t, p)
			_, err := fastInteraction(p)
			require.NoError(t, err, "decoded in one pass")
			ic, err := DecodeInteraction(p)
			require.NoError(t, err)
			require.NotNil(t, ic.Interaction)
			require.NotEmpty(t, ic.ID)
			if ic.Message != nil {
				require.NotEmpty(t, ic.Message.Components, "the message's buttons")
			}
		})
	}
}

func TestDecodeMessageAsDiscordgo(t *testing.T) {
	t.Parallel()
	for name, m := range messagesOf(t, payloads(t)) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sameMessage(t, m)
		})
	}
	for _, c := range []string{``, `null`, `{}`, `{} `, "{}\x00", "{\"id\":\"1\"}\t\x00", "\x00{}", `{}x`} {
		sameMessage(t, []byte(c))
	}
}

// swaps are the bytes put in the place of others to mangle JSON.
const swaps = `{}[]":,0123456789-.etnaulx\ `

func sameMessages(t *testing.T, b []byte) {
	t.Helper()
	var want []*discordgo.Message
	wantErr := json.Unmarshal(b, &want)
	got, err := decodeMessages(b)
	sameAs(t, b, want, got, wantErr, err)
}

// A channel's messages, as GET .../messages lists them: the same as
// encoding/json, mangled or not.
func TestDecodeMessagesAsDiscordgo(t *testing.T) {
	t.Parallel()
	var list [][]byte
	for _, m := range messagesOf(t, payloads(t)) {
		list = append(list, m)
	}
	all := []byte("[" + string(bytes.Join(list, []byte(","))) + "]")
	sameMessages(t, all)
	got, err := fastMessages(all)
	require.NoError(t, err, "decoded in one pass")
	require.Len(t, got, len(list))
	for _, c := range []string{`[]`, `null`, `[null]`, `[{}, null, {"id":"1"}]`, `[{"components":[{"type":99}]}]`, `[1]`, `{}`, `[`, ``} {
		sameMessages(t, []byte(c))
	}
	rng := rand.New(rand.NewPCG(9, 9))
	for range 100 {
		b := append([]byte(nil), all...)
		b[rng.IntN(len(b))] = swaps[rng.IntN(len(swaps))]
		sameMessages(t, b)
	}
}

// Odd but valid JSON, and malformed input: the same value and the same
// error as encoding/json, and no panic.
func TestDecodeInteractionOddInput(t *testing.T) {
	t.Parallel()
	button := string(payloads(t)["button-dix-10.json"])
	cases := []string{
		``, ` `, `null`, `{}`, `[]`, `"x"`, `1`, `{`, `}`, `{"id":}`, `{"id":"1"`, `{"id":"1"}x`,
		"{}\x00", "{\"id\":\"1\"} \x00", "\x00{}", // a NUL byte is no white space
		`{"id":"1","type":3}`,                 // a component without data
		`{"id":"1","type":3,"data":null}`,     // null data
		`{"id":"1","type":2,"data":"x"}`,      // data of the wrong type
		`{"id":"1","type":99,"data":{"a":1}}`, // a type discordgo does not know
		`{"id":"1","type":3,"data":{},"message":null}`,
		`{"id":"1","type":3,"data":{},"message":{}}`,
		`{"id":"1","type":3,"data":{},"message":{"components":null}}`,
		`{"id":"1","type":3,"data":{},"message":{"components":[]}}`,
		`{"id":"1","type":3,"data":{},"message":{"components":[null]}}`,
		`{"id":"1","type":3,"data":{},"message":{"components":[{}]}}`,
		`{"id":"1","type":3,"data":{},"message":{"components":[{"type":42}]}}`,
		`{"id":"1","type":3,"data":{},"message":{"components":[{"type":1,"components":[{"type":2,"style":"x"}]}]}}`,
		`{"id":"1","type":3,"data":{},"message":{"components":[{"type":1,"components":[{"type":10,"content":"t"}]}]}}`,
		`{"id":"1","type":3,"data":{},"message":{"components":[{"type":9,"components":[{"type":10,"content":"t"}],"accessory":{"type":2,"label":"b"}}]}}`,
		`{"id":"1","type":3,"data":{},"message":{"components":[{"type":17,"components":[{"type":1,"components":[]}]}]}}`,
		`{"ID":"1","TYPE":3,"Data":{"Custom_ID":"a"},"Message":{"ID":"2"}}`, // keys in another case
		`{"id":"1","id":"2","type":3,"data":{"custom_id":"a"}}`,             // a key twice
		`{"id":"1","type":3,"app_permissions":"12","data":{}}`,
		`{"id":"1","type":3,"app_permissions":12,"data":{}}`, // a number, not a string
		`{"id":"1","type":"3","data":{}}`,
		`{"id":"1","type":-3,"data":{}}`,
		`{"id":"1","type":3,"data":{},"member":{"user":{"id":"u"},"joined_at":"not a time"}}`,
		`{"id":"1","type":3,"data":{},"message":{"timestamp":"2026-12-02T08:13:45.205640+00:00","edited_timestamp":null}}`,
		`{"id":"\ud800","type":3,"data":{"custom_id":"\u00e9\ufffd"}}`,
		"{\"id\":\"\xff\xfe\",\"type\":3,\"data\":{}}", // invalid UTF-8
		`{"id":"1","type":2,"data":{"name":"dix","options":[{"name":"a","type":4,"value":1e3}]}}`,
		`{"id":"1","type":5,"data":{"custom_id":"m","components":[{"type":1,"components":[{"type":4,"custom_id":"text","value":"v"}]}]}}`,
		`{"id":"1","type":5,"data":{"custom_id":"m","components":[{"type":99}]}}`,
		// What the hand reader takes, gives up on or refuses, against encoding/json.
		`{"id":"1","type":3,"data":{"custom_id":"a\u00e9\n\"\\\/\b\f\r\t"},"message":{"content":"\u003ct:1:R\u003e"}}`,
		`{"id":"1","type":3,"data":{"custom_id":"\ud83c\udccf"}}`,
		`{"id":"1","type":3,"data":{"custom_id":"\u12"}}`,
		`{"id":"1","type":3,"data":{"custom_id":"\x"}}`,
		"{\"id\":\"a\tb\",\"type\":3,\"data\":{}}",
		"{\"id\":\"1\",\"type\":3,\"data\":{\"custom_id\":\"\u00e9\xff\"}}",
		`{"id":"1","type":3,"data":{},"message":{"Embeds":[]}}`,
		`{"id":"1","type":3,"data":{},"message":{"id":"1","id":"2"}}`,
		`{"id":"1","type":3,"data":{},"message":{"embeds":[{"color":1e3}]}}`,
		`{"id":"1","type":3,"data":{},"message":{"embeds":[{"color":1.0}]}}`,
		`{"id":"1","type":3,"data":{},"message":{"embeds":[{"color":0123}]}}`,
		`{"id":"1","type":3,"data":{},"message":{"embeds":[{"color":-0}]}}`,
		`{"id":"1","type":3,"data":{},"message":{"embeds":[{"color":99999999999999999999}]}}`,
		`{"id":"1","type":3,"data":{},"message":{"embeds":null,"components":null,"mention_roles":null}}`,
		`{"id":"1","type":3,"data":{},"message":{"embeds":[null,{"fields":[null,{"name":null,"inline":null}],"footer":null,"image":null}]}}`,
		`{"id":"1","type":3,"data":{},"message":{"embeds":[{"footer":{"text":"t","x":[1,{"y":null}]},"image":{"url":"u","width":-1,"height":"2"}}]}}`,
		`{"id":"1","type":3,"data":{},"message":{"embeds":[{"thumbnail":{"url":"u"},"author":{"name":"a"},"fields":[{"name":"n","value":"v","inline":true}]}]}}`,
		`{"id":"1","type":3,"data":{},"message":{"flags":1.5}}`,
		`{"id":"1","type":3,"data":{},"message":{"timestamp":null,"edited_timestamp":3}}`,
		`{"id":"1","type":3,"data":{},"message":{"timestamp":"2026-12-02T08:13:45Z","edited_timestamp":"yesterday"}}`,
		`{"id":"1","type":3,"data":{},"message":{"author":{"id":"2","bot":true},"mentions":[],"interaction":{"id":"3","type":2,"name":"dix start"}}}`,
		`{"id":"1","type":3,"data":{},"message":{"components":[{"type":1,"components":[{"type":-2}]}]}}`,
		`{"id":"1","type":3,"data":{},"message":{"components":[{"type":1,"components":[{"type":3,"custom_id":"s","options":[null,{"label":"a","value":"b","default":true,"emoji":{"name":"x"}}],"min_values":0,"max_values":2}]}]}}`,
		`{"id":"1","type":3,"data":{},"message":{"components":[{"type":1,"components":[{"type":2,"custom_id":"b","emoji":{"name":"x"},"disabled":true,"url":"u","Label":"l"}]}]}}`,
		`{"id":"1","type":3,"data":{"custom_id":"s","component_type":3,"values":["a",null]}}`,
		`{"id":"1","type":3,"data":{"custom_id":"s","component_type":3,"values":[1]}}`,
		`{"id":"1","type":3,"data":{"custom_id":"s","component_type":-3}}`,
		`{"id":"1","type":3,"data":{"custom_id":"s","Custom_id":"t"}}`,
		`{"id":"1","type":3,"data":{"custom_id":"s","resolved":{"users":{"1":{"id":"1"}}}}}`,
		`{"id":"1","type":3,"app_permissions":" 12","data":{}}`,
		`{"id":"1","type":3,"app_permissions":"012","data":{}}`,
		`{"id":"1","type":3,"app_permissions":"-0","data":{}}`,
		`{"id":"1","type":3,"app_permissions":null,"data":{}}`,
		`{"id":"1","type":3,"guild_locale":null,"locale":null,"version":null,"data":{}}`,
		`{"id":"1","type":256,"data":{}}`,
		`{"id":"1","type":1}`,
		`{"id":"1","type":3,"data":{},"x":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}`,
		`{"id":"1","type":3,"data":{},"x":[1,-2.5e+3,true,false,null,"\u0041"],"y":{}}`,
		`{"id":"1","type":3,"data":{},"x":01}`,
		`{"id":"1","type":3,"data":{},"x":-}`,
		`{"id":"1","type":3,"data":{},"x":1.}`,
		`{"id":"1","type":3,"data":{},"x":"\u00zz"}`,
		`{"id":"1","type":3,"data":{},"x":tru}`,
		`{"id":"1","type":3,"data":{},"x":[1,]}`,
		`{"id":"1","type":3,"data":{},"x":{"a":1,}}`,
		` {"id":"1","type":3,"data":{}} `,
		`{"id":"1","type":3,"data":{}} {}`,
		`{"id":"1","type":3,"data":{},"member":{"user":null,"roles":["a"],"permissions":null,"nick":"n","avatar":"x","pending":true,"premium_since":null}}`,
		`{"id":"1","type":3,"data":{},"member":{"user":{"id":"u","bot":1},"permissions":"x"}}`,
		`{"id":"1","type":3,"data":{},"member":{"user":{"id":"u","public_flags":64,"ID":"v"},"permissions":7}}`,
		`{"id":"1","type":3,"data":{},"user":{"id":"u","username":"\u00c9lodie","global_name":null},"member":null}`,
		`{"id":"1","type":3,"data":{},"message":{"author":null,"interaction":{"id":"2","type":300}}}`,
		`{"id":"1","type":3,"data":{},"message":{"interaction":{"id":"2","type":2,"user":{"id":"3"},"member":{"nick":"m"}},"mentions":[],"attachments":[],"reactions":null}}`,
		button[:len(button)/2],
		button + `,`,
		strings.Replace(button, `"components":[`, `"components":[1,`, 1),
		strings.Replace(button, `"embeds":[`, `"embeds":[7,`, 1),
	}
	for i, c := range cases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			sameInteraction(t, []byte(c))
		})
	}
}

// Every payload with bytes changed here and there (a byte removed, one
// replaced by a JSON delimiter, a digit or a letter): the same value and
// error as encoding/json.
func TestDecodeInteractionMangled(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(42, 7))
	ps := payloads(t)
	msgs := messagesOf(t, ps)
	for name, p := range ps {
		seed := rng.Uint64()
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(seed, 1))
			m := msgs[name]
			for range 150 {
				b := append([]byte(nil), p...)
				for range 1 + rng.IntN(2) {
					at := rng.IntN(len(b))
					if rng.IntN(3) == 0 {
						b = append(b[:at], b[at+1:]...)
					} else {
						b[at] = swaps[rng.IntN(len(swaps))]
					}
				}
				sameInteraction(t, b)
				if len(m) > 0 {
					b := append([]byte(nil), m...)
					at := rng.IntN(len(b))
					b[at] = swaps[rng.IntN(len(swaps))]
					sameMessage(t, b)
				}
			}
		})
	}
}

func FuzzDecodeInteraction(f *testing.F) {
	for _, p := range payloads(f) {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		sameInteraction(t, b)
	})
}

// BenchmarkDecodeInteraction decodes a click on a board (its picture,
// two rows of buttons), a choice in a select menu of 15 options and a
// command, discordgo's way and this package's.
func BenchmarkDecodeInteraction(b *testing.B) {
	ps := payloads(b)
	for _, name := range []string{"button-dix-11.json", "select-dix-17.json", "cmd-dix-00.json"} {
		p := ps[name]
		b.Run(name+"/discordgo", func(b *testing.B) {
			b.SetBytes(int64(len(p)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := stdInteraction(p); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/fast", func(b *testing.B) {
			b.SetBytes(int64(len(p)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := DecodeInteraction(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDecodeMessage decodes a board message as Discord returns it.
func BenchmarkDecodeMessage(b *testing.B) {
	m := messagesOf(b, payloads(b))["button-dix-11.json"]
	b.Run("discordgo", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var msg discordgo.Message
			if err := json.Unmarshal(m, &msg); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var msg discordgo.Message
			if err := DecodeMessage(m, &msg); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// The stand-in's interactions are read by hand in one pass (scanner),
// without falling back to the decoders that check it.
func TestScanInteractionTakesThePayloads(t *testing.T) {
	t.Parallel()
	for name, p := range payloads(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, ok := scanInteraction(p)
			if strings.Contains(name, "modal") {
				require.False(t, ok, "a form's data is encoding/json's")
				return
			}
			require.True(t, ok)
			want, err := stdInteraction(p)
			require.NoError(t, err)
			require.Equal(t, want, got)
		})
	}
	for name, m := range messagesOf(t, payloads(t)) {
		t.Run("message "+name, func(t *testing.T) {
			t.Parallel()
			got, ok := scanMessage(m)
			require.True(t, ok)
			var want discordgo.Message
			require.NoError(t, json.Unmarshal(m, &want))
			require.Equal(t, &want, got)
		})
	}
}

// A dispatch's envelope is read, and its "d" with it: as the interaction
// DecodeInteraction gives, in whichever order the keys come, or left to
// DecodeInteraction where the reader gives up on it.
func TestDispatch(t *testing.T) {
	t.Parallel()
	for name, p := range payloads(t) {
		want, err := DecodeInteraction(p)
		require.NoError(t, err)
		for _, frame := range []string{
			`{"t":"INTERACTION_CREATE","s":42,"op":0,"d":` + string(p) + `}`,
			`{"d": ` + string(p) + ` ,"op":0,"s":42,"t":"INTERACTION_CREATE"}`,
		} {
			op, seq, typ, d, ic, ok := Dispatch([]byte(frame), true)
			require.True(t, ok, name)
			require.Equal(t, 0, op)
			require.Equal(t, int64(42), seq)
			require.Equal(t, "INTERACTION_CREATE", typ)
			require.Equal(t, string(p), string(d), name)
			if strings.Contains(name, "modal") {
				require.Nil(t, ic, "a form's data is encoding/json's")
			} else {
				require.Equal(t, want, ic, name)
			}
			_, _, _, d, ic, ok = Dispatch([]byte(frame), false)
			require.True(t, ok)
			require.Equal(t, string(p), string(d))
			require.Nil(t, ic, "not read without interaction")
		}
	}

	// A "d" the reader gives up on is still returned, checked as JSON.
	odd := `{"id":"1","id":"2","type":3,"data":{}}`
	_, _, _, d, ic, ok := Dispatch([]byte(`{"op":0,"t":"INTERACTION_CREATE","d":`+odd+`}`), true)
	require.True(t, ok)
	require.Equal(t, odd, string(d))
	require.Nil(t, ic)

	op, seq, typ, d, ic, ok := Dispatch([]byte(` {"op":11,"s":null,"t":null,"d":null} `), true)
	require.True(t, ok)
	require.Equal(t, 11, op)
	require.Zero(t, seq)
	require.Empty(t, typ)
	require.Equal(t, []byte("null"), d)
	require.Nil(t, ic)

	for _, c := range []string{
		``, `null`, `[]`, `{}`, `{"s":1,"t":"X","d":{}}`, // no op
		`{"op":0,"op":0}`, `{"op":0,"x":1}`, `{"op":"0"}`, `{"op":0,"s":-1}`, `{"op":0,"t":1}`,
		`{"op":0,"d":{"a":}}`, `{"op":0,"d":{}`, `{"op":0} x`, `{"Op":0}`, `{"op":0,"s":1.5}`,
		`{"op":0,"d":{"id":"1","type":3,"data":{}}`, `{"op":0,"d":{"id":"1","type":3,"data":{}},}`,
		"{\"op\":0}\x00", "{\"op\":0,\"d\":{\"id\":\"1\",\"type\":3,\"data\":{}}} \x00",
	} {
		_, _, _, _, _, ok := Dispatch([]byte(c), true)
		require.False(t, ok, "%s", c)
	}
}

// sameDispatch checks Dispatch against encoding/json's reading of the
// envelope into discordgo's Event, which the gateway's handler would
// otherwise do: where Dispatch takes a payload, encoding/json reads it
// too, to the same op, sequence, type and "d" byte for byte, and the
// interaction read with it is DecodeInteraction's of that "d".
func sameDispatch(t *testing.T, b []byte) {
	t.Helper()
	op, seq, typ, d, ic, ok := Dispatch(b, true)
	if !ok {
		return // the payload goes to discordgo as it came
	}
	var want discordgo.Event
	require.NoError(t, json.Unmarshal(b, &want), "%s", b)
	require.Equal(t, want.Operation, op, "%s", b)
	require.Equal(t, want.Sequence, seq, "%s", b)
	require.Equal(t, want.Type, typ, "%s", b)
	require.Equal(t, string(want.RawData), string(d), "%s", b)
	if ic != nil {
		wantIC, err := DecodeInteraction(d)
		require.NoError(t, err, "%s", b)
		require.Equal(t, wantIC, ic, "%s", b)
	}
	_, _, _, d2, ic2, ok2 := Dispatch(b, false)
	require.True(t, ok2, "%s", b)
	require.Equal(t, string(d), string(d2), "%s", b)
	require.Nil(t, ic2)
}

// Gateway payloads of every stand-in interaction, mangled: Dispatch takes
// only what encoding/json reads the same way.
func TestDispatchMangled(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(4, 2))
	for _, p := range payloads(t) {
		frame := []byte(`{"t":"INTERACTION_CREATE","s":42,"op":0,"d":` + string(p) + `}`)
		sameDispatch(t, frame)
		for range 150 {
			b := append([]byte(nil), frame...)
			b[rng.IntN(len(b))] = swaps[rng.IntN(len(swaps))]
			sameDispatch(t, b)
		}
	}
}

func FuzzDispatch(f *testing.F) {
	for _, p := range payloads(f) {
		f.Add([]byte(`{"t":"INTERACTION_CREATE","s":42,"op":0,"d":` + string(p) + `}`))
	}
	f.Add([]byte(`{"op":11,"s":null,"t":null,"d":null}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		sameDispatch(t, b)
	})
}

func FuzzDecodeMessage(f *testing.F) {
	for _, m := range messagesOf(f, payloads(f)) {
		f.Add(m)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		sameMessage(t, b)
	})
}
