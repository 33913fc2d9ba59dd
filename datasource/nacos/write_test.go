package nacos

import (
	"context"
	"errors"
	"strings"
	"testing"

	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
	"github.com/sentinelgen/sentinelgen/rules"
)

// parseFlow reads a flow document as Sentinel's JSON.
func parseFlow(t *testing.T, data string) rules.Set {
	t.Helper()
	s, err := rules.Parse(rules.Document{Name: "flow", Data: []byte(data), Format: rules.FormatJSON, Kind: rules.KindFlow})
	if err != nil {
		t.Fatalf("parse %q: %v", data, err)
	}
	return s
}

func TestWriteOnlyTheKindsThatDiffer(t *testing.T) {
	addr := needServer(t)
	app := testApp(t)
	degrade := `[{"resource":"createOrder","grade":2,"count":3,"timeWindow":5}]`
	publish(t, addr, app+"-flow-rules", flowJSON("10"))
	publish(t, addr, app+"-degrade-rules", degrade)
	waitUntil(t, "both dataIds are readable", func() bool {
		return stored(t, addr, app+"-flow-rules") != "" && stored(t, addr, app+"-degrade-rules") != ""
	})
	src := newTestSource(t, addr, nil)
	w, _ := watch(t, src)
	set := w.Property().Get()
	set.Flow = parseFlow(t, flowJSON("20")).Flow
	if err := src.Write(context.Background(), set); err != nil {
		t.Fatalf("Write: %v", err)
	}
	waitUntil(t, "the flow dataId holds the new rules", func() bool {
		return strings.Contains(stored(t, addr, app+"-flow-rules"), `"count": 20`)
	})
	if got := stored(t, addr, app+"-degrade-rules"); got != degrade {
		t.Errorf("degrade dataId rewritten to %q, want it untouched (%q)", got, degrade)
	}
	waitUntil(t, "the write comes back through the watch", func() bool {
		c := st.FlowCounts(w.Property().Get())
		return len(c) == 1 && c[0] == 20
	})
}

func TestWriteCompareAndSwapRetriesOnFreshContent(t *testing.T) {
	addr := needServer(t)
	app := testApp(t)
	id := app + "-flow-rules"
	publish(t, addr, id, flowJSON("10"))
	waitUntil(t, "the dataId is readable", func() bool { return stored(t, addr, id) != "" })

	// Two writers read the same content.
	first := newTestSource(t, addr, nil)
	second := newTestSource(t, addr, nil)
	w1, _ := watch(t, first)
	w2, _ := watch(t, second)
	base := w2.Property().Get()

	set := w1.Property().Get()
	set.Flow = parseFlow(t, flowJSON("20")).Flow
	if err := first.Write(context.Background(), set); err != nil {
		t.Fatalf("first Write: %v", err)
	}
	waitUntil(t, "the first write is stored", func() bool { return strings.Contains(stored(t, addr, id), `"count": 20`) })
	// The second writer's watch has seen it: nothing changes its base below.
	waitUntil(t, "the second writer sees the first write", func() bool {
		c := st.FlowCounts(w2.Property().Get())
		return len(c) == 1 && c[0] == 20
	})

	// The second writer's base is made stale again, as if it had read
	// before the first write; with no retries the conflict is reported and
	// nothing is written.
	second.cfg.ConflictRetries = -1
	second.setBase(id, flowJSON("10"))
	stale := base
	stale.Flow = parseFlow(t, flowJSON("30")).Flow
	err := second.Write(context.Background(), stale)
	if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), id) {
		t.Fatalf("stale Write = %v, want ErrConflict naming %s", err, id)
	}
	if got := stored(t, addr, id); !strings.Contains(got, `"count": 20`) {
		t.Fatalf("stored %q after the refused write, want the first writer's rules", got)
	}

	// With retries it publishes again on the fresh content.
	second.cfg.ConflictRetries = 3
	second.setBase(id, flowJSON("10"))
	if err := second.Write(context.Background(), stale); err != nil {
		t.Fatalf("Write with retries: %v", err)
	}
	waitUntil(t, "the retried write is stored", func() bool { return strings.Contains(stored(t, addr, id), `"count": 30`) })
}
