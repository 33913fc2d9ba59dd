package sourcetest

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/rules"
	sentinel "github.com/sentinelgen/sentinelgen/runtime"
)

// StartWatcher runs datasource.Watch on src and stops it at the end of the
// test, failing the test when Watch does.
func StartWatcher(t testing.TB, src datasource.Source, opts ...datasource.WatchOption) *datasource.Watcher {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	w, err := datasource.Watch(ctx, src, opts...)
	if err != nil {
		cancel()
		t.Fatalf("datasource.Watch: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		<-w.Done()
	})
	return w
}

// FlowCounts lists the count of every flow rule of s, in order.
func FlowCounts(s rules.Set) []float64 {
	var out []float64
	for _, r := range s.Flow {
		out = append(out, r.Count)
	}
	return out
}

// RuntimeCount is the count of the one flow rule in force for resource; it
// fails the test when there is not exactly one.
func RuntimeCount(t testing.TB, resource string) float64 {
	t.Helper()
	var counts []float64
	for _, r := range sentinel.FlowRules() {
		if r.Resource == resource {
			counts = append(counts, r.Count)
		}
	}
	if len(counts) != 1 {
		t.Fatalf("%d flow rules for %s in force, want 1", len(counts), resource)
	}
	return counts[0]
}

// AppliedSets records every set a Watcher hands its applier, in place of
// the runtime, whose rules are global to the process.
type AppliedSets struct {
	mu   sync.Mutex
	sets []rules.Set
}

// Apply records s; it is the watcher's applier.
func (a *AppliedSets) Apply(s rules.Set) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sets = append(a.sets, s)
	return nil
}

// Last is the set applied last and how many were.
func (a *AppliedSets) Last() (rules.Set, int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.sets) == 0 {
		return rules.Set{}, 0
	}
	return a.sets[len(a.sets)-1], len(a.sets)
}

// WatchApplied runs datasource.Watch on src until the test ends, with an
// AppliedSets as its applier, logging to logger and waiting up to timeout
// for the first update; opts come after those.
func WatchApplied(t testing.TB, src datasource.Source, logger *slog.Logger, timeout time.Duration, opts ...datasource.WatchOption) (*datasource.Watcher, *AppliedSets) {
	t.Helper()
	applied := &AppliedSets{}
	opts = append([]datasource.WatchOption{datasource.WithApplier(applied.Apply), datasource.WithLogger(logger),
		datasource.WithInitialTimeout(timeout)}, opts...)
	return StartWatcher(t, src, opts...), applied
}
