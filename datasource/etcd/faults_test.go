package etcd

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/datasource/etcd/internal/etcdtest"
	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// etcd restarted with an empty data directory comes back as the same cluster
// and member with its revision back at 1. The source finds the history
// replaced and follows the new one: an update written after the restart is
// applied within 10 s, with the default probe timings.
func TestRestartWithEmptyDataIsFollowed(t *testing.T) {
	srv, admin := server(t)
	for i := range 5 { // the watch's revision well above the new history's
		put(t, admin, ordersKey, flowDoc(10+i))
	}
	cli := etcdtest.NewClient(t, srv.Endpoint())
	src := NewSource(cli, ordersKey, WithBackoff(20*time.Millisecond, 200*time.Millisecond), WithLogger(testLogger(t)))
	w, applied := watch(t, src)
	applied.waitCount(t, 1)

	srv.RestartEmpty()
	written := time.Now()
	put(t, admin, ordersKey, flowDoc(20))
	sets := applied.waitCount(t, 2)
	_, at := applied.snapshot()
	if got := st.FlowCounts(sets[len(sets)-1]); !slices.Equal(got, []float64{20}) {
		t.Fatalf("applied flow counts %v after the restart, want [20]", got)
	}
	if lag := at[len(at)-1].Sub(written); lag > 10*time.Second {
		t.Errorf("the update was applied %v after it was written, want within 10s", lag)
	} else {
		t.Logf("applied %v after it was written", lag)
	}
	if src.resyncs.Load() == 0 {
		t.Error("no re-read counted for the replaced history")
	}
	// And the watch follows the new history from there.
	put(t, admin, ordersKey, flowDoc(30))
	waitUntil(t, "the next update is applied", func() bool {
		sets, _ := applied.snapshot()
		return slices.Equal(st.FlowCounts(sets[len(sets)-1]), []float64{30})
	})
	waitUntil(t, "LastError clears", func() bool { return w.LastError() == nil })
}

// A hung etcd (SIGSTOP: connections open, nothing answered) is reported
// while the rules in force stay; once it runs again the report clears and
// updates apply.
func TestHungServerIsReported(t *testing.T) {
	srv, admin := server(t)
	put(t, admin, ordersKey, flowDoc(10))
	cli := etcdtest.NewClient(t, srv.Endpoint())
	w, applied := watch(t, newTestSource(t, cli, ordersKey, WithProbe(200*time.Millisecond, 500*time.Millisecond)))
	applied.waitCount(t, 1)
	settled(t, w, 1)

	srv.Pause()
	paused := time.Now()
	waitUntil(t, "the hung server is reported", func() bool { return w.LastError() != nil })
	if d := time.Since(paused); d > 15*time.Second {
		t.Errorf("reported %v after the server hung, want within 15s", d)
	}
	t.Logf("reported %v after the server hung: %v", time.Since(paused), w.LastError())
	if got := st.FlowCounts(w.Property().Get()); !slices.Equal(got, []float64{10}) {
		t.Errorf("property holds %v while etcd hangs, want [10]", got)
	}
	if sets, _ := applied.snapshot(); len(sets) != 1 {
		t.Errorf("%d sets applied while etcd hangs, want the first only", len(sets))
	}

	srv.Resume()
	waitUntil(t, "the watcher is good again", func() bool { return w.LastError() == nil })
	put(t, admin, ordersKey, flowDoc(20))
	if got := st.FlowCounts(applied.waitCount(t, 2)[1]); !slices.Equal(got, []float64{20}) {
		t.Errorf("applied flow counts %v after the server resumed, want [20]", got)
	}
}

// With the default timings a hung server is reported within 15 s: the next
// probe starts within the interval and gives up after the timeout.
func TestDefaultProbeReportsAHangWithin15s(t *testing.T) {
	c := newConfig(nil)
	if c.probeInterval != DefaultProbeInterval || c.probeTimeout != DefaultProbeTimeout {
		t.Fatalf("default probe %v/%v, want %v/%v", c.probeInterval, c.probeTimeout, DefaultProbeInterval, DefaultProbeTimeout)
	}
	if bound := c.probeInterval + c.probeTimeout; bound > 15*time.Second {
		t.Errorf("a hang is reported up to %v after it starts, want at most 15s", bound)
	}
}

// A deleted key is a gone document: the last good rules stay and the loss is
// reported (datasource.ErrGone), unless the watcher opts into "gone means
// empty". The same holds for a prefix once its last key is deleted; a key
// written again applies.
func TestDeletedKeyIsGone(t *testing.T) {
	for _, tc := range []struct {
		name   string
		key    string // the source's key
		docs   []string
		prefix bool
		empty  bool // WithGoneMeansEmpty
	}{
		{"key keeps the rules", ordersKey, []string{ordersKey}, false, false},
		{"key gone means empty", ordersKey, []string{ordersKey}, false, true},
		{"prefix keeps the rules", "/sentinel/orders/", []string{"/sentinel/orders/a.toml", "/sentinel/orders/b.toml"}, true, false},
		{"prefix gone means empty", "/sentinel/orders/", []string{"/sentinel/orders/a.toml", "/sentinel/orders/b.toml"}, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, cli := server(t)
			for i, k := range tc.docs {
				put(t, cli, k, flowDoc(10+i))
			}
			var opts []Option
			if tc.prefix {
				opts = append(opts, WithPrefix())
			}
			var wopts []datasource.WatchOption
			if tc.empty {
				wopts = append(wopts, datasource.WithGoneMeansEmpty())
			}
			w, applied := watch(t, newTestSource(t, cli, tc.key, opts...), wopts...)
			first := st.FlowCounts(applied.waitCount(t, 1)[0])
			settled(t, w, 1)

			// Every document at once (one revision): deleting them one by
			// one would first push the remaining ones.
			var del []clientv3.OpOption
			if tc.prefix {
				del = append(del, clientv3.WithPrefix())
			}
			if _, err := cli.Delete(context.Background(), tc.key, del...); err != nil {
				t.Fatal(err)
			}
			if tc.empty {
				waitUntil(t, "an empty set is applied", func() bool {
					sets, _ := applied.snapshot()
					return len(st.FlowCounts(sets[len(sets)-1])) == 0
				})
			} else {
				waitUntil(t, "the loss is reported", func() bool { return errors.Is(w.LastError(), datasource.ErrGone) })
				time.Sleep(100 * time.Millisecond)
				sets, _ := applied.snapshot()
				if got := st.FlowCounts(sets[len(sets)-1]); !slices.Equal(got, first) {
					t.Errorf("last set applied %v with the documents gone, want %v kept", got, first)
				}
				if got := st.FlowCounts(w.Property().Get()); !slices.Equal(got, first) {
					t.Errorf("property holds %v with the documents gone, want %v", got, first)
				}
			}

			put(t, cli, tc.docs[0], flowDoc(30))
			waitUntil(t, "the returned document applies", func() bool {
				sets, _ := applied.snapshot()
				return slices.Equal(st.FlowCounts(sets[len(sets)-1]), []float64{30})
			})
			waitUntil(t, "LastError clears", func() bool { return w.LastError() == nil })
		})
	}
}
