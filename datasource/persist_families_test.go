package datasource_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// A file naming its parameters (param = "sku") is put in force with the
// index, and Watcher.Persist does not write it back with indexes: it is in
// force as it is.
func TestPersistKeepsParameterNames(t *testing.T) {
	st.ResetRules(t)
	sentinel.NewResource("persist.names", sentinel.WithParamNames("region", "sku"))
	path := filepath.Join(t.TempDir(), "rules.toml")
	content := st.FlowTOML("persist.names", 3) + "[[paramFlow]]\nresource = \"persist.names\"\nparam = \"sku\"\ncount = 5\n"
	st.WriteFile(t, path, content)
	w, _ := watchFile(t, path)
	stop, err := w.Persist(datasource.WithDebounce(1))
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if got := sentinel.ParamFlowRules(); len(got) != 1 || got[0].ParamIdx != 1 {
		t.Fatalf("param-flow rules in force %+v, want ParamIdx 1", got)
	}
	// An edit of the file is applied, and not written back: with the name
	// kept beside the rule, the rules read would not equal those in force
	// (which hold the index), and Persist would rewrite the file with it.
	edited := strings.Replace(content, "count = 3", "count = 4", 1)
	st.ReplaceFile(t, path, edited)
	st.WaitUntil(t, "the edit applies", func() bool { return w.Applied() == 2 })
	time.Sleep(10 * testPoll)
	if data, _ := os.ReadFile(path); string(data) != edited {
		t.Fatalf("file rewritten:\n%s", data)
	}
	if got := sentinel.FlowRules(); len(got) != 1 || got[0].Count != 4 {
		t.Errorf("flow rules %+v", got)
	}
}
