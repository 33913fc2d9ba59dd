package file_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/datasource/file"
	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
	"github.com/sentinelgen/sentinelgen/rules"
	sentinel "github.com/sentinelgen/sentinelgen/runtime"
)

// testPoll and testSettle are the intervals of file sources in tests: short
// enough that a change is seen in milliseconds.
const (
	testPoll   = 10 * time.Millisecond
	testSettle = 30 * time.Millisecond
)

// startWatch watches path with the test intervals (and opts) and a
// recorded log; the watcher stops when the test ends.
func startWatch(t *testing.T, path string, opts ...file.Option) (*datasource.Watcher, *st.LogRecorder) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var log st.LogRecorder
	w, err := datasource.Watch(ctx, testSource(path, opts...), datasource.WithLogger(log.Logger()))
	if err != nil {
		cancel()
		t.Fatalf("Watch: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		<-w.Done()
	})
	return w, &log
}

// testSource is a file source with the test intervals and opts.
func testSource(path string, opts ...file.Option) *file.Source {
	return file.New(path, append([]file.Option{file.WithPollInterval(testPoll), file.WithSettle(testSettle)}, opts...)...)
}

func TestWatchAppliesAtStart(t *testing.T) {
	st.ResetRules(t)
	path := filepath.Join(t.TempDir(), "rules.toml")
	st.WriteFile(t, path, st.FlowTOML("start.a", 5)+st.DegradeTOML("start.b", 3))

	w, log := startWatch(t, path)

	if got := st.FlowResources(sentinel.FlowRules()); fmt.Sprint(got) != "[start.a:5]" {
		t.Errorf("flow rules in force = %v, want [start.a:5]", got)
	}
	if got := sentinel.DegradeRules(); len(got) != 1 || got[0].Resource != "start.b" {
		t.Errorf("degrade rules in force = %+v, want one on start.b", got)
	}
	if w.Applied() != 1 || w.Rejected() != 0 || w.LastError() != nil {
		t.Errorf("Applied %d Rejected %d LastError %v, want 1 0 nil", w.Applied(), w.Rejected(), w.LastError())
	}
	if p := w.Property().Get(); len(p.Flow) != 1 || len(p.Degrade) != 1 {
		t.Errorf("property holds %+v, want the file's two rules", p)
	}
	infos := log.Records(t, "INFO")
	if len(infos) != 1 || infos[0]["flow"] != 1.0 || infos[0]["degrade"] != 1.0 || infos[0]["source"] != path {
		t.Errorf("info records = %v, want one with source, flow 1 and degrade 1", infos)
	}
}

func TestWatchFailsFastAtStart(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.toml")
	st.WriteFile(t, broken, st.FlowTOML("boot.a", 1)+"count = = 3\n")
	invalid := filepath.Join(dir, "invalid.toml")
	st.WriteFile(t, invalid, st.FlowTOML("boot.b", -3))
	empty := filepath.Join(dir, "empty.toml")
	st.WriteFile(t, empty, "")

	for _, tc := range []struct {
		name, path, want string
	}{
		{"missing", filepath.Join(dir, "missing.toml"), "missing.toml: file is gone"},
		{"syntax", broken, "broken.toml:5"},
		{"invalid", invalid, "invalid.toml:4"},
		{"empty", empty, "empty.toml: file is empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st.ResetRules(t)
			before := runtime.NumGoroutine()
			var log st.LogRecorder
			w, err := datasource.Watch(context.Background(), testSource(tc.path), datasource.WithLogger(log.Logger()))
			if err == nil || w != nil {
				t.Fatalf("Watch = %v, %v; want an error and no watcher", w, err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
			if len(sentinel.FlowRules()) != 0 {
				t.Errorf("rules were applied: %v", sentinel.FlowRules())
			}
			st.WaitForGoroutines(t, before)
		})
	}
}

func TestWatchPicksUpChanges(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, path, content string)
	}{
		{"write in place", func(t *testing.T, path, content string) { st.WriteFile(t, path, content) }},
		{"atomic rename", func(t *testing.T, path, content string) { st.ReplaceFile(t, path, content) }},
		{"delete and recreate", func(t *testing.T, path, content string) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			time.Sleep(3 * testPoll) // let the watcher see the file gone
			st.WriteFile(t, path, content)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st.ResetRules(t)
			path := filepath.Join(t.TempDir(), "rules.toml")
			st.WriteFile(t, path, st.FlowTOML("change.a", 1))
			w, _ := startWatch(t, path)

			tc.change(t, path, st.FlowTOML("change.a", 2)+st.FlowTOML("change.b", 7))

			st.WaitUntil(t, "the new rules are in force", func() bool {
				return fmt.Sprint(st.FlowResources(sentinel.FlowRules())) == "[change.a:2 change.b:7]"
			})
			st.WaitUntil(t, "LastError clears", func() bool { return w.LastError() == nil })
			if w.Applied() != 2 {
				t.Errorf("Applied = %d, want 2 (start and the change)", w.Applied())
			}
		})
	}
}

// TestWatchSeesConfigMapSwap updates a file the way Kubernetes updates a
// mounted ConfigMap: the file is a symlink into "..data", itself a symlink to
// a timestamped directory, and an update renames a new "..data" link over the
// old one. The file's own link never changes.
func TestWatchSeesConfigMapSwap(t *testing.T) {
	st.ResetRules(t)
	dir := t.TempDir()
	for i, content := range []string{st.FlowTOML("cm.a", 1), st.FlowTOML("cm.a", 9)} {
		version := filepath.Join(dir, fmt.Sprintf("..v%d", i))
		if err := os.Mkdir(version, 0o755); err != nil {
			t.Fatal(err)
		}
		st.WriteFile(t, filepath.Join(version, "rules.toml"), content)
	}
	if err := os.Symlink("..v0", filepath.Join(dir, "..data")); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "rules.toml")
	if err := os.Symlink(filepath.Join("..data", "rules.toml"), path); err != nil {
		t.Fatal(err)
	}
	w, _ := startWatch(t, path)
	if got := fmt.Sprint(st.FlowResources(sentinel.FlowRules())); got != "[cm.a:1]" {
		t.Fatalf("rules at start = %s, want [cm.a:1]", got)
	}

	if err := os.Symlink("..v1", filepath.Join(dir, "..data_tmp")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "..data_tmp"), filepath.Join(dir, "..data")); err != nil {
		t.Fatal(err)
	}

	st.WaitUntil(t, "the swapped rules are in force", func() bool {
		return fmt.Sprint(st.FlowResources(sentinel.FlowRules())) == "[cm.a:9]"
	})
	if w.Applied() != 2 {
		t.Errorf("Applied = %d, want 2", w.Applied())
	}
}

func TestWatchRejectsBadUpdates(t *testing.T) {
	for _, tc := range []struct {
		name     string
		breakIt  func(t *testing.T, path string)
		wantErr  []string // each must appear in LastError
		wantGone bool
	}{
		{"syntax error", func(t *testing.T, path string) {
			st.ReplaceFile(t, path, st.FlowTOML("bad.a", 1)+"count = = 3\n")
		}, []string{"rules.toml:5"}, false},
		{"invalid field", func(t *testing.T, path string) {
			st.ReplaceFile(t, path, st.FlowTOML("bad.a", 1)+st.FlowTOML("bad.b", -2))
		}, []string{"rules.toml:8", "count"}, false},
		{"deleted file", func(t *testing.T, path string) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
		}, []string{"rules.toml: file is gone"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st.ResetRules(t)
			path := filepath.Join(t.TempDir(), "rules.toml")
			st.WriteFile(t, path, st.FlowTOML("bad.a", 4))
			w, log := startWatch(t, path)
			before := sentinel.FlowRules()

			tc.breakIt(t, path)

			st.WaitUntil(t, "the update is rejected", func() bool { return w.Rejected() == 1 })
			err := w.LastError()
			if err == nil {
				t.Fatal("LastError = nil after a rejected update")
			}
			for _, want := range tc.wantErr {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("LastError %q does not name %q", err, want)
				}
			}
			if tc.wantGone && !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("LastError %v is not fs.ErrNotExist", err)
			}
			if after := sentinel.FlowRules(); fmt.Sprint(after) != fmt.Sprint(before) {
				t.Errorf("rules changed on a bad update: %v -> %v", before, after)
			}
			errs := log.Records(t, "ERROR")
			if len(errs) != 1 || errs[0]["source"] != path || !strings.Contains(fmt.Sprint(errs[0]["error"]), tc.wantErr[0]) {
				t.Errorf("error records = %v, want one with source %s and the error", errs, path)
			}
			time.Sleep(3 * testPoll)
			if w.Rejected() != 1 {
				t.Errorf("Rejected = %d after more polls of the same bad file, want 1", w.Rejected())
			}

			st.ReplaceFile(t, path, st.FlowTOML("bad.a", 6))
			st.WaitUntil(t, "the next good update applies", func() bool {
				return fmt.Sprint(st.FlowResources(sentinel.FlowRules())) == "[bad.a:6]"
			})
			if w.LastError() != nil {
				t.Errorf("LastError = %v after a good update, want nil", w.LastError())
			}
			if w.Applied() != 2 || w.Rejected() != 1 {
				t.Errorf("Applied %d Rejected %d, want 2 1", w.Applied(), w.Rejected())
			}
		})
	}
}

// TestWatchRecoversToSameContent restores the very content that was in
// force before a bad update: nothing is reloaded, but LastError clears.
func TestWatchRecoversToSameContent(t *testing.T) {
	st.ResetRules(t)
	path := filepath.Join(t.TempDir(), "rules.toml")
	good := st.FlowTOML("same.a", 4)
	st.WriteFile(t, path, good)
	w, _ := startWatch(t, path)

	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	st.WaitUntil(t, "the deletion is reported", func() bool { return w.LastError() != nil })
	st.WriteFile(t, path, good)
	st.WaitUntil(t, "LastError clears", func() bool { return w.LastError() == nil })
	if w.Applied() != 1 || w.Rejected() != 1 {
		t.Errorf("Applied %d Rejected %d, want 1 (start only) 1 (the deletion)", w.Applied(), w.Rejected())
	}
}

func TestWatchStopsWithContext(t *testing.T) {
	st.ResetRules(t)
	path := filepath.Join(t.TempDir(), "rules.toml")
	st.WriteFile(t, path, st.FlowTOML("stop.a", 1))
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	var log st.LogRecorder
	w, err := datasource.Watch(ctx, testSource(path), datasource.WithLogger(log.Logger()))
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-w.Done():
		t.Fatal("Done closed while the context is live")
	default:
	}

	cancel()
	select {
	case <-w.Done():
	case <-time.After(2 * time.Second):
		t.Fatal("Done not closed after the context ended")
	}
	if w.Err() != nil {
		t.Errorf("Err = %v after a requested stop, want nil", w.Err())
	}
	st.WaitForGoroutines(t, before)

	st.WriteFile(t, path, st.FlowTOML("stop.a", 2))
	time.Sleep(3 * testPoll)
	if got := fmt.Sprint(st.FlowResources(sentinel.FlowRules())); got != "[stop.a:1]" {
		t.Errorf("a stopped watcher applied a change: %s", got)
	}
}

// The slow-writer drill end to end, on real time: the writer
// truncates the file, writes a rule without its count, pauses, then writes
// the count. With the default settle interval (2 s, twenty times the pause)
// no set with a count-0 rule is ever applied, and the complete file is.
func TestWatchSlowWriterDrill(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rules.toml")
	st.WriteFile(t, path, st.FlowTOML("a", 2000))
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var applied []string
	record := func(s rules.Set) error {
		mu.Lock()
		defer mu.Unlock()
		applied = append(applied, fmt.Sprint(st.FlowResources(s.Flow)))
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var log st.LogRecorder
	w, err := datasource.Watch(ctx, file.New(path, file.WithPollInterval(5*time.Millisecond)),
		datasource.WithApplier(record), datasource.WithLogger(log.Logger()))
	if err != nil {
		t.Fatal(err)
	}
	const rounds = 3
	for round := range rounds {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(f, "[[flow]]\nresource = %q\ngrade = \"qps\"\n", "a")
		time.Sleep(100 * time.Millisecond)
		fmt.Fprintf(f, "count = %d\n", 2001+round)
		f.Close()
		time.Sleep(50 * time.Millisecond)
	}
	want := fmt.Sprint([]string{fmt.Sprintf("a:%d", 2000+rounds)})
	st.WaitUntil(t, "the last complete file is applied", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(applied) > 0 && applied[len(applied)-1] == want
	})
	mu.Lock()
	defer mu.Unlock()
	if fmt.Sprint(applied) != fmt.Sprint([]string{"[a:2000]", want}) {
		t.Errorf("applied %v, want the file at start and the last complete write only", applied)
	}
	if w.Rejected() != 0 {
		t.Errorf("Rejected = %d: a file being written was read as rules (%v)", w.Rejected(), w.LastError())
	}
}

// A rules file over the size limit at start is an error naming the file and
// its size; nothing is applied.
func TestWatchRefusesOversizedFileAtStart(t *testing.T) {
	st.ResetRules(t)
	path := filepath.Join(t.TempDir(), "rules.toml")
	content := st.FlowTOML("big.a", 1) + "# " + strings.Repeat("x", 200) + "\n"
	st.WriteFile(t, path, content)
	var log st.LogRecorder
	_, err := datasource.Watch(context.Background(), testSource(path, file.WithMaxSize(100)), datasource.WithLogger(log.Logger()))
	want := fmt.Sprintf("%s: file is %d bytes: over the size limit of 100 bytes", path, len(content))
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("Watch = %v, want an error containing %q", err, want)
	}
	if len(sentinel.FlowRules()) != 0 {
		t.Errorf("rules were applied: %v", sentinel.FlowRules())
	}
}
