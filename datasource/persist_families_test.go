package datasource_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/datasource/file"
	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
	"github.com/sentinelgen/sentinelgen/rules"
	sentinel "github.com/sentinelgen/sentinelgen/runtime"
)

// A change of only a param-flow, system or authority rule, made through the
// runtime's own loader for that kind, is written back; after a restart every
// kind is in force again.
func TestPersistWritesChangesOfEveryKind(t *testing.T) {
	st.ResetRules(t)
	path := filepath.Join(t.TempDir(), "rules.toml")
	st.WriteFile(t, path, st.AllKindsTOML("persist.k", 2))
	w, _ := watchFile(t, path)
	stop, err := w.Persist(datasource.WithDebounce(1))
	if err != nil {
		t.Fatal(err)
	}
	defer stop()

	changes := []struct {
		name string
		load func() error
	}{
		{"param-flow", func() error {
			return sentinel.LoadParamFlowRules([]sentinel.ParamFlowRule{{Resource: "persist.k", ParamIdx: 1, Count: 8}})
		}},
		{"system", func() error {
			return sentinel.LoadSystemRules([]sentinel.SystemRule{{HighestSystemLoad: -1, HighestCPUUsage: -1, QPS: 77, AvgRT: 20, MaxThread: -1}})
		}},
		{"authority", func() error {
			return sentinel.LoadAuthorityRules([]sentinel.AuthorityRule{{Resource: "persist.k", LimitApp: "app-z"}})
		}},
	}
	for _, c := range changes {
		if err := c.load(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want := rules.Current()
		st.WaitUntil(t, "the "+c.name+" change is written", func() bool { return fileHolds(path, want) })
		// The next change waits until the watcher has read this write
		// back; a change made earlier could be undone by the watcher
		// putting the older file in force (see Watcher.Persist).
		st.WaitUntil(t, "the watcher reads the write back", func() bool { return w.Property().Get().Equal(want) })
	}
	persisted := rules.Current()
	if len(persisted.Flow) != 1 || len(persisted.Degrade) != 1 {
		t.Fatalf("flow and degrade rules lost: %+v", persisted)
	}

	stop()
	if err := sentinel.LoadRules(sentinel.Rules{}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w2, err := datasource.Watch(ctx, file.New(path))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); <-w2.Done() }()
	if got := st.AllKindsInForce(); got != "param:8 system:77 authority:app-z" || !rules.Current().Equal(persisted) {
		t.Errorf("after restart %s / %+v, want the persisted %+v", got, rules.Current(), persisted)
	}
}
