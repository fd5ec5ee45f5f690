package app

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	}{
		{"ws 4011", false, 4011},
		{"wss 4004", true, 4004},
		{"ws without a close frame", false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var srv *httptest.Server
			var w closeWatch
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
