package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dixgame/dixbot/internal/discordapi"
)

// The close code of a gateway connection is read from the server's close
// frame, after frames of every length encoding (7-bit, 16-bit and 64-bit
// lengths, RFC 6455 section 5.2), over ws:// and wss://.
func TestCloseWatchReadsTheCloseCode(t *testing.T) {
	sizes := []int{0, 10, 125, 126, 200, 65535, 70000}
	handler := func(code int) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ws, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
			if err != nil {
				return
			}
			defer ws.Close()
			for _, n := range sizes {
				if ws.WriteMessage(websocket.TextMessage, []byte(strings.Repeat("x", n))) != nil {
					return
				}
			}
			_ = ws.WriteMessage(websocket.PingMessage, []byte("4000"))
			if code == 0 {
				return // the connection drops without a close frame
			}
			_ = ws.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(code, "Sharding required."))
			_, _, _ = ws.ReadMessage()
		})
	}
	for _, tc := range []struct {
		name string
		tls  bool
		code int
		take bool // interactions taken out of the stream (none here)
	}{
		{"ws 4011", false, 4011, false},
		{"wss 4004", true, 4004, false},
		{"ws without a close frame", false, 0, false},
		{"ws 4011, frames held", false, 4011, true},
		{"wss 4004, frames held", true, 4004, true},
		{"ws without a close frame, frames held", false, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var srv *httptest.Server
			var w closeWatch
			if tc.take {
				w.take = func([]byte, *discordgo.InteractionCreate) { t.Error("nothing to take") }
			}
			if tc.tls {
				srv = httptest.NewTLSServer(handler(tc.code))
				w.roots = srv.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
			} else {
				srv = httptest.NewServer(handler(tc.code))
			}
			defer srv.Close()
			w.code.Store(4999) // a previous connection's code
			url := "ws" + strings.TrimPrefix(srv.URL, "http")
			ws, _, err := w.dialer().Dial(url, nil)
			require.NoError(t, err)
			defer ws.Close()
			assert.Equal(t, 0, w.Code(), "a new connection has no code yet")
			for _, n := range sizes {
				_, b, err := ws.ReadMessage()
				require.NoError(t, err)
				require.Len(t, b, n)
			}
			_, _, err = ws.ReadMessage()
			require.Error(t, err)
			var ce *websocket.CloseError
			if tc.code != 0 {
				require.True(t, errors.As(err, &ce), "%v", err)
				assert.Equal(t, tc.code, ce.Code)
			}
			assert.Equal(t, tc.code, w.Code())
		})
	}
}

// wsFrame is a websocket frame as a server writes it (RFC 6455 section
// 5.2): fin, the opcode, the payload's length in the shortest encoding
// or the one given (126: 16 bits, 127: 64 bits), unmasked unless mask.
func wsFrame(fin bool, opcode byte, payload []byte, lenCode int, mask bool) []byte {
	b0 := opcode
	if fin {
		b0 |= 0x80
	}
	out := []byte{b0}
	var m byte
	if mask {
		m = 0x80
	}
	n := len(payload)
	if lenCode == 0 {
		switch {
		case n < 126:
			lenCode = n
		case n < 1<<16:
			lenCode = 126
		default:
			lenCode = 127
		}
	}
	switch lenCode {
	case 126:
		out = append(out, m|126, byte(n>>8), byte(n))
	case 127:
		out = append(out, m|127)
		for i := 7; i >= 0; i-- {
			out = append(out, byte(n>>(8*i)))
		}
	default:
		out = append(out, m|byte(n))
	}
	if mask {
		out = append(out, 0, 0, 0, 0) // a zero key leaves the payload as it is
	}
	return append(out, payload...)
}

// chunkConn serves a byte stream in reads of 1 to 64 bytes, then err.
type chunkConn struct {
	net.Conn
	data []byte
	rng  *rand.Rand
	err  error
}

func (c *chunkConn) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, c.err
	}
	n := min(len(p), len(c.data), 1+c.rng.IntN(64))
	copy(p, c.data[:n])
	c.data = c.data[n:]
	return n, nil
}

// An interaction's dispatch is taken out of the stream whole, its "d" to
// take and a dispatch of the same sequence number with a null "d" in its
// place; every other frame, and a frame cut by the connection's end,
// reaches the reader byte for byte, however the bytes come in.
func TestFrameReaderTakesInteractions(t *testing.T) {
	t.Parallel()
	click := `{"id":"1","type":3,"token":"t","data":{"custom_id":"dix:mv:1:pass"},"message":{"content":"` + strings.Repeat("é", 2000) + `"}}`
	small := `{"id":"2","type":2,"data":{"name":"dix"}}`
	dispatch := func(seq int, t, d string) []byte {
		return []byte(fmt.Sprintf(`{"t":%q,"s":%d,"op":0,"d":%s}`, t, seq, d))
	}
	stand := func(seq int) []byte {
		return []byte(fmt.Sprintf(`{"op":0,"s":%d,"t":"INTERACTION_CREATE","d":null}`, seq))
	}
	upgrade := []byte("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
	type part struct {
		in, want []byte
		took     string
	}
	parts := []part{
		{in: upgrade},
		{in: wsFrame(true, websocket.TextMessage, []byte(`{"op":10,"d":{"heartbeat_interval":41250},"s":null,"t":null}`), 0, false)},
		{in: wsFrame(true, websocket.TextMessage, dispatch(5, "INTERACTION_CREATE", click), 0, false), want: wsFrame(true, websocket.TextMessage, stand(5), 0, false), took: click},
		{in: wsFrame(true, websocket.TextMessage, dispatch(6, "INTERACTION_CREATE", small), 0, false), want: wsFrame(true, websocket.TextMessage, stand(6), 0, false), took: small},
		{in: wsFrame(true, websocket.TextMessage, dispatch(7, "MESSAGE_CREATE", small), 0, false)},
		{in: wsFrame(true, websocket.TextMessage, dispatch(7, "MESSAGE_CREATE", `{"INTERACTION_CREATE":1}`), 0, false)},
		// Left as they are: another key, a "d" that is no object, malformed JSON.
		{in: wsFrame(true, websocket.TextMessage, []byte(`{"t":"INTERACTION_CREATE","s":8,"op":0,"d":`+small+`,"x":1}`), 0, false)},
		{in: wsFrame(true, websocket.TextMessage, dispatch(9, "INTERACTION_CREATE", `null`), 0, false)},
		{in: wsFrame(true, websocket.TextMessage, dispatch(10, "INTERACTION_CREATE", `{"id":}`), 0, false)},
		// Frames not held: a fragment, a binary frame, a masked one, a 64-bit length, a ping.
		{in: wsFrame(false, websocket.TextMessage, dispatch(11, "INTERACTION_CREATE", small)[:20], 0, false)},
		{in: wsFrame(true, 0, dispatch(11, "INTERACTION_CREATE", small)[20:], 0, false)},
		{in: wsFrame(true, websocket.BinaryMessage, dispatch(12, "INTERACTION_CREATE", small), 0, false)},
		{in: wsFrame(true, websocket.TextMessage, dispatch(13, "INTERACTION_CREATE", small), 0, true)},
		{in: wsFrame(true, websocket.TextMessage, dispatch(14, "INTERACTION_CREATE", small), 127, false)},
		{in: wsFrame(true, websocket.PingMessage, []byte("p"), 0, false)},
		// 16-bit length for a short payload, and one past the 7-bit lengths.
		{in: wsFrame(true, websocket.TextMessage, dispatch(15, "INTERACTION_CREATE", small), 126, false), want: wsFrame(true, websocket.TextMessage, stand(15), 0, false), took: small},
		{in: wsFrame(true, websocket.CloseMessage, []byte{0x0f, 0xa4, 'x'}, 0, false)},
	}
	for seed := range uint64(20) {
		var in, want []byte
		var wantTaken []string
		for _, p := range parts {
			in = append(in, p.in...)
			if p.want != nil {
				want = append(want, p.want...)
				wantTaken = append(wantTaken, p.took)
			} else {
				want = append(want, p.in...)
			}
		}
		cut := seed%4 == 3 // the connection ends inside the first interaction's frame
		if cut {
			end := len(upgrade) + len(parts[1].in) + 100
			in, want, wantTaken = in[:end], append([]byte(nil), in[:end]...), nil
		}
		got, taken, w := readTaking(t, in, rand.New(rand.NewPCG(seed, 3)), true)
		require.Equal(t, string(want), string(got), "seed %d", seed)
		require.Equal(t, wantTaken, taken)
		if !cut {
			require.Equal(t, 4004, w.Code())
		}
	}
}

// A gateway that takes interactions out of the stream asks for text
// frames (no compress in IDENTIFY) and gives each connection its taker;
// without one, discordgo's default stays.
func TestGatewayTakesTextFrames(t *testing.T) {
	if gatewayProxied() {
		t.Skip("the sessions keep discordgo's dialer behind a proxy")
	}
	for _, take := range []bool{true, false} {
		s, err := discordgo.New("Bot x")
		require.NoError(t, err)
		gw := &gateway{}
		if take {
			gw.take = func(*discordgo.Session, []byte, *discordgo.InteractionCreate) {}
		}
		sh := gw.prepare([]*discordgo.Session{s})
		require.Len(t, sh, 1)
		require.Equal(t, !take, s.Identify.Compress)
		require.Equal(t, take, sh[0].watch.take != nil)
	}
}

// fuzzFrames turns data into a gateway's byte stream: the HTTP upgrade's
// answer, then frames, each from a control byte (FIN, opcode, mask,
// length encoding, payload kind), a length byte and a payload: bytes of
// data, or a dispatch of an interaction of the stand-in's, whole or cut.
// It returns the stream and each frame's bytes.
func fuzzFrames(data []byte, dispatches [][]byte) (stream []byte, frames [][]byte) {
	stream = []byte("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
	opcodes := [4]byte{websocket.TextMessage, websocket.TextMessage, 0, websocket.BinaryMessage}
	for len(data) >= 2 {
		c, l := data[0], int(data[1])
		data = data[2:]
		var payload []byte
		switch c >> 6 {
		case 0, 1: // bytes of data
			l = min(l, len(data))
			payload, data = data[:l], data[l:]
		default: // a dispatch, cut after l bytes when c's bit 5 is set
			payload = dispatches[l%len(dispatches)]
			if c&0x20 != 0 {
				payload = payload[:min(len(payload), l)]
			}
		}
		lenCode := [4]int{0, 0, 126, 127}[c>>3&3]
		f := wsFrame(c&1 == 0, opcodes[c>>1&3], payload, lenCode, c&0x04 != 0)
		stream = append(stream, f...)
		frames = append(frames, f)
	}
	return stream, frames
}

// Whatever the frames and however their bytes come, each frame reaches
// discordgo as it came, or, for an interaction's dispatch held whole,
// as a dispatch of the same sequence number with a null "d"; the "d"
// taken is encoding/json's reading of that frame's, and the interaction
// taken with it DecodeInteraction's. The stream may end inside a frame.
func FuzzFrameReader(f *testing.F) {
	var dispatches [][]byte
	for _, p := range fuzzPayloads(f) {
		dispatches = append(dispatches, []byte(`{"t":"INTERACTION_CREATE","s":7,"op":0,"d":`+string(p)+`}`))
	}
	dispatches = append(dispatches, []byte(`{"op":0,"s":3,"t":"MESSAGE_CREATE","d":{"INTERACTION_CREATE":1}}`))
	f.Add([]byte{0x80, 0, 0x90, 1, 0, 3, 'a', 'b', 'c', 0xc0, 2}, uint64(1), uint16(0))
	f.Add([]byte{0x80, 5, 0x81, 1, 0x00, 4, 'a', 'b', 'c', 'd', 0xe0, 30, 0x84, 3}, uint64(2), uint16(200))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64, cut uint16) {
		in, frames := fuzzFrames(data, dispatches)
		if int(cut) > 0 && int(cut) < len(in) {
			in = in[:len(in)-int(cut)]
		}
		got, taken, _ := readTaking(t, in, rand.New(rand.NewPCG(seed, 5)), false)

		// Walk the input frames and what came out side by side.
		upgrade := strings.Index(string(in), "\r\n\r\n")
		if upgrade < 0 {
			require.Equal(t, string(in), string(got))
			require.Empty(t, taken)
			return
		}
		at := upgrade + 4
		require.Equal(t, string(in[:at]), string(got[:at]))
		rest, out := in[at:], got[at:]
		for _, fb := range frames {
			if len(rest) == 0 {
				break
			}
			if len(rest) < len(fb) { // the stream ends inside this frame
				require.Equal(t, string(rest), string(out))
				out = out[len(out):]
				break
			}
			rest = rest[len(fb):]
			if len(out) >= len(fb) && string(out[:len(fb)]) == string(fb) {
				out = out[len(fb):]
				continue
			}
			// Taken: the frame was a whole unmasked text frame, an
			// INTERACTION_CREATE dispatch as encoding/json reads it.
			require.NotEmpty(t, taken, "frame changed without a take")
			d := taken[0]
			taken = taken[1:]
			require.True(t, holdable(fb), "a frame not held was changed")
			var e discordgo.Event
			require.NoError(t, json.Unmarshal(fb[headerLen(fb):], &e))
			require.Equal(t, 0, e.Operation)
			require.Equal(t, interactionCreate, e.Type)
			require.Equal(t, string(e.RawData), d)
			stand := fmt.Sprintf(`{"op":0,"s":%d,"t":"INTERACTION_CREATE","d":null}`, e.Sequence)
			want := wsFrame(true, websocket.TextMessage, []byte(stand), 0, false)
			require.GreaterOrEqual(t, len(out), len(want))
			require.Equal(t, string(want), string(out[:len(want)]))
			out = out[len(want):]
		}
		require.Empty(t, out, "bytes beyond the frames")
		require.Empty(t, taken, "more taken than frames changed")
	})
}

// fuzzPayloads are the stand-in's interactions kept for the API's tests.
func fuzzPayloads(t testing.TB) [][]byte {
	files, err := filepath.Glob("../discordapi/testdata/interactions/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var out [][]byte
	for _, name := range files {
		b, err := os.ReadFile(name)
		require.NoError(t, err)
		out = append(out, b)
	}
	return out
}

// readTaking reads the byte stream in through a frameReader that takes
// interactions, in reads of 1 to 64 bytes drawn from rng, and returns what
// discordgo reads, the "d" of each interaction taken, and the watch. The
// interaction read with each "d" is DecodeInteraction's of it; with read,
// it must have been read (not left to be decoded).
func readTaking(t *testing.T, in []byte, rng *rand.Rand, read bool) ([]byte, []string, *closeWatch) {
	t.Helper()
	var taken []string
	w := &closeWatch{take: func(d []byte, ic *discordgo.InteractionCreate) {
		taken = append(taken, string(d))
		if ic != nil || read {
			want, err := discordapi.DecodeInteraction(d)
			require.NoError(t, err)
			require.Equal(t, want, ic)
		}
	}}
	f, err := w.wrap(&chunkConn{data: in, rng: rng, err: io.EOF})
	require.NoError(t, err)
	got, err := io.ReadAll(f)
	require.NoError(t, err)
	return got, taken, w
}
