// Package sourcetest holds what the tests of package datasource and its
// sources share: rule files, waiting, a log recorder and a clean runtime.
package sourcetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	sentinel "github.com/sentinelgen/sentinelgen/runtime"
)

// FlowTOML is one [[flow]] table: a QPS rule on resource with count.
func FlowTOML(resource string, count float64) string {
	return fmt.Sprintf("[[flow]]\nresource = %q\ngrade = \"qps\"\ncount = %g\n", resource, count)
}

// DegradeTOML is one [[degrade]] table: an error-count breaker on resource.
func DegradeTOML(resource string, count float64) string {
	return fmt.Sprintf("[[degrade]]\nresource = %q\ngrade = \"errorCount\"\ncount = %g\ntimeWindow = 10\n", resource, count)
}

// WriteFile writes content to path in place (truncate and write).
func WriteFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ReplaceFile writes content next to path and renames it over path, as
// editors and atomic writers do.
func ReplaceFile(t testing.TB, path, content string) {
	t.Helper()
	tmp := path + ".swp"
	WriteFile(t, tmp, content)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// WaitUntil polls cond for up to 5 s and fails the test with what if it never
// holds.
func WaitUntil(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// WaitForGoroutines waits until no more goroutines run than before, allowing
// for the scheduler to finish tearing down the ones just stopped.
func WaitForGoroutines(t testing.TB, before int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("goroutines: %d before, %d after:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(time.Millisecond)
	}
}

// ResetRules clears every rule now and when the test ends, so tests sharing
// the runtime's global rules start clean.
func ResetRules(t testing.TB) {
	t.Helper()
	if err := sentinel.LoadRules(sentinel.Rules{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sentinel.LoadRules(sentinel.Rules{}) })
}

// FlowResources names rules as "resource:count", for comparing sets.
func FlowResources(rs []sentinel.FlowRule) []string {
	var names []string
	for _, r := range rs {
		names = append(names, fmt.Sprintf("%s:%g", r.Resource, r.Count))
	}
	return names
}

// LogRecorder collects a logger's JSON records.
type LogRecorder struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write takes one record from the handler.
func (r *LogRecorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf.Write(p)
}

// Logger returns a logger writing every level to r.
func (r *LogRecorder) Logger() *slog.Logger {
	return slog.New(slog.NewJSONHandler(r, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// Records returns the records logged so far at level ("ERROR", "INFO"...).
func (r *LogRecorder) Records(t testing.TB, level string) []map[string]any {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(r.buf.String()), "\n") {
		if line == "" {
			continue
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("bad log line %q: %v", line, err)
		}
		if rec["level"] == level {
			out = append(out, rec)
		}
	}
	return out
}

// AllKindsTOML is a rule of every kind on resource, each threshold derived
// from n so that two values of n give sets that differ in every kind.
func AllKindsTOML(resource string, n int) string {
	return FlowTOML(resource, float64(n)) + DegradeTOML(resource, float64(n)) +
		fmt.Sprintf("[[paramFlow]]\nresource = %q\nparamIdx = 0\ncount = %d\nparamFlowItemList = [{ object = \"hot\", classType = \"String\", count = %d }]\n", resource, n, n+1) +
		fmt.Sprintf("[[system]]\nqps = %d\n", 1000+n) +
		fmt.Sprintf("[[authority]]\nresource = %q\nlimitApp = \"app-%d\"\nstrategy = \"black\"\n", resource, n)
}

// AllKindsInForce describes the rules in force of the kinds flow rules do
// not cover, for comparing: "param:5 system:1005 authority:app-5".
func AllKindsInForce() string {
	var b strings.Builder
	for _, r := range sentinel.ParamFlowRules() {
		fmt.Fprintf(&b, "param:%g ", r.Count)
	}
	for _, r := range sentinel.SystemRules() {
		fmt.Fprintf(&b, "system:%g ", r.QPS)
	}
	for _, r := range sentinel.AuthorityRules() {
		fmt.Fprintf(&b, "authority:%s ", r.LimitApp)
	}
	return strings.TrimSpace(b.String())
}
