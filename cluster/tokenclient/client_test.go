package tokenclient

import (
	"io"
	"log/slog"
	"net"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/cluster/tokenserver"
	"github.com/sentinelgen/sentinelgen/runtime"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func rule(id int64, count float64, typ runtime.ThresholdType) runtime.FlowRule {
	return runtime.FlowRule{Resource: "r", Grade: runtime.FlowGradeQPS, Count: count, ClusterMode: true,
		ClusterConfig: runtime.ClusterConfig{FlowID: id, ThresholdType: typ, FallbackToLocalWhenFail: true}}
}

// startServer runs a Go token server on a free 127.0.0.1 port.
func startServer(t *testing.T, addr string, rules ...runtime.FlowRule) (*tokenserver.Server, string) {
	t.Helper()
	s, err := tokenserver.New(tokenserver.Config{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.LoadFlowRules("orders", rules); err != nil {
		t.Fatal(err)
	}
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(l)
	t.Cleanup(func() { s.Close() })
	return s, l.Addr().String()
}

func newClient(t *testing.T, addr string, timeout time.Duration) *Client {
	t.Helper()
	c, err := New(Config{Addr: addr, Namespace: "orders", RequestTimeout: timeout, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func waitConnected(t *testing.T, c *Client, within time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	for !c.Connected() {
		if time.Since(start) > within {
			t.Fatalf("not connected within %v", within)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return time.Since(start)
}

func TestClientAgainstGoServer(t *testing.T) {
	_, addr := startServer(t, "", rule(11, 5, runtime.Global))
	c := newClient(t, addr, time.Second)
	waitConnected(t, c, 5*time.Second)
	r := rule(11, 5, runtime.Global)
	var got []runtime.TokenStatus
	for i := 0; i < 6; i++ {
		got = append(got, c.RequestToken(&r, 1, false).Status)
	}
	for i, s := range got {
		want := runtime.TokenOK
		if i == 5 {
			want = runtime.TokenBlocked
		}
		if s != want {
			t.Fatalf("answers %v, want five ok and one blocked", got)
		}
	}
	other := rule(12, 5, runtime.Global)
	if s := c.RequestToken(&other, 1, false).Status; s != runtime.TokenNoRuleExists {
		t.Errorf("unknown flowId: %v", s)
	}
}

// AVG_LOCAL counts the clients connected in the namespace: two clients
// double the budget.
func TestAvgLocalCountsClients(t *testing.T) {
	_, addr := startServer(t, "", rule(13, 3, runtime.AvgLocal))
	a, b := newClient(t, addr, time.Second), newClient(t, addr, time.Second)
	waitConnected(t, a, 5*time.Second)
	waitConnected(t, b, 5*time.Second)
	r := rule(13, 3, runtime.AvgLocal)
	deadline := time.Now().Add(5 * time.Second)
	for { // the PINGs may still be on their way
		passed := 0
		for i := 0; i < 10; i++ {
			if a.RequestToken(&r, 1, false).Status == runtime.TokenOK {
				passed++
			}
		}
		if passed == 6 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d passed, want 6 (two clients × 3)", passed)
		}
		time.Sleep(1100 * time.Millisecond)
	}
}

// A server that accepts but never answers: every call gives up after the
// request timeout with TokenFail, never later.
func TestSilentServerTimesOut(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			go io.Copy(io.Discard, conn)
		}
	}()
	c := newClient(t, l.Addr().String(), 20*time.Millisecond)
	waitConnected(t, c, 5*time.Second)
	r := rule(1, 5, runtime.Global)
	var slowest time.Duration
	for i := 0; i < 20; i++ {
		start := time.Now()
		if s := c.RequestToken(&r, 1, false).Status; s != runtime.TokenFail {
			t.Fatalf("answer %v from a silent server", s)
		}
		slowest = max(slowest, time.Since(start))
	}
	// The bound is the timeout plus scheduling slack on a busy machine.
	if slowest > 500*time.Millisecond {
		t.Errorf("slowest call %v with a 20 ms timeout", slowest)
	}
}

// The client reconnects when the server comes back on its address.
func TestReconnects(t *testing.T) {
	s, addr := startServer(t, "", rule(14, 100, runtime.Global))
	c := newClient(t, addr, time.Second)
	waitConnected(t, c, 5*time.Second)
	s.Close()
	deadline := time.Now().Add(5 * time.Second)
	for c.Connected() {
		if time.Now().After(deadline) {
			t.Fatal("still connected to a closed server")
		}
		time.Sleep(5 * time.Millisecond)
	}
	r := rule(14, 100, runtime.Global)
	if st := c.RequestToken(&r, 1, false).Status; st != runtime.TokenFail {
		t.Fatalf("while the server is down: %v, want fail", st)
	}
	time.Sleep(time.Second) // the back-off grows meanwhile
	startServer(t, addr, rule(14, 100, runtime.Global))
	took := waitConnected(t, c, 5*time.Second)
	t.Logf("reconnected %v after the server's return", took)
	if st := c.RequestToken(&r, 1, false).Status; st != runtime.TokenOK {
		t.Fatalf("after reconnecting: %v", st)
	}
}

// A malformed frame closes that connection only; the server keeps
// serving the others.
func TestMalformedFrameClosesOnlyItsConnection(t *testing.T) {
	_, addr := startServer(t, "", rule(15, 100, runtime.Global))
	c := newClient(t, addr, time.Second)
	waitConnected(t, c, 5*time.Second)
	bad, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer bad.Close()
	bad.Write([]byte{0x00, 0x03, 1, 2, 3}) // shorter than a request header
	bad.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := bad.Read(make([]byte, 1)); err == nil {
		t.Error("the server answered a malformed frame")
	} else if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Error("the server kept a connection that sent a malformed frame")
	}
	r := rule(15, 100, runtime.Global)
	if st := c.RequestToken(&r, 1, false).Status; st != runtime.TokenOK {
		t.Fatalf("another client after the malformed frame: %v", st)
	}
}

func TestRequestTokenDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop waiters")
	}
	_, addr := startServer(t, "", rule(16, 1e9, runtime.Global))
	c := newClient(t, addr, time.Second)
	waitConnected(t, c, 5*time.Second)
	r := rule(16, 1e9, runtime.Global)
	c.RequestToken(&r, 1, false)
	if n := testing.AllocsPerRun(200, func() { c.RequestToken(&r, 1, false) }); n != 0 {
		t.Errorf("%v allocations per call", n)
	}
}

func TestNewRefusesBadConfig(t *testing.T) {
	for _, cfg := range []Config{{Namespace: "a"}, {Addr: "nohost", Namespace: "a"}, {Addr: "127.0.0.1:1"}} {
		if _, err := New(cfg); err == nil {
			t.Errorf("New(%+v) succeeded", cfg)
		}
	}
}

// A connection silent for longer than the server's write timeout
// (instances that start together, then wait) is answered at once when it
// speaks again.
func TestAnswersAfterASilence(t *testing.T) {
	t.Parallel()
	_, addr := startServer(t, "", rule(17, 100, runtime.Global))
	c := newClient(t, addr, time.Second)
	waitConnected(t, c, 5*time.Second)
	r := rule(17, 100, runtime.Global)
	if s := c.RequestToken(&r, 1, false).Status; s != runtime.TokenOK {
		t.Fatalf("before the silence: %v", s)
	}
	time.Sleep(6 * time.Second)
	if s := c.RequestToken(&r, 1, false).Status; s != runtime.TokenOK || !c.Connected() {
		t.Fatalf("after 6 s of silence: %v, connected %v", s, c.Connected())
	}
}
