package redis

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"
	"github.com/sentinelgen/sentinelgen/cluster/redis/internal/redistest"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// instance is one simulated service instance: its own Redis client (own
// connections, as a separate process would have) and its own TokenService.
type instance struct {
	client *goredis.Client
	svc    *TokenService
}

// newInstance connects a new client to srv and starts a TokenService on it;
// both are closed when the test ends. Tests run one Redis per test, so the
// default namespace is fine; opts override the test defaults.
func newInstance(t testing.TB, srv *redistest.Server, opts ...Option) *instance {
	t.Helper()
	client := goredis.NewClient(&goredis.Options{Addr: srv.Addr})
	// A generous timeout: these tests measure budgets, not failover, and a
	// first call (dial, script load) on a loaded host under the race detector
	// can take longer than the 20 ms default. The failover test sets its own.
	opts = append([]Option{WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))), WithTimeout(250 * time.Millisecond)}, opts...)
	svc, err := NewTokenService(client, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = svc.Close()
		_ = client.Close()
	})
	return &instance{client: client, svc: svc}
}

func clusterRule(flowID int64, count float64, tt runtime.ThresholdType) *runtime.FlowRule {
	return &runtime.FlowRule{Resource: "res", Grade: runtime.FlowGradeQPS, Count: count, ClusterMode: true,
		ClusterConfig: runtime.ClusterConfig{FlowID: flowID, ThresholdType: tt, FallbackToLocalWhenFail: true}}
}

// tally counts the calls an offer made and how the service answered, per
// wall-clock second (Unix seconds). Redis runs on this host, so its TIME and
// the wall clock agree and a wall-clock second is a Redis window.
type tally struct {
	mu     sync.Mutex
	ok     map[int64]int
	status map[runtime.TokenStatus]int
}

func newTally() *tally {
	return &tally{ok: map[int64]int{}, status: map[runtime.TokenStatus]int{}}
}

func (t *tally) record(at time.Time, st runtime.TokenStatus) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if st == runtime.TokenOK {
		t.ok[at.Unix()]++
	}
	t.status[st]++
}

func (t *tally) count(st runtime.TokenStatus) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.status[st]
}

// offer calls svc at perSecond calls per second until ctx ends, recording
// every answer in out (and in each of also).
func offer(ctx context.Context, svc *TokenService, rule *runtime.FlowRule, perSecond int, out *tally) {
	tick := time.NewTicker(time.Second / time.Duration(perSecond))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		res := svc.RequestToken(rule, 1, false)
		out.record(time.Now(), res.Status)
	}
}

// fullSeconds returns the Unix seconds wholly inside [from, to).
func fullSeconds(from, to time.Time) []int64 {
	var out []int64
	for s := from.Truncate(time.Second).Add(time.Second); !s.Add(time.Second).After(to); s = s.Add(time.Second) {
		out = append(out, s.Unix())
	}
	return out
}

// sumOK adds the passes of every tally in second s.
func sumOK(s int64, ts ...*tally) int {
	n := 0
	for _, t := range ts {
		t.mu.Lock()
		n += t.ok[s]
		t.mu.Unlock()
	}
	return n
}

// within reports whether got is within frac of want.
func within(got, want int, frac float64) bool {
	d := float64(got - want)
	return d >= -frac*float64(want) && d <= frac*float64(want)
}

// waitForSecondStart sleeps until just after the next wall-clock second
// begins, so a short burst stays inside one Redis window.
func waitForSecondStart() {
	now := time.Now()
	time.Sleep(now.Truncate(time.Second).Add(time.Second + 5*time.Millisecond).Sub(now))
}

// logBuffer is a slog handler's output shared with a test.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// quietLogger drops go-redis's own log lines: a test that kills Redis would
// otherwise print one per failed dial. The service's transitions are logged
// through its slog.Logger, which the tests inspect.
type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}

func TestMain(m *testing.M) {
	goredis.SetLogger(quietLogger{})
	os.Exit(m.Run())
}
