package app

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/binary"
	"errors"
	"net"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
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
	f := &frameReader{Conn: c, watch: w}
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
type frameReader struct {
	net.Conn
	watch *closeWatch

	upgraded bool   // the HTTP answer's blank line was read
	tail     uint32 // its last four bytes
	hdr      []byte // the current frame's header so far
	left     uint64 // payload bytes of the current frame still to come
	closing  bool   // the current frame is a close frame
	code     []byte // its first payload bytes
}

func (f *frameReader) Read(p []byte) (int, error) {
	n, err := f.Conn.Read(p)
	f.scan(p[:n])
	return n, err
}

func (f *frameReader) scan(b []byte) {
	for len(b) > 0 {
		if !f.upgraded {
			f.tail = f.tail<<8 | uint32(b[0])
			b = b[1:]
			f.upgraded = f.tail == 0x0d0a0d0a
			continue
		}
		if f.left == 0 {
			f.hdr = append(f.hdr, b[0])
			b = b[1:]
			if len(f.hdr) < headerLen(f.hdr) {
				continue
			}
			f.startFrame()
			continue
		}
		k := min(uint64(len(b)), f.left)
		if f.closing && len(f.code) < 2 {
			f.code = append(f.code, b[:min(k, uint64(2-len(f.code)))]...)
			if len(f.code) == 2 {
				f.watch.code.Store(int32(binary.BigEndian.Uint16(f.code)))
			}
		}
		f.left -= k
		b = b[k:]
	}
}

// startFrame reads a complete frame header.
func (f *frameReader) startFrame() {
	h := f.hdr
	n := uint64(h[1] & 0x7f)
	switch n {
	case 126:
		n = uint64(binary.BigEndian.Uint16(h[2:4]))
	case 127:
		n = binary.BigEndian.Uint64(h[2:10])
	}
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
