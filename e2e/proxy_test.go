package e2e

import (
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// tcpProxy forwards the TCP connections made to a loopback listener to a
// target address that can change (a process restarted on another port),
// holding every chunk of bytes for delay in each direction: the network
// between two machines. A connection whose target cannot be reached is
// closed at once, as a load balancer with no healthy backend does.
type tcpProxy struct {
	ln    net.Listener
	delay time.Duration

	mu     sync.Mutex
	target string
	conns  map[net.Conn]struct{}
	closed bool
}

// startProxy listens on 127.0.0.1 (a free port) and forwards to target
// until the test ends.
func startProxy(t *testing.T, target string, delay time.Duration) *tcpProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	p := &tcpProxy{ln: ln, delay: delay, target: target, conns: map[net.Conn]struct{}{}}
	go p.serve()
	t.Cleanup(p.close)
	return p
}

// Addr is the proxy's host:port.
func (p *tcpProxy) Addr() string { return p.ln.Addr().String() }

// SetTarget sends the connections made from now on to addr.
func (p *tcpProxy) SetTarget(addr string) {
	p.mu.Lock()
	p.target = addr
	p.mu.Unlock()
}

func (p *tcpProxy) close() {
	p.mu.Lock()
	p.closed = true
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.ln.Close()
}

// track records c for close; false when the proxy is closed.
func (p *tcpProxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		c.Close()
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

func (p *tcpProxy) untrack(cs ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range cs {
		delete(p.conns, c)
		c.Close()
	}
}

func (p *tcpProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		if !p.track(c) {
			return
		}
		go p.handle(c)
	}
}

func (p *tcpProxy) handle(c net.Conn) {
	p.mu.Lock()
	target := p.target
	p.mu.Unlock()
	b, err := net.DialTimeout("tcp", target, time.Second)
	if err != nil {
		p.untrack(c)
		return
	}
	if !p.track(b) {
		p.untrack(c)
		return
	}
	done := make(chan struct{}, 2)
	go func() { p.pipe(b, c); done <- struct{}{} }()
	go func() { p.pipe(c, b); done <- struct{}{} }()
	<-done // either side gone: both go
	p.untrack(c, b)
	<-done
}

// pipe copies src to dst, each chunk delay after it was read.
func (p *tcpProxy) pipe(dst, src net.Conn) {
	if p.delay <= 0 {
		_, _ = io.Copy(dst, src)
		return
	}
	type chunk struct {
		data []byte
		at   time.Time
	}
	ch := make(chan chunk, 1024)
	go func() {
		defer close(ch)
		buf := make([]byte, 32<<10)
		for {
			n, err := src.Read(buf)
			if n > 0 {
				ch <- chunk{append([]byte(nil), buf[:n]...), time.Now()}
			}
			if err != nil {
				return
			}
		}
	}()
	for c := range ch {
		time.Sleep(time.Until(c.at.Add(p.delay)))
		if _, err := dst.Write(c.data); err != nil {
			src.Close()
			for range ch {
			}
			return
		}
	}
}
