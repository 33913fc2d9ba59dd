package etcd

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/datasource/etcd/internal/etcdtest"
	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
	"github.com/sentinelgen/sentinelgen/rules"
	"github.com/sentinelgen/sentinelgen/runtime"
)

func flowSet(counts ...float64) rules.Set {
	var s rules.Set
	for _, c := range counts {
		s.Flow = append(s.Flow, runtime.FlowRule{Resource: "createOrder", Grade: runtime.FlowGradeQPS, Count: c})
	}
	return s
}

func degradeSet() rules.Set {
	return rules.Set{Degrade: []runtime.DegradeRule{{
		Resource: "createOrder", Grade: runtime.DegradeErrorCount, Count: 5,
		TimeWindowSec: 1, MinRequestAmount: 5, StatIntervalMs: 1000,
	}}}
}

// stored parses what etcd holds at key the way a watcher would.
func stored(t *testing.T, src *Source, key string) rules.Set {
	t.Helper()
	value, _ := get(t, src.client, key)
	s, err := rules.Parse(src.document(key, []byte(value)))
	if err != nil {
		t.Fatalf("%s holds unreadable rules: %v\n%s", key, err, value)
	}
	return s
}

func TestWriteLosesToAConcurrentWriterWithErrConflict(t *testing.T) {
	srv, _ := server(t)
	const key = "/sentinel/orders/rules.toml"
	mine := newTestSource(t, etcdtest.NewClient(t, srv.Endpoint()), key)
	theirs := newTestSource(t, etcdtest.NewClient(t, srv.Endpoint()), key)
	put(t, mine.client, key, flowDoc(10))

	// Both read revision R; mine stops watching, so it still builds on R
	// when the other instance writes.
	ctx, stop := context.WithCancel(context.Background())
	w, err := datasource.Watch(ctx, mine, datasource.WithApplier(func(rules.Set) error { return nil }))
	if err != nil {
		t.Fatal(err)
	}
	stop()
	<-w.Done()
	if err := theirs.Write(context.Background(), flowSet(20)); err != nil {
		t.Fatalf("the first writer failed: %v", err)
	}

	err = mine.Write(context.Background(), flowSet(30))
	if !errors.Is(err, ErrConflict) {
		t.Fatalf("Write over a newer revision = %v, want ErrConflict", err)
	}
	if got := st.FlowCounts(stored(t, mine, key)); !slices.Equal(got, []float64{20}) {
		t.Fatalf("etcd holds %v after the losing write, want the winner's [20]", got)
	}

	// After re-reading, the retry succeeds.
	_, applied := watch(t, mine)
	if got := st.FlowCounts(applied.waitCount(t, 1)[0]); !slices.Equal(got, []float64{20}) {
		t.Fatalf("re-read %v, want [20]", got)
	}
	// The push is applied before the source takes its documents as Write's
	// base, so a write racing a push fails its compare instead of undoing
	// the newer rules; the retry waits for the base to move.
	_, rev := get(t, mine.client, key)
	waitUntil(t, "the re-read documents are Write's base", func() bool {
		mine.mu.Lock()
		defer mine.mu.Unlock()
		return mine.baseRev >= rev
	})
	if err := mine.Write(context.Background(), flowSet(30)); err != nil {
		t.Fatalf("Write after re-reading: %v", err)
	}
	if got := st.FlowCounts(stored(t, mine, key)); !slices.Equal(got, []float64{30}) {
		t.Errorf("etcd holds %v after the retry, want [30]", got)
	}
}

func TestWriteBuildsOnItsOwnEarlierWrite(t *testing.T) {
	_, cli := server(t)
	const key = "/sentinel/orders/rules.toml"
	put(t, cli, key, flowDoc(10))
	src := newTestSource(t, cli, key)
	// No watch: the second Write must compare against the first one's
	// revision, not the one read before it.
	for _, n := range []float64{11, 12} {
		if err := src.Write(context.Background(), flowSet(n)); err != nil {
			t.Fatalf("Write %v: %v", n, err)
		}
	}
	if got := st.FlowCounts(stored(t, src, key)); !slices.Equal(got, []float64{12}) {
		t.Errorf("etcd holds %v, want [12]", got)
	}
}

func TestWritePutsEachKindInItsKeyInOneTransaction(t *testing.T) {
	_, cli := server(t)
	const prefix = "/sentinel/orders/"
	put(t, cli, prefix+"flow.json", `[{"resource":"createOrder","count":1}]`)
	put(t, cli, prefix+"degrade.json", `[]`)
	src := newTestSource(t, cli, prefix, WithPrefix())
	_, applied := watch(t, src)
	applied.waitCount(t, 1)

	set := flowSet(40).Merge(degradeSet())
	if err := src.Write(context.Background(), set); err != nil {
		t.Fatal(err)
	}
	if got := stored(t, src, prefix+"flow.json"); !got.Equal(flowSet(40)) {
		t.Errorf("flow.json holds %+v, want the flow rules only", got)
	}
	if got := stored(t, src, prefix+"degrade.json"); !got.Equal(degradeSet()) {
		t.Errorf("degrade.json holds %+v, want the degrade rules only", got)
	}
	_, flowRev := get(t, cli, prefix+"flow.json")
	_, degradeRev := get(t, cli, prefix+"degrade.json")
	if flowRev != degradeRev {
		t.Errorf("flow.json at revision %d, degrade.json at %d: want one transaction", flowRev, degradeRev)
	}
	// The watch reads the write back as the same set.
	if got := applied.waitCount(t, 2)[1]; !got.Equal(set) {
		t.Errorf("watch delivered %+v after the write, want %+v", got, set)
	}

	// Writing the same set again sends nothing.
	if err := src.Write(context.Background(), set); err != nil {
		t.Fatal(err)
	}
	if _, rev := get(t, cli, prefix+"flow.json"); rev != flowRev {
		t.Errorf("an unchanged Write moved flow.json from revision %d to %d", flowRev, rev)
	}
}

func TestWriteCreatesKindKeysUnderAnEmptyPrefix(t *testing.T) {
	_, cli := server(t)
	src := newTestSource(t, cli, "/sentinel/new", WithPrefix())
	set := flowSet(5).Merge(degradeSet())
	if err := src.Write(context.Background(), set); err != nil {
		t.Fatal(err)
	}
	if got := stored(t, src, "/sentinel/new/flow.json"); !got.Equal(flowSet(5)) {
		t.Errorf("flow.json holds %+v", got)
	}
	if got := stored(t, src, "/sentinel/new/degrade.json"); !got.Equal(degradeSet()) {
		t.Errorf("degrade.json holds %+v", got)
	}
}

func TestPersistWritesRuntimeChangesBackToEtcd(t *testing.T) {
	t.Cleanup(func() { runtime.LoadRules(runtime.Rules{}) })
	_, cli := server(t)
	const key = "/sentinel/orders/flow.json"
	put(t, cli, key, `[{"resource":"etcdPersist","count":5}]`)
	src := newTestSource(t, cli, key)
	w := st.StartWatcher(t, src, datasource.WithLogger(testLogger(t)))
	stop, err := w.Persist(datasource.WithLogger(testLogger(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer stop()

	// A change through the runtime API lands in etcd and comes back
	// through the watch without being loaded a second time.
	var loads atomic.Int32
	unregister := runtime.OnFlowRulesChange(func([]runtime.FlowRule) { loads.Add(1) })
	defer unregister()
	loads.Store(0) // the call made at registration
	if err := runtime.LoadFlowRules([]runtime.FlowRule{{Resource: "etcdPersist", Grade: runtime.FlowGradeQPS, Count: 9}}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the change is in etcd", func() bool {
		s := stored(t, src, key)
		return len(s.Flow) == 1 && s.Flow[0].Count == 9
	})
	_, rev := get(t, cli, key)
	waitUntil(t, "the watch has pushed the write back", func() bool {
		src.mu.Lock()
		defer src.mu.Unlock()
		return src.baseRev >= rev
	})
	if got := st.RuntimeCount(t, "etcdPersist"); got != 9 {
		t.Errorf("runtime count %v after the write-back, want 9", got)
	}
	if n := loads.Load(); n != 1 {
		t.Errorf("flow rules loaded %d times, want once: the write read back is already in force", n)
	}
	if got := st.FlowCounts(w.Property().Get()); !slices.Equal(got, []float64{9}) {
		t.Errorf("watcher's property holds %v, want the written-back [9]", got)
	}
	if err := w.LastError(); err != nil {
		t.Errorf("LastError() = %v", err)
	}
}

func TestWriteGivesUpWhileEtcdIsDown(t *testing.T) {
	srv, cli := server(t)
	src := newTestSource(t, cli, "/sentinel/orders/rules.toml", WithRequestTimeout(200*time.Millisecond))
	srv.Kill()
	start := time.Now()
	err := src.Write(context.Background(), flowSet(1))
	if err == nil || errors.Is(err, ErrConflict) {
		t.Fatalf("Write with etcd down = %v, want an error that is not ErrConflict", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("Write took %v with etcd down, want about the 200ms request timeout", took)
	}
}
