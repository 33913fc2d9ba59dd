package redis

import (
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"
	"github.com/sentinelgen/sentinelgen/cluster/redis/internal/redistest"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// closeSlack covers goroutine scheduling on a loaded two-core host under the
// race detector (Close measured 100–104 ms typically, up to 261 ms with the
// load average at 14); it is far below what an unbounded client call costs
// (the client's ReadTimeout alone is 3 s; Close took 9.9 s before it was
// bounded).
const closeSlack = 400 * time.Millisecond

// stalledService starts a TokenService on a client with go-redis's default
// options — ContextTimeoutEnabled off, so the client ignores context
// deadlines — as the service must stay bounded whatever the client options.
func stalledService(t *testing.T, addr string) (*TokenService, time.Duration) {
	t.Helper()
	client := goredis.NewClient(&goredis.Options{Addr: addr})
	t.Cleanup(func() { _ = client.Close() })
	const closeTimeout = 100 * time.Millisecond
	svc, err := NewTokenService(client,
		WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))),
		WithTimeout(20*time.Millisecond), WithProbeInterval(20*time.Millisecond),
		WithHeartbeat(30*time.Millisecond, time.Second), WithCloseTimeout(closeTimeout))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Close() })
	return svc, closeTimeout
}

// timedClose closes svc and checks that it returned within its close
// timeout plus slack, with an error saying Redis did not confirm the
// removal.
func timedClose(t *testing.T, svc *TokenService, closeTimeout time.Duration) {
	t.Helper()
	start := time.Now()
	err := svc.Close()
	took := time.Since(start)
	t.Logf("Close took %v: %v", took.Round(time.Millisecond), err)
	if took > closeTimeout+closeSlack {
		t.Errorf("Close took %v, want at most the close timeout %v + %v", took, closeTimeout, closeSlack)
	}
	if err == nil || !strings.Contains(err.Error(), "close timeout") {
		t.Errorf("Close error %v, want one saying the removal was not confirmed within the close timeout", err)
	}
}

// A redis-server stopped by SIGSTOP still accepts connections (the kernel
// does) and never answers. The heartbeat, a refill and the probe are all
// waiting on it when Close is called: Close still returns within its bound.
func TestCloseIsBoundedWhileRedisIsStopped(t *testing.T) {
	srv := redistest.Start(t)
	svc, closeTimeout := stalledService(t, srv.Addr)
	// The first round trip (dial, script load) can overrun 20 ms on a
	// loaded host; the probe then brings the service back.
	deadline := time.Now().Add(3 * time.Second)
	for svc.RequestToken(clusterRule(1, 1000, runtime.Global), 1, false).Status != runtime.TokenOK {
		if time.Now().After(deadline) {
			t.Fatalf("no token with Redis up; stats %+v", svc.Stats())
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // a heartbeat or two pass

	srv.Pause()
	t.Cleanup(srv.Resume) // before the server's Kill, which cleanups run after this
	// A flow with no lease: its refill waits on the stopped server.
	start := time.Now()
	st := svc.RequestToken(clusterRule(2, 1000, runtime.Global), 1, false).Status
	if took := time.Since(start); st != runtime.TokenFail || took > 20*time.Millisecond+closeSlack {
		t.Errorf("request to a stopped Redis: %v after %v, want fail within the timeout", st, took)
	}
	time.Sleep(100 * time.Millisecond) // heartbeats and probes run into the stall
	if svc.Stats().Available {
		t.Errorf("Redis stopped, still available: %+v", svc.Stats())
	}
	timedClose(t, svc, closeTimeout)
}

// A peer that accepts connections, reads what it is sent and never answers
// (a proxy whose backend hangs, say): the first call fails within the
// timeout and Close returns within its bound.
func TestCloseIsBoundedAgainstAServerThatNeverAnswers(t *testing.T) {
	addr := silentListener(t)
	svc, closeTimeout := stalledService(t, addr)
	start := time.Now()
	st := svc.RequestToken(clusterRule(1, 1000, runtime.Global), 1, false).Status
	if took := time.Since(start); st != runtime.TokenFail || took > 20*time.Millisecond+closeSlack {
		t.Errorf("request to a silent server: %v after %v, want fail within the timeout", st, took)
	}
	time.Sleep(100 * time.Millisecond) // probes run into the silence
	timedClose(t, svc, closeTimeout)
}

// With Redis up, Close still removes the instance from the live sets of
// every flow it used, at once.
func TestCloseRemovesTheInstanceFromEveryLiveSet(t *testing.T) {
	srv := redistest.Start(t)
	in := newInstance(t, srv)
	for id := int64(1); id <= 3; id++ {
		if st := in.svc.RequestToken(clusterRule(id, 1000, runtime.AvgLocal), 1, false).Status; st != runtime.TokenOK {
			t.Fatalf("flow %d: %v", id, st)
		}
	}
	if err := in.svc.Close(); err != nil {
		t.Fatalf("Close with Redis up: %v", err)
	}
	for id := int64(1); id <= 3; id++ {
		key := newFlowState(DefaultNamespace, id).keys[1]
		n, err := in.client.ZCard(t.Context(), key).Result()
		if err != nil || n != 0 {
			t.Errorf("live set %s after Close: %d entries (%v), want 0", key, n, err)
		}
	}
}

// silentListener accepts connections on 127.0.0.1 and reads them without
// ever answering, until the test ends.
func silentListener(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu    sync.Mutex
		conns []net.Conn
		wg    sync.WaitGroup
	)
	wg.Go(func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			wg.Go(func() { _, _ = io.Copy(io.Discard, c) })
		}
	})
	t.Cleanup(func() {
		_ = l.Close()
		mu.Lock()
		for _, c := range conns {
			_ = c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return l.Addr().String()
}
