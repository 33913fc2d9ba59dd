package transport

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"testing"
	"time"
)

// slowRequest is the start of a push whose body never comes whole.
func slowRequest(addr string) string {
	return "POST /setRules HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\ntype=flow&data="
}

// closedWithin reads c until the server closes it or d passes; it says
// whether the server closed it.
func closedWithin(c net.Conn, d time.Duration) bool {
	_ = c.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, c)
	var ne net.Error
	return !(errors.As(err, &ne) && ne.Timeout())
}

// The limits have defaults: a server built with a zero Config has every
// timeout and cap.
func TestLimitsHaveDefaults(t *testing.T) {
	f := newFixture(t, Config{})
	h := f.srv.http
	if h.ReadTimeout <= 0 || h.WriteTimeout <= 0 || h.IdleTimeout <= 0 || h.ReadHeaderTimeout <= 0 || h.MaxHeaderBytes <= 0 {
		t.Errorf("timeouts: read %v write %v idle %v header %v, max header %d", h.ReadTimeout, h.WriteTimeout, h.IdleTimeout, h.ReadHeaderTimeout, h.MaxHeaderBytes)
	}
	c := f.srv.cfg
	if c.MaxConns <= 0 || c.MaxConnsPerClient <= 0 || c.MaxConnsPerClient > c.MaxConns || c.MaxBodyBytes <= 0 || c.MaxPushRules != DefaultMaxPushRules {
		t.Errorf("caps: %d connections, %d per client, body %d, rules %d", c.MaxConns, c.MaxConnsPerClient, c.MaxBodyBytes, c.MaxPushRules)
	}
}

// A keep-alive connection left idle is closed after IdleTimeout.
func TestIdleConnectionsAreClosed(t *testing.T) {
	f := newFixture(t, Config{IdleTimeout: 300 * time.Millisecond})
	c, err := net.Dial("tcp", f.srv.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, "GET /version HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("version over keep-alive: %v %v", resp, err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	if !closedWithin(c, 10*time.Second) {
		t.Error("an idle keep-alive connection was still open 10 s after a 300 ms IdleTimeout")
	}
}

// A body that trickles in is cut off after ReadTimeout.
func TestSlowBodiesAreCutOff(t *testing.T) {
	f := newFixture(t, Config{ReadTimeout: 500 * time.Millisecond})
	addr := f.srv.Addr().String()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, slowRequest(addr)); err != nil {
		t.Fatal(err)
	}
	done := make(chan bool)
	go func() { done <- closedWithin(c, 10*time.Second) }()
	for i := 0; i < 100; i++ { // one byte every 100 ms, until the server gives up
		select {
		case closed := <-done:
			if !closed {
				t.Error("a trickling body was still read 10 s after a 500 ms ReadTimeout")
			}
			return
		case <-time.After(100 * time.Millisecond):
			_, _ = c.Write([]byte("x"))
		}
	}
	t.Error("a trickling body was still read after 10 s")
}

// When the connections are at their cap, a new one displaces the one that
// has waited longest without sending a whole request, and its request is
// served.
func TestConnectionCapServesNewRequests(t *testing.T) {
	f := newFixture(t, Config{MaxConns: 4, MaxConnsPerClient: 4})
	addr := f.srv.Addr().String()
	var slow []net.Conn
	for i := 0; i < 4; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if _, err := io.WriteString(c, slowRequest(addr)); err != nil {
			t.Fatal(err)
		}
		slow = append(slow, c)
		waitFor(t, func() bool { return f.srv.conns.open() == i+1 }, "the slow connection to be held")
	}
	code, body := f.get("getRules", url.Values{"type": {"flow"}})
	if code != 200 {
		t.Fatalf("getRules with the connections at their cap = %d %q", code, body)
	}
	if !closedWithin(slow[0], 10*time.Second) {
		t.Error("the oldest slow connection was not closed to make room")
	}
	if n := f.srv.conns.open(); n > 4 {
		t.Errorf("%d connections held, cap 4", n)
	}
}

// waitFor polls cond for up to 10 s.
func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10 s for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Over MaxConnsPerClient a new connection displaces the oldest waiting one
// of the same client.
func TestConnectionCapPerClient(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := newConnLimiter(ln, 3, 2)
	defer l.Close()
	accepted := make(chan net.Conn, 16)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	dial := func() net.Conn {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		<-accepted
		return c
	}
	first := dial()
	dial()
	dial() // over the per-client cap: the first goes
	if !closedWithin(first, 10*time.Second) {
		t.Error("the first connection was not displaced")
	}
	if n := l.open(); n != 2 {
		t.Errorf("%d held, want 2 (per-client cap)", n)
	}
}

// clientConn is one end of a pipe that says it comes from addr.
type clientConn struct {
	net.Conn
	addr net.Addr
}

func (c clientConn) RemoteAddr() net.Addr { return c.addr }

// At the global cap the connection displaced is the client's holding the
// most, so a flood from one address leaves the others' slots alone; and a
// connection being served is never displaced.
func TestConnectionCapTakesFromTheHeaviestClient(t *testing.T) {
	l := newConnLimiter(nil, 4, 4)
	conn := func(ip string) (*limitedConn, net.Conn) {
		a, b := net.Pipe()
		t.Cleanup(func() { a.Close(); b.Close() })
		lc := l.admit(clientConn{a, &net.TCPAddr{IP: net.ParseIP(ip), Port: 1}})
		return lc, b
	}
	dash, dashPeer := conn("192.0.2.1") // the oldest of all
	a1, a1Peer := conn("192.0.2.66")
	a1.served(true) // being answered
	_, a2Peer := conn("192.0.2.66")
	conn("192.0.2.66")
	if lc, _ := conn("192.0.2.66"); lc == nil || l.open() != 4 {
		t.Fatalf("a fifth connection: %v, %d held", lc, l.open())
	}
	if closedWithin(dashPeer, 50*time.Millisecond) {
		t.Error("the other client's connection was displaced")
	}
	if closedWithin(a1Peer, 50*time.Millisecond) {
		t.Error("a connection being served was displaced")
	}
	if !closedWithin(a2Peer, 5*time.Second) {
		t.Error("the heaviest client's oldest waiting connection was not displaced")
	}
	_ = dash
}
