package file_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
	sentinel "github.com/sentinelgen/sentinelgen/runtime"
)

// A deleted rules file is a gone document (datasource.ErrGone): by default
// the last good rules stay and the loss is reported; with
// datasource.WithGoneMeansEmpty its rules are lifted. Either way the file
// coming back applies.
func TestDeletedFileIsGone(t *testing.T) {
	for _, tc := range []struct {
		name      string
		opts      []datasource.WatchOption
		wantRules string // in force once the file is gone
	}{
		{"keeps the last good rules", nil, "[gone.a:4]"},
		{"gone means empty", []datasource.WatchOption{datasource.WithGoneMeansEmpty()}, "[]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st.ResetRules(t)
			path := filepath.Join(t.TempDir(), "rules.toml")
			st.WriteFile(t, path, st.FlowTOML("gone.a", 4))
			ctx, cancel := context.WithCancel(context.Background())
			var log st.LogRecorder
			w, err := datasource.Watch(ctx, testSource(path), append([]datasource.WatchOption{datasource.WithLogger(log.Logger())}, tc.opts...)...)
			if err != nil {
				cancel()
				t.Fatal(err)
			}
			t.Cleanup(func() { cancel(); <-w.Done() })

			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			if tc.opts == nil {
				st.WaitUntil(t, "the loss is reported", func() bool { return errors.Is(w.LastError(), datasource.ErrGone) })
			} else {
				st.WaitUntil(t, "the empty set is applied", func() bool { return w.Applied() == 2 })
				if err := w.LastError(); err != nil {
					t.Errorf("LastError %v after the empty set applied, want nil", err)
				}
			}
			time.Sleep(3 * testPoll)
			if got := fmt.Sprint(st.FlowResources(sentinel.FlowRules())); got != tc.wantRules {
				t.Errorf("rules in force with the file gone: %s, want %s", got, tc.wantRules)
			}

			st.ReplaceFile(t, path, st.FlowTOML("gone.a", 6))
			st.WaitUntil(t, "the file's return applies", func() bool {
				return fmt.Sprint(st.FlowResources(sentinel.FlowRules())) == "[gone.a:6]"
			})
			st.WaitUntil(t, "LastError clears", func() bool { return w.LastError() == nil })
		})
	}
}
