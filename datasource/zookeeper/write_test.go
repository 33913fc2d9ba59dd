package zookeeper

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
	"github.com/sentinelgen/sentinelgen/rules"
	"github.com/sentinelgen/sentinelgen/runtime"
)

func TestWriteOnlyTheKindsThatDiffer(t *testing.T) {
	addr := needServer(t)
	c := client(t, addr)
	app := testApp(t)
	flow, degrade := DefaultPath("", app, rules.KindFlow), DefaultPath("", app, rules.KindDegrade)
	degradeJSON := `[{"resource":"createOrder","grade":2,"count":3,"timeWindow":5}]`
	put(t, c, flow, flowJSON("10"))
	put(t, c, degrade, degradeJSON)
	src := newTestSource(t, addr, nil)
	w, _ := watch(t, src)
	set := w.Property().Get()
	set.Flow = parseFlow(t, flowJSON("20")).Flow
	if err := src.Write(context.Background(), set); err != nil {
		t.Fatalf("Write: %v", err)
	}
	if got := stored(t, c, flow); !strings.Contains(got, `"count": 20`) {
		t.Errorf("flow node holds %q, want the new rules", got)
	}
	if got := stored(t, c, degrade); got != degradeJSON {
		t.Errorf("degrade node rewritten to %q, want it untouched (%q)", got, degradeJSON)
	}
	waitUntil(t, "the write comes back through the watch", func() bool {
		c := st.FlowCounts(w.Property().Get())
		return len(c) == 1 && c[0] == 20
	})
}

func TestWriteCreatesMissingNodesAndParents(t *testing.T) {
	addr := needServer(t)
	c := client(t, addr)
	path := "/" + testApp(t) + "/deep/flow"
	src := newTestSource(t, addr, func(cfg *Config) {
		cfg.Paths = map[rules.Kind]string{rules.KindFlow: path}
		cfg.Kinds = []rules.Kind{rules.KindFlow, rules.KindDegrade}
	})
	set := parseFlow(t, flowJSON("15"))
	if err := src.Write(context.Background(), set); err != nil {
		t.Fatalf("Write: %v", err)
	}
	if got := stored(t, c, path); !strings.Contains(got, `"count": 15`) {
		t.Errorf("node %s holds %q, want the written rules", path, got)
	}
	if got := stored(t, c, DefaultPath("", testApp(t), rules.KindDegrade)); got != "" {
		t.Errorf("the degrade node, with no rules to hold, was created with %q", got)
	}
}

func TestWriteCompareAndSwapRetriesOnFreshContent(t *testing.T) {
	addr := needServer(t)
	c := client(t, addr)
	app := testApp(t)
	path := DefaultPath("", app, rules.KindFlow)
	put(t, c, path, flowJSON("10"))

	// Two writers read the same content.
	first := newTestSource(t, addr, nil)
	second := newTestSource(t, addr, nil)
	w1, _ := watch(t, first)
	w2, _ := watch(t, second)
	base := w2.Property().Get()
	staleBase, _ := second.baseOf(path)

	set := w1.Property().Get()
	set.Flow = parseFlow(t, flowJSON("20")).Flow
	if err := first.Write(context.Background(), set); err != nil {
		t.Fatalf("first Write: %v", err)
	}
	// The second writer's watch has seen it: nothing changes its base below.
	waitUntil(t, "the second writer sees the first write", func() bool {
		c := st.FlowCounts(w2.Property().Get())
		return len(c) == 1 && c[0] == 20
	})

	// The second writer's base is made stale again, as if it had read
	// before the first write; with no retries the conflict is reported and
	// nothing is written.
	second.cfg.ConflictRetries = -1
	second.setBase(path, staleBase)
	stale := base
	stale.Flow = parseFlow(t, flowJSON("30")).Flow
	err := second.Write(context.Background(), stale)
	if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), path) {
		t.Fatalf("stale Write = %v, want ErrConflict naming %s", err, path)
	}
	if got := stored(t, c, path); !strings.Contains(got, `"count": 20`) {
		t.Fatalf("stored %q after the refused write, want the first writer's rules", got)
	}

	// With retries it sets the node again on the fresh version.
	second.cfg.ConflictRetries = 3
	second.setBase(path, staleBase)
	if err := second.Write(context.Background(), stale); err != nil {
		t.Fatalf("Write with retries: %v", err)
	}
	if got := stored(t, c, path); !strings.Contains(got, `"count": 30`) {
		t.Errorf("stored %q after the retried write, want the second writer's rules", got)
	}
}

func TestWriteConflictOnANodeCreatedMeanwhile(t *testing.T) {
	addr := needServer(t)
	c := client(t, addr)
	path := DefaultPath("", testApp(t), rules.KindFlow)
	src := newTestSource(t, addr, func(cfg *Config) { cfg.Kinds = []rules.Kind{rules.KindFlow} })
	src.setBase(path, node{version: -1}) // read while missing
	put(t, c, path, flowJSON("10"))      // another writer creates it

	src.cfg.ConflictRetries = -1
	if err := src.Write(context.Background(), parseFlow(t, flowJSON("25"))); !errors.Is(err, ErrConflict) {
		t.Fatalf("Write over a node created meanwhile = %v, want ErrConflict", err)
	}
	if got := stored(t, c, path); got != flowJSON("10") {
		t.Errorf("stored %q, want the other writer's content", got)
	}
}

func TestPersistWritesRuntimeChangesBackToZooKeeper(t *testing.T) {
	addr := needServer(t)
	t.Cleanup(func() { runtime.LoadRules(runtime.Rules{}) })
	c := client(t, addr)
	path := DefaultPath("", testApp(t), rules.KindFlow)
	put(t, c, path, `[{"resource":"zkPersist","grade":1,"count":5}]`)
	w := st.StartWatcher(t, newTestSource(t, addr, nil), datasource.WithLogger(testLogger(t)), datasource.WithInitialTimeout(waitTimeout))
	stop, err := w.Persist(datasource.WithLogger(testLogger(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer stop()

	// A change through the runtime API (as a dashboard push makes) lands
	// in the node and comes back through the watch.
	if err := runtime.LoadFlowRules([]runtime.FlowRule{{Resource: "zkPersist", Grade: runtime.FlowGradeQPS, Count: 9}}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the change is in the node", func() bool { return strings.Contains(stored(t, c, path), `"count": 9`) })
	waitUntil(t, "the watch has read the write back", func() bool {
		return slices.Equal(st.FlowCounts(w.Property().Get()), []float64{9})
	})
	if got := st.RuntimeCount(t, "zkPersist"); got != 9 {
		t.Errorf("runtime count %v after the write-back, want 9", got)
	}
	if err := w.LastError(); err != nil {
		t.Errorf("LastError() = %v", err)
	}
}

func TestWriteGivesUpWhileZooKeeperIsDown(t *testing.T) {
	src := newTestSource(t, "127.0.0.1:1", func(c *Config) { c.Timeout = 300 * time.Millisecond })
	start := time.Now()
	err := src.Write(context.Background(), parseFlow(t, flowJSON("1")))
	if err == nil || errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "no session") {
		t.Fatalf("Write with ZooKeeper down = %v, want an error saying no session was had", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("Write took %v with ZooKeeper down, want about the 300ms timeout", took)
	}
}
