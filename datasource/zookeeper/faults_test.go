package zookeeper

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
	"github.com/sentinelgen/sentinelgen/internal/cutproxy"
	"github.com/sentinelgen/sentinelgen/rules"
)

// TestServerStoppedAndRestarted stops ZooKeeper under a running source: the
// outage is reported, the last good rules stay, and a change made while the
// source was cut off is applied once it is back.
func TestServerStoppedAndRestarted(t *testing.T) {
	srv := ownServer(t)
	proxy := cutproxy.New(t, srv.Addr)
	path := DefaultPath("", testApp(t), rules.KindFlow)
	put(t, client(t, srv.Addr), path, flowJSON("10"))
	w, applied := watch(t, newTestSource(t, proxy.Addr(), nil))
	if s, _ := applied.Last(); !slices.Equal(st.FlowCounts(s), []float64{10}) {
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
		s, _ := applied.Last()
		return slices.Equal(st.FlowCounts(s), []float64{20})
	})
	waitUntil(t, "the outage is cleared", func() bool { return w.LastError() == nil })

	// The watch is armed again: a later change is applied too.
	put(t, client(t, srv.Addr), path, flowJSON("30"))
	waitUntil(t, "a later change is applied", func() bool {
		s, _ := applied.Last()
		return slices.Equal(st.FlowCounts(s), []float64{30})
	})
}

// TestSessionExpiry cuts a source off longer than its session lives: its
// watches are gone with the session, so the source reads every node again
// on the new one and arms their watches anew.
func TestSessionExpiry(t *testing.T) {
	addr := needServer(t)
	c := client(t, addr)
	proxy := cutproxy.New(t, addr)
	path := DefaultPath("", testApp(t), rules.KindFlow)
	put(t, c, path, flowJSON("10"))
	src := newTestSource(t, proxy.Addr(), func(cfg *Config) { cfg.SessionTimeout = time.Second })
	w, applied := watch(t, src)
	conn, _ := src.client()
	session := conn.SessionID()

	proxy.Cut()
	waitUntil(t, "the outage is reported", func() bool { return w.LastError() != nil })
	put(t, c, path, flowJSON("20"))
	time.Sleep(4 * time.Second) // the server expires the session meanwhile
	proxy.Restore()

	waitUntil(t, "the change made meanwhile is applied", func() bool {
		s, _ := applied.Last()
		return slices.Equal(st.FlowCounts(s), []float64{20})
	})
	if conn.SessionID() == session {
		t.Fatalf("session %#x still alive after the cut; the test needs it expired", session)
	}
	put(t, c, path, flowJSON("30"))
	waitUntil(t, "a change on the new session is applied", func() bool {
		s, _ := applied.Last()
		return slices.Equal(st.FlowCounts(s), []float64{30})
	})
	if err := w.LastError(); err != nil {
		t.Errorf("LastError() = %v after the new session", err)
	}
}

// TestServerFrozen freezes ZooKeeper (SIGSTOP) under a running source: the
// outage is reported once the client's reads time out, the last good rules
// stay, a Watch stopped meanwhile returns, and after the thaw a change is
// applied.
func TestServerFrozen(t *testing.T) {
	srv := ownServer(t)
	c := client(t, srv.Addr)
	path := DefaultPath("", testApp(t), rules.KindFlow)
	put(t, c, path, flowJSON("10"))
	w, applied := watch(t, newTestSource(t, srv.Addr, nil))
	other := newTestSource(t, srv.Addr, func(cfg *Config) { cfg.App = testApp(t) + "-other" })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w2, err := datasource.Watch(ctx, other, datasource.WithLogger(testLogger(t)), datasource.WithApplier(func(rules.Set) error { return nil }))
	if err != nil {
		t.Fatal(err)
	}

	srv.Freeze()
	t.Cleanup(srv.Thaw) // before Remove kills it
	frozen := time.Now()
	waitUntil(t, "the outage is reported", func() bool { return w.LastError() != nil })
	t.Logf("outage reported %v after the freeze", time.Since(frozen).Round(time.Millisecond))
	if got := st.FlowCounts(w.Property().Get()); !slices.Equal(got, []float64{10}) {
		t.Errorf("rules in force %v while frozen, want the last good [10]", got)
	}
	stopping := time.Now()
	cancel()
	select {
	case <-w2.Done():
		t.Logf("a Watch stopped %v after its context ended", time.Since(stopping).Round(time.Millisecond))
	case <-time.After(waitTimeout):
		t.Fatal("a Watch did not stop while ZooKeeper was frozen")
	}

	srv.Thaw()
	put(t, client(t, srv.Addr), path, flowJSON("20"))
	waitUntil(t, "a change after the thaw is applied", func() bool {
		s, _ := applied.Last()
		return slices.Equal(st.FlowCounts(s), []float64{20})
	})
	waitUntil(t, "the outage is cleared", func() bool { return w.LastError() == nil })
}
