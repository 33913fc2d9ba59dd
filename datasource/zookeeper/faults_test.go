package zookeeper

import (
	"slices"
	"strings"
	"testing"

	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
	"github.com/sentinelgen/sentinelgen/datasource/zookeeper/internal/zktest"
	"github.com/sentinelgen/sentinelgen/rules"
)

// TestServerStoppedAndRestarted stops ZooKeeper under a running source: the
// outage is reported, the last good rules stay, and a change made while the
// source was cut off is applied once it is back.
func TestServerStoppedAndRestarted(t *testing.T) {
	srv := ownServer(t)
	proxy := zktest.NewProxy(t, srv.Addr)
	path := DefaultPath("", testApp(t), rules.KindFlow)
	put(t, client(t, srv.Addr), path, flowJSON("10"))
	w, applied := watch(t, newTestSource(t, proxy.Addr(), nil))
	if s, _ := applied.last(); !slices.Equal(st.FlowCounts(s), []float64{10}) {
		t.Fatalf("first set %v, want [10]", st.FlowCounts(s))
	}

	// ZooKeeper stops; the source stays cut off while it comes back and a
	// change is made, so the change happens while the source cannot see it.
	proxy.Cut()
	srv.Stop()
	waitUntil(t, "the outage is reported", func() bool { return w.LastError() != nil })
	if err := w.LastError(); !strings.Contains(err.Error(), "until ZooKeeper answers") {
		t.Errorf("LastError() = %v, want the outage", err)
	}
	if got := st.FlowCounts(w.Property().Get()); !slices.Equal(got, []float64{10}) {
		t.Errorf("rules in force %v during the outage, want the last good [10]", got)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	put(t, client(t, srv.Addr), path, flowJSON("20"))
	proxy.Restore()

	waitUntil(t, "the change made meanwhile is applied", func() bool {
		s, _ := applied.last()
		return slices.Equal(st.FlowCounts(s), []float64{20})
	})
	waitUntil(t, "the outage is cleared", func() bool { return w.LastError() == nil })

	// The watch is armed again: a later change is applied too.
	put(t, client(t, srv.Addr), path, flowJSON("30"))
	waitUntil(t, "a later change is applied", func() bool {
		s, _ := applied.last()
		return slices.Equal(st.FlowCounts(s), []float64{30})
	})
}
