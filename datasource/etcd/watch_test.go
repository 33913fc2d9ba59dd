package etcd

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/datasource/etcd/internal/etcdtest"
	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
	"github.com/sentinelgen/sentinelgen/internal/cutproxy"
	"github.com/sentinelgen/sentinelgen/runtime"
)

const ordersKey = "/sentinel/orders/rules.toml"

func TestUpdateReachesEveryInstanceWithinOneSecond(t *testing.T) {
	srv, admin := server(t)
	put(t, admin, ordersKey, flowDoc(10))

	// Three instances: each its own client, source and watcher.
	var instances []*appliedSets
	for range 3 {
		cli := etcdtest.NewClient(t, srv.Endpoint())
		_, applied := watch(t, newTestSource(t, cli, "/sentinel/orders/", WithPrefix()))
		instances = append(instances, applied)
	}
	for i, applied := range instances {
		if got := st.FlowCounts(applied.waitCount(t, 1)[0]); !slices.Equal(got, []float64{10}) {
			t.Fatalf("instance %d started with flow counts %v, want [10]", i, got)
		}
	}

	written := time.Now() // before the put: a lag measured from it is an upper bound
	put(t, admin, ordersKey, flowDoc(20))
	for i, applied := range instances {
		applied.waitCount(t, 2)
		sets, at := applied.snapshot()
		if got := st.FlowCounts(sets[1]); !slices.Equal(got, []float64{20}) {
			t.Errorf("instance %d applied flow counts %v, want [20]", i, got)
		}
		if lag := at[1].Sub(written); lag > time.Second {
			t.Errorf("instance %d applied the update %v after it was written, want within 1s", i, lag)
		} else {
			t.Logf("instance %d applied the update %v after it was written", i, lag)
		}
	}
}

func TestUpdateReachesTheRuntime(t *testing.T) {
	t.Cleanup(func() { runtime.LoadRules(runtime.Rules{}) })
	_, cli := server(t)
	key := "/sentinel/orders/flow.json"
	put(t, cli, key, `[{"resource":"etcdE2E","count":5}]`)

	w := st.StartWatcher(t, newTestSource(t, cli, key), datasource.WithLogger(testLogger(t)), datasource.WithInitialTimeout(waitTimeout))
	if got := st.RuntimeCount(t, "etcdE2E"); got != 5 {
		t.Fatalf("runtime flow count %v after start, want 5", got)
	}

	put(t, cli, key, `[{"resource":"etcdE2E","count":7}]`)
	deadline := time.Now().Add(time.Second)
	for st.RuntimeCount(t, "etcdE2E") != 7 {
		if time.Now().After(deadline) {
			t.Fatalf("runtime flow count %v one second after the update, want 7 (watcher error: %v)",
				st.RuntimeCount(t, "etcdE2E"), w.LastError())
		}
		time.Sleep(5 * time.Millisecond)
	}
	settled(t, w, 2)
	if w.Applied() != 2 {
		t.Errorf("Applied() = %d, want 2", w.Applied())
	}
}

func TestMalformedUpdateChangesNothing(t *testing.T) {
	_, cli := server(t)
	put(t, cli, ordersKey, flowDoc(10))
	w, applied := watch(t, newTestSource(t, cli, "/sentinel/orders/", WithPrefix()))
	applied.waitCount(t, 1)

	// Line 3 holds a negative count.
	put(t, cli, ordersKey, "[[flow]]\nresource = \"createOrder\"\ncount = -3\n")
	waitUntil(t, "the malformed update is rejected", func() bool { return w.Rejected() == 1 })

	err := w.LastError()
	if err == nil || !strings.Contains(err.Error(), "etcd:"+ordersKey+":3") {
		t.Errorf("LastError() = %v, want it positioned at etcd:%s:3", err, ordersKey)
	}
	if got := st.FlowCounts(w.Property().Get()); !slices.Equal(got, []float64{10}) {
		t.Errorf("property holds flow counts %v after the bad update, want the last good [10]", got)
	}
	if sets, _ := applied.snapshot(); len(sets) != 1 {
		t.Errorf("%d sets applied, want 1: the bad update must not reach the applier", len(sets))
	}

	// A good update afterwards applies and clears the error.
	put(t, cli, ordersKey, flowDoc(30))
	if got := st.FlowCounts(applied.waitCount(t, 2)[1]); !slices.Equal(got, []float64{30}) {
		t.Errorf("applied flow counts %v after the fix, want [30]", got)
	}
	settled(t, w, 2)
	if err := w.LastError(); err != nil {
		t.Errorf("LastError() = %v after a good update, want nil", err)
	}
}

func TestWatchResumesAfterEtcdRestart(t *testing.T) {
	srv, admin := server(t)
	put(t, admin, ordersKey, flowDoc(10))
	cli := etcdtest.NewClient(t, srv.Endpoint())
	w, applied := watch(t, newTestSource(t, cli, "/sentinel/orders/", WithPrefix()))
	applied.waitCount(t, 1)
	// An update through the watch: it is established before etcd goes.
	put(t, admin, "/sentinel/orders/extra.toml", flowDoc(11))
	applied.waitCount(t, 2)

	srv.Kill()
	// The outage is reported; the rules in force stay.
	waitUntil(t, "the outage is reported", func() bool { return w.LastError() != nil })
	t.Logf("reported while etcd is down: %v", w.LastError())
	if got := st.FlowCounts(w.Property().Get()); !slices.Equal(got, []float64{11, 10}) {
		t.Fatalf("property holds %v while etcd is down, want [11 10]", got)
	}
	srv.Restart()
	// Back without a change: the error clears and nothing is applied.
	waitUntil(t, "the watcher is good again", func() bool { return w.LastError() == nil })

	// The next two updates apply once each, in order.
	put(t, admin, ordersKey, flowDoc(20))
	applied.waitCount(t, 3)
	put(t, admin, ordersKey, flowDoc(30))
	applied.waitCount(t, 4)
	sets, _ := applied.snapshot()
	var got [][]float64
	for _, s := range sets {
		got = append(got, st.FlowCounts(s))
	}
	want := [][]float64{{10}, {11, 10}, {11, 20}, {11, 30}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("applied sets %v, want %v: each update exactly once", got, want)
	}
	settled(t, w, 4)
	if w.Applied() != 4 {
		t.Errorf("Applied() = %d, want 4", w.Applied())
	}
	if err := w.LastError(); err != nil {
		t.Errorf("LastError() = %v after the restart and an update, want nil", err)
	}
}

func TestCompactedRevisionTriggersFullRead(t *testing.T) {
	srv, admin := server(t)
	put(t, admin, ordersKey, flowDoc(10))
	proxy := cutproxy.New(t, strings.TrimPrefix(srv.Endpoint(), "http://"))
	cli := etcdtest.NewClient(t, "http://"+proxy.Addr())
	src := newTestSource(t, cli, "/sentinel/orders/", WithPrefix())
	w, applied := watch(t, src)
	applied.waitCount(t, 1)

	// The instance loses etcd; meanwhile the rules change and the history
	// it would resume from is compacted away.
	proxy.Cut()
	put(t, admin, ordersKey, flowDoc(20))
	rev := put(t, admin, "/sentinel/other", "unrelated")
	if _, err := admin.Compact(context.Background(), rev); err != nil {
		t.Fatalf("compact: %v", err)
	}
	proxy.Restore()

	if got := st.FlowCounts(applied.waitCount(t, 2)[1]); !slices.Equal(got, []float64{20}) {
		t.Errorf("applied flow counts %v after the re-read, want [20]", got)
	}
	if n := src.resyncs.Load(); n != 1 {
		t.Errorf("%d full re-reads, want 1", n)
	}
	// The re-read set is not applied twice: a later update is the third.
	put(t, admin, ordersKey, flowDoc(30))
	sets := applied.waitCount(t, 3)
	if len(sets) != 3 || !slices.Equal(st.FlowCounts(sets[2]), []float64{30}) {
		t.Errorf("applied %d sets, last %v; want 3 ending with [30]", len(sets), st.FlowCounts(sets[len(sets)-1]))
	}
	settled(t, w, 3)
	if w.Applied() != 3 {
		t.Errorf("Applied() = %d, want 3", w.Applied())
	}
}

func TestPrefixPushesTheWholeSet(t *testing.T) {
	_, cli := server(t)
	put(t, cli, "/sentinel/orders/a.toml", flowDoc(1))
	put(t, cli, "/sentinel/orders/b.toml", flowDoc(2))
	put(t, cli, "/sentinel/payments/c.toml", flowDoc(9)) // outside the prefix
	_, applied := watch(t, newTestSource(t, cli, "/sentinel/orders/", WithPrefix()))
	if got := st.FlowCounts(applied.waitCount(t, 1)[0]); !slices.Equal(got, []float64{1, 2}) {
		t.Fatalf("first set %v, want [1 2] (every key under the prefix, in key order)", got)
	}

	// A change to one key pushes all of them; a deleted key leaves the set.
	put(t, cli, "/sentinel/orders/b.toml", flowDoc(3))
	if got := st.FlowCounts(applied.waitCount(t, 2)[1]); !slices.Equal(got, []float64{1, 3}) {
		t.Errorf("after changing b: %v, want [1 3]", got)
	}
	if _, err := cli.Delete(context.Background(), "/sentinel/orders/a.toml"); err != nil {
		t.Fatal(err)
	}
	if got := st.FlowCounts(applied.waitCount(t, 3)[2]); !slices.Equal(got, []float64{3}) {
		t.Errorf("after deleting a: %v, want [3]", got)
	}
}

// waitUntil polls cond until it holds or waitTimeout passes.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestWatchFailsAtStartWhenEtcdDoesNotAnswer(t *testing.T) {
	srv, cli := server(t)
	srv.Kill()
	src := newTestSource(t, cli, ordersKey, WithRequestTimeout(200*time.Millisecond))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w, err := datasource.Watch(ctx, src, datasource.WithApplier(newAppliedSets().apply), datasource.WithLogger(testLogger(t)))
	if err == nil {
		cancel()
		<-w.Done()
		t.Fatal("datasource.Watch started with etcd down, want an error")
	}
	if !strings.Contains(err.Error(), "etcd:"+ordersKey) || !strings.Contains(err.Error(), "read failed") {
		t.Errorf("error %q, want it to name the source and the failed read", err)
	}
}
