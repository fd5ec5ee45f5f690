package app

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/binary"
	"errors"
	"net"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"github.com/dixgame/dixbot/internal/discordapi"
)

// closeWatch keeps the code of the last close frame Discord sent on a
// gateway session's connections: discordgo reads it but hands over only a
// Disconnect event, and the code says whether reconnecting can help
// (https://discord.com/developers/docs/topics/opcodes-and-status-codes#gateway-gateway-close-event-codes).
type closeWatch struct {
	code atomic.Int32
	conn atomic.Pointer[frameReader] // the current connection
	shut atomic.Bool                 // no new connection (stop)
	// roots are the certificate authorities trusted, nil for the
	// system's.
	roots *x509.CertPool
	// take, when set, is handed the JSON of each interaction the
	// connections take out of the stream (frameReader), with the
	// interaction read in the same pass (nil: to be decoded).
	take func(d []byte, ic *discordgo.InteractionCreate)
}

// Code returns the close code of the last connection, 0 when it ended
// without a close frame carrying one (or has not ended).
func (w *closeWatch) Code() int { return int(w.code.Load()) }

// dialer returns a websocket dialer whose connections report their close
// frames to w. It dials directly, as discordgo's default dialer does
// without proxy variables (with them, see gatewayProxied).
func (w *closeWatch) dialer() *websocket.Dialer {
	nd := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	return &websocket.Dialer{
		HandshakeTimeout: 45 * time.Second,
		NetDialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := nd.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return w.wrap(c)
		},
		NetDialTLSContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			host, _, err := net.SplitHostPort(addr)
			if err != nil {
				return nil, err
			}
			raw, err := nd.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			tc := tls.Client(raw, &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12, RootCAs: w.roots})
			if err := tc.HandshakeContext(ctx); err != nil {
				_ = raw.Close()
				return nil, err
			}
			return w.wrap(tc)
		},
	}
}

// wrap starts watching a new connection, or closes it after stop.
func (w *closeWatch) wrap(c net.Conn) (net.Conn, error) {
	w.code.Store(0)
	f := &frameReader{Conn: c, watch: w, take: w.take}
	w.conn.Store(f)
	if w.shut.Load() {
		_ = c.Close()
		return nil, errGatewayClosing
	}
	return f, nil
}

// errGatewayClosing refuses a connection after stop.
var errGatewayClosing = errors.New("the gateway is closing")

// stop refuses every new connection and, with cut, closes the current
// one at once, without a close frame: whatever reads it (discordgo
// waiting for HELLO or READY) gets an error.
func (w *closeWatch) stop(cut bool) {
	w.shut.Store(true)
	if f := w.conn.Load(); cut && f != nil {
		_ = f.Close()
	}
}

// frameReader follows the bytes the server sends (the HTTP upgrade
// answer, then websocket frames, RFC 6455 section 5.2) and records the
// status code of a close frame (opcode 8, the code being the payload's
// first two bytes, section 5.5.1).
//
// With take set, it also takes the interactions out of the stream: a
// whole, unmasked text frame of at most 64 KiB (section 5.2's FIN bit,
// opcode 1 and 16-bit length) is held until its last byte, and if it is
// an INTERACTION_CREATE dispatch, its "d" goes to take, read as an
// interaction in the pass that reads the envelope, and discordgo reads
// in its place the same dispatch, same sequence number, with a null "d"
// (which the gate drops). discordgo then decodes a few dozen bytes instead
// of the interaction's few kilobytes (encoding/json's Decoder, a pass to
// find the value's end and one to copy it), and keeps the sequence number
// it resumes and heartbeats with. Every other frame, and any frame held
// when the connection ends, reaches discordgo byte for byte as it came.
type frameReader struct {
	net.Conn
	watch *closeWatch
	take  func(d []byte, ic *discordgo.InteractionCreate) // nil: the bytes pass as they are read

	upgraded bool   // the HTTP answer's blank line was read
	tail     uint32 // its last four bytes
	hdr      []byte // the current frame's header so far
	left     uint64 // payload bytes of the current frame still to come
	closing  bool   // the current frame is a close frame
	code     []byte // its first payload bytes

	// With take:
	holding bool   // the current frame is held whole
	held    []byte // its bytes so far, header first
	out     []byte // bytes for discordgo, from outAt
	outAt   int
	err     error // the connection's, once out is read
}

func (f *frameReader) Read(p []byte) (int, error) {
	if f.take == nil {
		n, err := f.Conn.Read(p)
		f.scan(p[:n], false)
		return n, err
	}
	for {
		if f.outAt < len(f.out) {
			n := copy(p, f.out[f.outAt:])
			f.outAt += n
			if f.outAt == len(f.out) {
				f.out, f.outAt = f.out[:0], 0
			}
			return n, nil
		}
		if f.err != nil {
			return 0, f.err
		}
		n, err := f.Conn.Read(p)
		f.scan(p[:n], true)
		if err != nil {
			// What was held goes on as it came, then the error.
			f.out = append(f.out, f.hdr...)
			f.out = append(f.out, f.held...)
			f.hdr, f.held, f.holding = f.hdr[:0], f.held[:0], false
			f.err = err
		}
	}
}

// scan follows b, and with emit appends to out what discordgo is to read
// of it.
func (f *frameReader) scan(b []byte, emit bool) {
	for len(b) > 0 {
		if !f.upgraded {
			f.tail = f.tail<<8 | uint32(b[0])
			if emit {
				f.out = append(f.out, b[0])
			}
			b = b[1:]
			f.upgraded = f.tail == 0x0d0a0d0a
			continue
		}
		if f.left == 0 && !f.holding {
			f.hdr = append(f.hdr, b[0])
			b = b[1:]
			if len(f.hdr) < headerLen(f.hdr) {
				continue
			}
			if emit && holdable(f.hdr) {
				f.held = append(f.held[:0], f.hdr...)
				f.holding = true
				f.left = payloadLen(f.hdr)
				f.hdr = f.hdr[:0]
				continue
			}
			if emit {
				f.out = append(f.out, f.hdr...)
			}
			f.startFrame()
			continue
		}
		k := min(uint64(len(b)), f.left)
		if f.holding {
			f.held = append(f.held, b[:k]...)
			f.left -= k
			b = b[k:]
			if f.left == 0 {
				f.release()
			}
			continue
		}
		if f.closing && len(f.code) < 2 {
			f.code = append(f.code, b[:min(k, uint64(2-len(f.code)))]...)
			if len(f.code) == 2 {
				f.watch.code.Store(int32(binary.BigEndian.Uint16(f.code)))
			}
		}
		if emit {
			f.out = append(f.out, b[:k]...)
		}
		f.left -= k
		b = b[k:]
	}
}

// holdable reports whether the frame of header h is held whole: a text
// frame in one piece (FIN, no extension bits, opcode 1), unmasked, of 1
// to 65,535 bytes.
func holdable(h []byte) bool {
	return h[0] == 0x80|websocket.TextMessage && h[1]&0x80 == 0 && h[1]&0x7f != 127 && h[1]&0x7f != 0
}

// payloadLen is the payload length the complete header h gives.
func payloadLen(h []byte) uint64 {
	n := uint64(h[1] & 0x7f)
	switch n {
	case 126:
		n = uint64(binary.BigEndian.Uint16(h[2:4]))
	case 127:
		n = binary.BigEndian.Uint64(h[2:10])
	}
	return n
}

// quotedInteractionCreate is the event's name as a dispatch's "t" holds
// it.
var quotedInteractionCreate = []byte(`"` + interactionCreate + `"`)

// release ends the frame held: an interaction's dispatch goes to take and
// its stand-in to out; anything else to out as it came.
func (f *frameReader) release() {
	f.holding = false
	payload := f.held[headerLen(f.held):]
	if !bytes.Contains(payload, quotedInteractionCreate) {
		// Another event: not read any further.
		f.out = append(f.out, f.held...)
		f.held = f.held[:0]
		return
	}
	op, seq, typ, d, ic, ok := discordapi.Dispatch(payload, true)
	if ok && op == 0 && typ == interactionCreate && len(d) > 0 && d[0] == '{' {
		f.take(bytes.Clone(d), ic)
		stand := strconv.AppendInt([]byte(`{"op":0,"s":`), seq, 10)
		stand = append(stand, `,"t":"`+interactionCreate+`","d":null}`...)
		f.out = append(f.out, 0x80|websocket.TextMessage, byte(len(stand)))
		f.out = append(f.out, stand...)
	} else {
		f.out = append(f.out, f.held...)
	}
	f.held = f.held[:0]
}

// startFrame reads a complete frame header.
func (f *frameReader) startFrame() {
	h := f.hdr
	n := payloadLen(h)
	// A server's frames are never masked (section 5.1); a masked payload
	// is not read for a code.
	f.closing = h[0]&0x0f == websocket.CloseMessage && h[1]&0x80 == 0
	f.code = f.code[:0]
	f.left = n
	f.hdr = f.hdr[:0]
}

// headerLen returns the length of the frame header starting with h, as
// far as h tells it (2 until the length byte is known).
func headerLen(h []byte) int {
	if len(h) < 2 {
		return 2
	}
	n := 2
	switch h[1] & 0x7f {
	case 126:
		n += 2
	case 127:
		n += 8
	}
	if h[1]&0x80 != 0 {
		n += 4
	}
	return n
}
