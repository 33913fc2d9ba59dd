package sourcetest

import (
	"context"
	"testing"

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
