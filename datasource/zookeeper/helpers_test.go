package zookeeper

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/sentinelgen/sentinelgen/datasource"
	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
	"github.com/sentinelgen/sentinelgen/rules"
)

// waitTimeout bounds every wait for something the tests expect; a change
// normally reaches watchers far sooner.
const waitTimeout = 15 * time.Second

func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// testApp is an app name of the test's own, so tests sharing the server
// never see each other's nodes, nor those of an earlier run (-count).
func testApp(t *testing.T) string {
	n, _ := appRuns.LoadOrStore(t, appRun.Add(1))
	return fmt.Sprintf("app-%s-%d", strings.NewReplacer("/", "-", "_", "-").Replace(t.Name()), n)
}

// appRuns numbers each test (by its *testing.T) for testApp.
var (
	appRuns sync.Map
	appRun  atomic.Int64
)

// newTestSource is a Source for the test's app on addr.
func newTestSource(t *testing.T, addr string, change func(*Config)) *Source {
	t.Helper()
	cfg := Config{
		Servers:        []string{addr},
		App:            testApp(t),
		SessionTimeout: 4 * time.Second,
		Timeout:        waitTimeout,
		RetryInterval:  200 * time.Millisecond,
		Logger:         testLogger(t),
	}
	if change != nil {
		change(&cfg)
	}
	src, err := NewSource(cfg)
	if err != nil {
		t.Fatalf("NewSource: %v", err)
	}
	t.Cleanup(src.Close)
	return src
}

// client is a plain ZooKeeper client of the test's, standing for an
// operator or another service; it is closed when the test ends.
func client(t testing.TB, addr string) *zk.Conn {
	t.Helper()
	c, _, err := zk.Connect([]string{addr}, 4*time.Second, zk.WithLogInfo(false), zk.WithLogger(quiet{}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	deadline := time.Now().Add(waitTimeout)
	for c.State() != zk.StateHasSession {
		if time.Now().After(deadline) {
			t.Fatalf("no session with %s", addr)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return c
}

type quiet struct{}

func (quiet) Printf(string, ...any) {}

// put stores content at path, creating it and its parents when missing.
func put(t testing.TB, c *zk.Conn, path, content string) {
	t.Helper()
	if _, err := c.Set(path, []byte(content), -1); err == nil {
		return
	} else if !errors.Is(err, zk.ErrNoNode) {
		t.Fatalf("set %s: %v", path, err)
	}
	for i := 1; i < len(path); i++ {
		if path[i] == '/' {
			if _, err := c.Create(path[:i], nil, 0, zk.WorldACL(zk.PermAll)); err != nil && !errors.Is(err, zk.ErrNodeExists) {
				t.Fatalf("create %s: %v", path[:i], err)
			}
		}
	}
	if _, err := c.Create(path, []byte(content), 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatalf("create %s: %v", path, err)
	}
}

// remove deletes path.
func remove(t *testing.T, c *zk.Conn, path string) {
	t.Helper()
	if err := c.Delete(path, -1); err != nil {
		t.Fatalf("delete %s: %v", path, err)
	}
}

// stored is path's content now ("" when missing).
func stored(t *testing.T, c *zk.Conn, path string) string {
	t.Helper()
	data, _, err := c.Get(path)
	if errors.Is(err, zk.ErrNoNode) {
		return ""
	}
	if err != nil {
		t.Fatalf("get %s: %v", path, err)
	}
	return string(data)
}

// watch runs datasource.Watch on src with a capturing applier until the
// test ends.
func watch(t *testing.T, src datasource.Source, opts ...datasource.WatchOption) (*datasource.Watcher, *st.AppliedSets) {
	t.Helper()
	return st.WatchApplied(t, src, testLogger(t), waitTimeout, opts...)
}

// waitUntil polls cond until it holds, failing the test after waitTimeout.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// flowJSON is Sentinel's JSON for one flow rule on createOrder.
func flowJSON(count string) string {
	return `[{"resource":"createOrder","grade":1,"count":` + count + `}]`
}

// parseFlow reads a flow document as Sentinel's JSON.
func parseFlow(t *testing.T, data string) rules.Set {
	t.Helper()
	s, err := rules.Parse(rules.Document{Name: "flow", Data: []byte(data), Format: rules.FormatJSON, Kind: rules.KindFlow})
	if err != nil {
		t.Fatalf("parse %q: %v", data, err)
	}
	return s
}
