package redis

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"
	"github.com/sentinelgen/sentinelgen/cluster/redis/internal/redistest"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// answer is one call of the failover test: when it started, how long it
// took, what the service said.
type answer struct {
	at      time.Time
	took    time.Duration
	status  runtime.TokenStatus
	stats   Stats
	crashed bool // Redis was down when the call started
}

// Redis is SIGKILLed mid-run and restarted on the same port: no call waits
// longer than the timeout (plus scheduling slack), calls are answered
// TokenFail — the runtime then applies the local rule — within one second of
// the crash and until the restart, each transition is logged once and
// counted, and cluster mode resumes by itself after the restart.
func TestRedisCrashFallsBackAndRecovers(t *testing.T) {
	const (
		timeout = 20 * time.Millisecond
		// slack covers goroutine scheduling on a loaded two-core host
		// under the race detector.
		slack = 30 * time.Millisecond
	)
	srv := redistest.Start(t)
	logs := &logBuffer{}
	client := goredis.NewClient(&goredis.Options{Addr: srv.Addr})
	t.Cleanup(func() { _ = client.Close() })
	svc, err := NewTokenService(client, WithTimeout(timeout), WithProbeInterval(50*time.Millisecond),
		WithLogger(slog.New(slog.NewTextHandler(logs, nil))))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Close() })
	rule := clusterRule(4, 1000, runtime.Global) // far above the offered 200/s

	var (
		mu      sync.Mutex
		answers []answer
		down    bool
	)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			mu.Lock()
			crashed := down
			mu.Unlock()
			start := time.Now()
			res := svc.RequestToken(rule, 1, false)
			a := answer{at: start, took: time.Since(start), status: res.Status, stats: svc.Stats(), crashed: crashed}
			mu.Lock()
			answers = append(answers, a)
			mu.Unlock()
		}
	})

	time.Sleep(1200 * time.Millisecond)
	mu.Lock()
	down = true
	mu.Unlock()
	crash := time.Now()
	srv.Kill()
	time.Sleep(1500 * time.Millisecond)
	restart := time.Now()
	srv.Restart()
	mu.Lock()
	down = false
	mu.Unlock()
	time.Sleep(1200 * time.Millisecond)
	cancel()
	wg.Wait()

	var firstFail, firstOKAfter time.Time
	for _, a := range answers {
		if a.took > timeout+slack {
			t.Errorf("call at %v took %v, more than the timeout %v + %v", a.at.Sub(crash), a.took, timeout, slack)
		}
		switch {
		case a.status != runtime.TokenOK && a.status != runtime.TokenFail:
			t.Errorf("call at %v: status %v, want ok or fail", a.at.Sub(crash), a.status)
		case a.at.Before(crash) && a.status != runtime.TokenOK:
			t.Errorf("call %v before the crash: status %v", crash.Sub(a.at), a.status)
		case a.crashed && a.status == runtime.TokenFail && firstFail.IsZero():
			firstFail = a.at
		case a.crashed && a.at.After(crash.Add(time.Second)) && a.status != runtime.TokenFail:
			t.Errorf("call %v after the crash: status %v, want fail (local rule)", a.at.Sub(crash), a.status)
		case a.at.After(restart) && a.status == runtime.TokenOK && a.stats.Available && firstOKAfter.IsZero():
			firstOKAfter = a.at
		}
	}
	if firstFail.IsZero() || firstFail.Sub(crash) > time.Second {
		t.Errorf("first fallback %v after the crash, want within 1s", firstFail.Sub(crash))
	}
	if firstOKAfter.IsZero() {
		t.Fatal("cluster mode did not resume after the restart")
	}
	t.Logf("%d calls; fallback from %v after the crash; cluster mode again %v after the restart",
		len(answers), firstFail.Sub(crash).Round(time.Millisecond), firstOKAfter.Sub(restart).Round(time.Millisecond))

	// Usually one down and one up; a round trip just after the restart
	// (dial, script reload) can overrun 20 ms on a loaded host and count as
	// one more short outage. Either way transitions pair up, and each is
	// logged exactly once.
	st := svc.Stats()
	if !st.Available || st.Downs < 1 || st.Ups != st.Downs || st.Fallbacks == 0 {
		t.Errorf("stats %+v, want available, downs = ups >= 1, some fallbacks", st)
	}
	out := logs.String()
	if n := strings.Count(out, "level=WARN"); int64(n) != st.Downs {
		t.Errorf("%d warnings logged for %d transitions down:\n%s", n, st.Downs, out)
	}
	if n := strings.Count(out, "level=INFO"); int64(n) != st.Ups {
		t.Errorf("%d infos logged for %d transitions up:\n%s", n, st.Ups, out)
	}
}

// A Redis that is up but slower than the timeout (DEBUG SLEEP stalls the
// whole server) gets the same treatment as a dead one: the waiting call gets
// TokenFail after the timeout, the next calls get it at once without
// waiting, and the probe brings cluster mode back when Redis answers again.
func TestSlowRedisFailsWithinTheTimeout(t *testing.T) {
	const timeout, slack = 20 * time.Millisecond, 30 * time.Millisecond
	srv := redistest.Start(t)
	in := newInstance(t, srv, WithTimeout(timeout), WithProbeInterval(20*time.Millisecond))
	staller := newInstance(t, srv)
	rule := clusterRule(8, 1000, runtime.Global)

	stalled := make(chan error, 1)
	go func() { stalled <- staller.client.Do(context.Background(), "DEBUG", "SLEEP", "0.3").Err() }()
	time.Sleep(50 * time.Millisecond) // let the stall begin

	start := time.Now()
	first := in.svc.RequestToken(rule, 1, false)
	firstTook := time.Since(start)
	start = time.Now()
	second := in.svc.RequestToken(rule, 1, false)
	secondTook := time.Since(start)
	if first.Status != runtime.TokenFail || firstTook > timeout+slack {
		t.Errorf("first call: %v after %v, want fail within %v + %v", first.Status, firstTook, timeout, slack)
	}
	if second.Status != runtime.TokenFail || secondTook >= timeout {
		t.Errorf("second call: %v after %v, want fail at once (Redis is known down)", second.Status, secondTook)
	}
	if err := <-stalled; err != nil {
		t.Fatalf("DEBUG SLEEP: %v", err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for in.svc.RequestToken(rule, 1, false).Status != runtime.TokenOK {
		if time.Now().After(deadline) {
			t.Fatalf("cluster mode did not resume; stats %+v", in.svc.Stats())
		}
		time.Sleep(10 * time.Millisecond)
	}
	// As in the crash test, a slow round trip right after the stall may
	// count as one more short outage.
	if st := in.svc.Stats(); st.Downs < 1 || st.Ups != st.Downs || st.Fallbacks < 2 {
		t.Errorf("stats %+v, want downs = ups >= 1, at least 2 fallbacks", st)
	}
}
