package file_test

import (
	"context"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource/file"
	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
	sentinel "github.com/sentinelgen/sentinelgen/runtime"
)

// TestReloadNeverLeavesZeroRules proves there is no moment without rules in
// force while a watched file is reloaded under traffic. Every version of the
// file blocks the guarded resource entirely (QPS 0) and differs from the
// other in a second rule, so each reload really replaces the rule set. A
// single call that passes, or a single empty rule list seen by a reader or a
// listener, means some reload went through "no rules".
func TestReloadNeverLeavesZeroRules(t *testing.T) {
	st.ResetRules(t)
	const reloads = 200
	versions := [2]string{
		st.FlowTOML("noloss.guarded", 0) + st.FlowTOML("noloss.other", 5),
		st.FlowTOML("noloss.guarded", 0) + st.FlowTOML("noloss.other", 7) + st.DegradeTOML("noloss.other", 3),
	}
	path := filepath.Join(t.TempDir(), "rules.toml")
	st.WriteFile(t, path, versions[0])
	w, _ := startWatch(t, path, file.WithPollInterval(time.Millisecond))

	var emptySeen atomic.Int64
	unregister := sentinel.OnFlowRulesChange(func(rs []sentinel.FlowRule) {
		if len(rs) == 0 {
			emptySeen.Add(1)
		}
	})
	defer unregister()

	guarded := sentinel.NewResource("noloss.guarded")
	var calls, passed atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	// Two cores are shared with the watcher's poller: the loops yield after
	// each call so reloads keep their pace while calls keep overlapping them.
	for range 2 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				e, blocked := guarded.Entry(context.Background())
				calls.Add(1)
				if blocked == nil {
					passed.Add(1)
					e.Exit()
				}
				runtime.Gosched()
			}
		})
	}
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			if len(sentinel.FlowRules()) == 0 {
				emptySeen.Add(1)
			}
			runtime.Gosched()
		}
	})

	for i := 1; i <= reloads; i++ {
		st.ReplaceFile(t, path, versions[i%2])
		want := uint64(i + 1)
		st.WaitUntil(t, "the reload applies", func() bool { return w.Applied() >= want })
	}
	close(stop)
	wg.Wait()

	if w.Applied() != reloads+1 || w.Rejected() != 0 {
		t.Errorf("Applied %d Rejected %d, want %d 0", w.Applied(), w.Rejected(), reloads+1)
	}
	if n := passed.Load(); n != 0 {
		t.Errorf("%d of %d calls passed a resource every version blocks", n, calls.Load())
	}
	if n := emptySeen.Load(); n != 0 {
		t.Errorf("the flow rules were seen empty %d times", n)
	}
	if calls.Load() < reloads {
		t.Errorf("only %d calls during %d reloads: the traffic did not overlap them", calls.Load(), reloads)
	}
	t.Logf("%d calls across %d reloads", calls.Load(), reloads)
}
