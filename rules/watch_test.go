package rules_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/rules"
	sentinel "github.com/sentinelgen/sentinelgen/runtime"
)

// testPoll is the poll interval of file sources in tests: short enough that
// a change is seen in milliseconds.
const testPoll = 10 * time.Millisecond

// flowTOML is one [[flow]] table: a QPS rule on resource with count.
func flowTOML(resource string, count float64) string {
	return fmt.Sprintf("[[flow]]\nresource = %q\ngrade = \"qps\"\ncount = %g\n", resource, count)
}

// degradeTOML is one [[degrade]] table: an error-count breaker on resource.
func degradeTOML(resource string, count float64) string {
	return fmt.Sprintf("[[degrade]]\nresource = %q\ngrade = \"errorCount\"\ncount = %g\ntimeWindow = 10\n", resource, count)
}

// writeFile writes content to path in place (truncate and write).
func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// replaceFile writes content next to path and renames it over path, as
// editors and atomic writers do.
func replaceFile(t testing.TB, path, content string) {
	t.Helper()
	tmp := path + ".swp"
	writeFile(t, tmp, content)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// waitUntil polls cond for up to 2 s and fails the test with what if it never
// holds.
func waitUntil(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// resetRules clears every rule when the test ends, so tests sharing the
// runtime's global rules start clean.
func resetRules(t testing.TB) {
	t.Helper()
	if err := sentinel.LoadRules(nil, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sentinel.LoadRules(nil, nil) })
}

// logRecorder collects a logger's JSON records.
type logRecorder struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (r *logRecorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf.Write(p)
}

func (r *logRecorder) logger() *slog.Logger {
	return slog.New(slog.NewJSONHandler(r, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// records returns the records logged so far at level ("ERROR", "INFO"...).
func (r *logRecorder) records(t testing.TB, level string) []map[string]any {
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

func flowResources(rs []sentinel.FlowRule) []string {
	var names []string
	for _, r := range rs {
		names = append(names, fmt.Sprintf("%s:%g", r.Resource, r.Count))
	}
	return names
}

// startWatch runs WatchFile on path with a short poll and a recorded log; the
// watcher stops when the test ends.
func startWatch(t *testing.T, path string, opts ...rules.Option) (*rules.Watcher, *logRecorder) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var log logRecorder
	opts = append([]rules.Option{rules.WithPollInterval(testPoll), rules.WithLogger(log.logger())}, opts...)
	w, err := rules.WatchFile(ctx, path, opts...)
	if err != nil {
		cancel()
		t.Fatalf("WatchFile: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		<-w.Done()
	})
	return w, &log
}

func TestWatchFileAppliesAtStart(t *testing.T) {
	resetRules(t)
	path := filepath.Join(t.TempDir(), "rules.toml")
	writeFile(t, path, flowTOML("start.a", 5)+degradeTOML("start.b", 3))

	w, log := startWatch(t, path)

	if got := flowResources(sentinel.FlowRules()); fmt.Sprint(got) != "[start.a:5]" {
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
	infos := log.records(t, "INFO")
	if len(infos) != 1 || infos[0]["flow"] != 1.0 || infos[0]["degrade"] != 1.0 || infos[0]["source"] != path {
		t.Errorf("info records = %v, want one with source, flow 1 and degrade 1", infos)
	}
}

func TestWatchFileFailsFastAtStart(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.toml")
	writeFile(t, broken, flowTOML("boot.a", 1)+"count = = 3\n")
	invalid := filepath.Join(dir, "invalid.toml")
	writeFile(t, invalid, flowTOML("boot.b", -3))
	empty := filepath.Join(dir, "empty.toml")
	writeFile(t, empty, "")

	for _, tc := range []struct {
		name, path, want string
	}{
		{"missing", filepath.Join(dir, "missing.toml"), "missing.toml: file is gone"},
		{"syntax", broken, "broken.toml:5"},
		{"invalid", invalid, "invalid.toml:4"},
		{"empty", empty, "empty.toml: file is empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resetRules(t)
			before := runtime.NumGoroutine()
			var log logRecorder
			w, err := rules.WatchFile(context.Background(), tc.path,
				rules.WithPollInterval(testPoll), rules.WithLogger(log.logger()))
			if err == nil || w != nil {
				t.Fatalf("WatchFile = %v, %v; want an error and no watcher", w, err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
			if len(sentinel.FlowRules()) != 0 {
				t.Errorf("rules were applied: %v", sentinel.FlowRules())
			}
			waitForGoroutines(t, before)
		})
	}
}

// waitForGoroutines waits until no more goroutines run than before, allowing
// for the scheduler to finish tearing down the ones just stopped.
func waitForGoroutines(t testing.TB, before int) {
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

func TestWatchFilePicksUpChanges(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, path, content string)
	}{
		{"write in place", func(t *testing.T, path, content string) { writeFile(t, path, content) }},
		{"atomic rename", func(t *testing.T, path, content string) { replaceFile(t, path, content) }},
		{"delete and recreate", func(t *testing.T, path, content string) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			time.Sleep(3 * testPoll) // let the watcher see the file gone
			writeFile(t, path, content)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resetRules(t)
			path := filepath.Join(t.TempDir(), "rules.toml")
			writeFile(t, path, flowTOML("change.a", 1))
			w, _ := startWatch(t, path)

			tc.change(t, path, flowTOML("change.a", 2)+flowTOML("change.b", 7))

			waitUntil(t, "the new rules are in force", func() bool {
				return fmt.Sprint(flowResources(sentinel.FlowRules())) == "[change.a:2 change.b:7]"
			})
			waitUntil(t, "LastError clears", func() bool { return w.LastError() == nil })
			if w.Applied() != 2 {
				t.Errorf("Applied = %d, want 2 (start and the change)", w.Applied())
			}
		})
	}
}

// TestWatchFileSeesConfigMapSwap updates a file the way Kubernetes updates a
// mounted ConfigMap: the file is a symlink into "..data", itself a symlink to
// a timestamped directory, and an update renames a new "..data" link over the
// old one. The file's own link never changes.
func TestWatchFileSeesConfigMapSwap(t *testing.T) {
	resetRules(t)
	dir := t.TempDir()
	for i, content := range []string{flowTOML("cm.a", 1), flowTOML("cm.a", 9)} {
		version := filepath.Join(dir, fmt.Sprintf("..v%d", i))
		if err := os.Mkdir(version, 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(version, "rules.toml"), content)
	}
	if err := os.Symlink("..v0", filepath.Join(dir, "..data")); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "rules.toml")
	if err := os.Symlink(filepath.Join("..data", "rules.toml"), path); err != nil {
		t.Fatal(err)
	}
	w, _ := startWatch(t, path)
	if got := fmt.Sprint(flowResources(sentinel.FlowRules())); got != "[cm.a:1]" {
		t.Fatalf("rules at start = %s, want [cm.a:1]", got)
	}

	if err := os.Symlink("..v1", filepath.Join(dir, "..data_tmp")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "..data_tmp"), filepath.Join(dir, "..data")); err != nil {
		t.Fatal(err)
	}

	waitUntil(t, "the swapped rules are in force", func() bool {
		return fmt.Sprint(flowResources(sentinel.FlowRules())) == "[cm.a:9]"
	})
	if w.Applied() != 2 {
		t.Errorf("Applied = %d, want 2", w.Applied())
	}
}

func TestWatchFileRejectsBadUpdates(t *testing.T) {
	for _, tc := range []struct {
		name     string
		breakIt  func(t *testing.T, path string)
		wantErr  []string // each must appear in LastError
		wantGone bool
	}{
		{"syntax error", func(t *testing.T, path string) {
			replaceFile(t, path, flowTOML("bad.a", 1)+"count = = 3\n")
		}, []string{"rules.toml:5"}, false},
		{"invalid field", func(t *testing.T, path string) {
			replaceFile(t, path, flowTOML("bad.a", 1)+flowTOML("bad.b", -2))
		}, []string{"rules.toml:8", "count"}, false},
		{"deleted file", func(t *testing.T, path string) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
		}, []string{"rules.toml: file is gone"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resetRules(t)
			path := filepath.Join(t.TempDir(), "rules.toml")
			writeFile(t, path, flowTOML("bad.a", 4))
			w, log := startWatch(t, path)
			before := sentinel.FlowRules()

			tc.breakIt(t, path)

			waitUntil(t, "the update is rejected", func() bool { return w.Rejected() == 1 })
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
			errs := log.records(t, "ERROR")
			if len(errs) != 1 || errs[0]["source"] != path || !strings.Contains(fmt.Sprint(errs[0]["error"]), tc.wantErr[0]) {
				t.Errorf("error records = %v, want one with source %s and the error", errs, path)
			}
			time.Sleep(3 * testPoll)
			if w.Rejected() != 1 {
				t.Errorf("Rejected = %d after more polls of the same bad file, want 1", w.Rejected())
			}

			replaceFile(t, path, flowTOML("bad.a", 6))
			waitUntil(t, "the next good update applies", func() bool {
				return fmt.Sprint(flowResources(sentinel.FlowRules())) == "[bad.a:6]"
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

// TestWatchFileRecoversToSameContent restores the very content that was in
// force before a bad update: nothing is reloaded, but LastError clears.
func TestWatchFileRecoversToSameContent(t *testing.T) {
	resetRules(t)
	path := filepath.Join(t.TempDir(), "rules.toml")
	good := flowTOML("same.a", 4)
	writeFile(t, path, good)
	w, _ := startWatch(t, path)

	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the deletion is reported", func() bool { return w.LastError() != nil })
	writeFile(t, path, good)
	waitUntil(t, "LastError clears", func() bool { return w.LastError() == nil })
	if w.Applied() != 1 || w.Rejected() != 1 {
		t.Errorf("Applied %d Rejected %d, want 1 (start only) 1 (the deletion)", w.Applied(), w.Rejected())
	}
}

func TestWatchStopsWithContext(t *testing.T) {
	resetRules(t)
	path := filepath.Join(t.TempDir(), "rules.toml")
	writeFile(t, path, flowTOML("stop.a", 1))
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	var log logRecorder
	w, err := rules.WatchFile(ctx, path, rules.WithPollInterval(testPoll), rules.WithLogger(log.logger()))
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
	waitForGoroutines(t, before)

	writeFile(t, path, flowTOML("stop.a", 2))
	time.Sleep(3 * testPoll)
	if got := fmt.Sprint(flowResources(sentinel.FlowRules())); got != "[stop.a:1]" {
		t.Errorf("a stopped watcher applied a change: %s", got)
	}
}

// chanSource is a Source driven by a test: each value sent on updates is
// pushed, each on reports is reported, and one on fail ends Watch with it.
type chanSource struct {
	updates chan []rules.Document
	reports chan error
	fail    chan error
}

func newChanSource() *chanSource {
	return &chanSource{updates: make(chan []rules.Document), reports: make(chan error), fail: make(chan error)}
}

func (s *chanSource) Watch(ctx context.Context, push func([]rules.Document)) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case docs := <-s.updates:
			push(docs)
		case err := <-s.reports:
			rules.ReportError(ctx, err)
		case err := <-s.fail:
			return err
		}
	}
}

func (s *chanSource) String() string { return "chan" }

// appliedSets is an applier that records what it is given instead of
// touching the runtime.
type appliedSets struct {
	mu   sync.Mutex
	sets []rules.Set
	err  error // returned by the next call when set
}

func (a *appliedSets) apply(s rules.Set) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.err != nil {
		err := a.err
		a.err = nil
		return err
	}
	a.sets = append(a.sets, s)
	return nil
}

func (a *appliedSets) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.sets)
}

// startChanWatch runs Watch on a chanSource whose first update is first.
func startChanWatch(t *testing.T, first []rules.Document, opts ...rules.Option) (*rules.Watcher, *chanSource, *appliedSets, *logRecorder) {
	t.Helper()
	src := newChanSource()
	applied := &appliedSets{}
	var log logRecorder
	ctx, cancel := context.WithCancel(context.Background())
	go func() { src.updates <- first }()
	opts = append([]rules.Option{rules.WithApplier(applied.apply), rules.WithLogger(log.logger())}, opts...)
	w, err := rules.Watch(ctx, src, opts...)
	if err != nil {
		cancel()
		t.Fatalf("Watch: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		<-w.Done()
	})
	return w, src, applied, &log
}

func TestWatchMergesDocumentsOfAPush(t *testing.T) {
	docs := []rules.Document{
		{Name: "etcd:/sentinel/orders/flow", Data: []byte(`[{"resource":"m.a","grade":1,"count":3}]`)},
		{Name: "etcd:/sentinel/orders/degrade", Data: []byte(`[{"resource":"m.b","grade":2,"count":1,"timeWindow":5}]`)},
	}
	var heard []rules.Set
	w, _, applied, _ := startChanWatch(t, docs)
	unregister := w.Property().Listen(func(s rules.Set) { heard = append(heard, s) })
	defer unregister()

	if applied.count() != 1 {
		t.Fatalf("applier called %d times, want 1", applied.count())
	}
	got := applied.sets[0]
	if len(got.Flow) != 1 || got.Flow[0].Resource != "m.a" || len(got.Degrade) != 1 || got.Degrade[0].Resource != "m.b" {
		t.Errorf("applied %+v, want the flow rule of one document and the degrade rule of the other", got)
	}
	if len(heard) != 1 || !heard[0].Equal(got) {
		t.Errorf("a late listener heard %v, want the current set", heard)
	}
}

func TestWatchSourceReportsAndApplierErrors(t *testing.T) {
	good := []rules.Document{{Name: "flow.json", Data: []byte(`[{"resource":"r.a","grade":1,"count":3}]`)}}
	w, src, applied, log := startChanWatch(t, good)

	gone := errors.New("etcd: connection lost")
	src.reports <- gone
	waitUntil(t, "the report is counted", func() bool { return w.Rejected() == 1 })
	if !errors.Is(w.LastError(), gone) {
		t.Errorf("LastError = %v, want the reported error", w.LastError())
	}

	applied.mu.Lock()
	applied.err = errors.New("applier refuses")
	applied.mu.Unlock()
	changed := []rules.Document{{Name: "flow.json", Data: []byte(`[{"resource":"r.a","grade":1,"count":4}]`)}}
	src.updates <- changed
	waitUntil(t, "the refused update is counted", func() bool { return w.Rejected() == 2 })
	if w.LastError() == nil || w.LastError().Error() != "applier refuses" {
		t.Errorf("LastError = %v, want the applier's error", w.LastError())
	}
	if got := w.Property().Get(); len(got.Flow) != 1 || got.Flow[0].Count != 3 {
		t.Errorf("property = %+v after a refused update, want the last good set", got)
	}
	if n := len(log.records(t, "ERROR")); n != 2 {
		t.Errorf("%d error records, want 2", n)
	}

	src.updates <- changed
	waitUntil(t, "the retried update applies", func() bool { return w.Applied() == 2 })
	if w.LastError() != nil || applied.count() != 2 || w.Property().Get().Flow[0].Count != 4 {
		t.Errorf("after a good update: LastError %v, %d applied, property %+v", w.LastError(), applied.count(), w.Property().Get())
	}

	src.updates <- changed
	src.updates <- good // a second send proves the first was handled
	waitUntil(t, "the last update applies", func() bool { return w.Applied() == 3 })
	if applied.count() != 3 {
		t.Errorf("a push equal to the rules in force was re-applied: %d applies", applied.count())
	}
}

func TestWatchEndsWhenSourceFails(t *testing.T) {
	w, src, _, log := startChanWatch(t, []rules.Document{{Name: "flow.json", Data: []byte(`[]`)}})
	broken := errors.New("watch channel closed by server")
	src.fail <- broken
	select {
	case <-w.Done():
	case <-time.After(2 * time.Second):
		t.Fatal("Done not closed after the source failed")
	}
	if !errors.Is(w.Err(), broken) {
		t.Errorf("Err = %v, want the source's error", w.Err())
	}
	if errs := log.records(t, "ERROR"); len(errs) != 1 || errs[0]["source"] != "chan" {
		t.Errorf("error records = %v, want one naming the source", errs)
	}
}

func TestWatchWaitsForFirstUpdate(t *testing.T) {
	before := runtime.NumGoroutine()
	var log logRecorder

	_, err := rules.Watch(context.Background(), newChanSource(),
		rules.WithInitialTimeout(20*time.Millisecond), rules.WithLogger(log.logger()))
	if err == nil || !strings.Contains(err.Error(), "no rules within 20ms") {
		t.Errorf("silent source: err = %v, want the initial timeout", err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err = rules.Watch(ctx, newChanSource(), rules.WithLogger(log.logger()))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("context ends first: err = %v, want context.DeadlineExceeded", err)
	}

	src := newChanSource()
	refused := errors.New("store unreachable")
	go func() { src.fail <- refused }()
	_, err = rules.Watch(context.Background(), src, rules.WithLogger(log.logger()))
	if !errors.Is(err, refused) {
		t.Errorf("source fails first: err = %v, want its error", err)
	}
	waitForGoroutines(t, before)
}
