package etcd

import (
	"context"
	"log/slog"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/datasource/etcd/internal/etcdtest"
	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
	"github.com/sentinelgen/sentinelgen/rules"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// waitTimeout bounds every wait for something the tests expect to happen;
// the latency goals themselves are asserted separately and are far smaller.
const waitTimeout = 10 * time.Second

// Rule documents used across the tests. flowDoc(n) is a TOML document with
// one flow rule of count n, so each update is a distinct set.
func flowDoc(count int) string {
	return "[[flow]]\nresource = \"createOrder\"\ncount = " + strconv.Itoa(count) + "\n"
}

// testLogger sends a component's log to the test's output, shown with -v or
// when the test fails.
func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// newTestSource is a Source with short retry waits, logging to the test.
func newTestSource(t *testing.T, cli *clientv3.Client, key string, opts ...Option) *Source {
	opts = append([]Option{WithBackoff(20*time.Millisecond, 200*time.Millisecond), WithLogger(testLogger(t))}, opts...)
	return NewSource(cli, key, opts...)
}

func put(t *testing.T, cli *clientv3.Client, key, value string) int64 {
	t.Helper()
	resp, err := cli.Put(context.Background(), key, value)
	if err != nil {
		t.Fatalf("put %s: %v", key, err)
	}
	return resp.Header.Revision
}

func get(t *testing.T, cli *clientv3.Client, key string) (value string, modRev int64) {
	t.Helper()
	resp, err := cli.Get(context.Background(), key)
	if err != nil {
		t.Fatalf("get %s: %v", key, err)
	}
	if len(resp.Kvs) == 0 {
		return "", 0
	}
	return string(resp.Kvs[0].Value), resp.Kvs[0].ModRevision
}

// appliedSets records every set a Watcher hands its applier, standing in for
// the runtime (whose rules are global to the process) so several watchers
// can run side by side in one test.
type appliedSets struct {
	mu      sync.Mutex
	sets    []rules.Set
	at      []time.Time
	changed chan struct{} // closed and replaced on every apply
}

func newAppliedSets() *appliedSets { return &appliedSets{changed: make(chan struct{})} }

func (a *appliedSets) apply(s rules.Set) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sets = append(a.sets, s)
	a.at = append(a.at, time.Now())
	close(a.changed)
	a.changed = make(chan struct{})
	return nil
}

// snapshot returns the sets applied so far and the time of each.
func (a *appliedSets) snapshot() ([]rules.Set, []time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]rules.Set(nil), a.sets...), append([]time.Time(nil), a.at...)
}

// waitCount waits until at least n sets have been applied and returns them.
func (a *appliedSets) waitCount(t *testing.T, n int) []rules.Set {
	t.Helper()
	deadline := time.After(waitTimeout)
	for {
		a.mu.Lock()
		sets, changed := append([]rules.Set(nil), a.sets...), a.changed
		a.mu.Unlock()
		if len(sets) >= n {
			return sets
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("%d sets applied after %v, want %d", len(sets), waitTimeout, n)
		}
	}
}

// watch starts datasource.Watch on src with a capturing applier; the watch ends
// with the test.
func watch(t *testing.T, src datasource.Source, opts ...datasource.WatchOption) (*datasource.Watcher, *appliedSets) {
	t.Helper()
	applied := newAppliedSets()
	opts = append([]datasource.WatchOption{datasource.WithApplier(applied.apply), datasource.WithLogger(testLogger(t)),
		datasource.WithInitialTimeout(waitTimeout)}, opts...)
	w := st.StartWatcher(t, src, opts...)
	return w, applied
}

// server starts etcd for one test and returns it with a client.
func server(t *testing.T) (*etcdtest.Server, *clientv3.Client) {
	t.Helper()
	srv := etcdtest.Start(t)
	return srv, etcdtest.NewClient(t, srv.Endpoint())
}

// settled waits until w has counted n applied updates. The applier runs
// before the watcher counts an update and clears its LastError, so a test
// that saw the applier called waits for this before checking either.
func settled(t *testing.T, w *datasource.Watcher, n uint64) {
	t.Helper()
	waitUntil(t, "the watcher has counted "+strconv.FormatUint(n, 10)+" updates", func() bool { return w.Applied() >= n })
}
