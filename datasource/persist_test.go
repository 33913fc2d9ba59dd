package datasource_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/datasource/file"
	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
	"github.com/sentinelgen/sentinelgen/rules"
	sentinel "github.com/sentinelgen/sentinelgen/runtime"
)

// Persist's tests read and write real files; the poll and settle intervals
// are short so changes are seen in milliseconds.
const (
	testPoll   = 10 * time.Millisecond
	testSettle = 30 * time.Millisecond
)

// watchFile watches path with the test intervals (and opts) and a recorded
// log; the watcher stops when the test ends.
func watchFile(t *testing.T, path string, opts ...file.Option) (*datasource.Watcher, *st.LogRecorder) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var log st.LogRecorder
	opts = append([]file.Option{file.WithPollInterval(testPoll), file.WithSettle(testSettle)}, opts...)
	w, err := datasource.Watch(ctx, file.New(path, opts...), datasource.WithLogger(log.Logger()))
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

// countingWriter passes writes to a real source and counts them.
type countingWriter struct {
	datasource.WritableSource
	writes atomic.Int64
}

func (c *countingWriter) Write(ctx context.Context, s rules.Set) error {
	c.writes.Add(1)
	return c.WritableSource.Write(ctx, s)
}

// fileHolds reports whether the file at path reads as set.
func fileHolds(path string, set rules.Set) bool {
	got, err := rules.Load(path)
	return err == nil && got.Equal(set)
}

func TestPersistWritesAPIChangesAndSurvivesRestart(t *testing.T) {
	st.ResetRules(t)
	path := filepath.Join(t.TempDir(), "rules.toml")
	st.WriteFile(t, path, st.FlowTOML("persist.a", 1))
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var log st.LogRecorder
	w, err := datasource.Watch(ctx, file.New(path, file.WithPollInterval(testPoll), file.WithSettle(testSettle)),
		datasource.WithLogger(log.Logger()))
	if err != nil {
		t.Fatal(err)
	}
	stop, err := w.Persist(datasource.WithLogger(log.Logger()), datasource.WithDebounce(5*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}

	for i := range 5 {
		flow := []sentinel.FlowRule{
			{Resource: "persist.a", Grade: sentinel.FlowGradeQPS, Count: float64(10 + i)},
			{Resource: "persist.b", Grade: sentinel.FlowGradeConcurrency, Count: 2},
		}
		degrade := []sentinel.DegradeRule{{Resource: "persist.b", Grade: sentinel.DegradeErrorCount, Count: 3, TimeWindowSec: 5}}
		if err := sentinel.LoadRules(sentinel.Rules{Flow: flow, Degrade: degrade}); err != nil {
			t.Fatal(err)
		}
		want := rules.Current()
		st.WaitUntil(t, fmt.Sprintf("change %d is written", i), func() bool { return fileHolds(path, want) })
		st.WaitUntil(t, "the watcher reads the write back", func() bool { return w.Property().Get().Equal(want) })
	}
	time.Sleep(5 * testPoll) // room for a loop to show
	if w.Applied() != 1 || w.Rejected() != 0 {
		t.Errorf("watcher Applied %d Rejected %d, want 1 0: reading back Persist's writes must not reload", w.Applied(), w.Rejected())
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o640 {
		t.Errorf("file mode after persisting = %v, want 0640 kept", info.Mode().Perm())
	}
	if leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*tmp*")); len(leftovers) != 0 {
		t.Errorf("temporary files left behind: %v", leftovers)
	}
	persisted := rules.Current()

	// Restart: stop everything, forget the rules, watch the file again.
	stop()
	cancel()
	<-w.Done()
	if err := sentinel.LoadRules(sentinel.Rules{}); err != nil {
		t.Fatal(err)
	}
	w2, _ := watchFile(t, path)
	if !rules.Current().Equal(persisted) {
		t.Errorf("after restart the rules are %+v, want the persisted %+v", rules.Current(), persisted)
	}
	if w2.Applied() != 1 {
		t.Errorf("restarted watcher Applied = %d, want 1", w2.Applied())
	}
}

func TestPersistWritesOncePerChange(t *testing.T) {
	st.ResetRules(t)
	path := filepath.Join(t.TempDir(), "rules.toml")
	st.WriteFile(t, path, "# empty\n")
	var log st.LogRecorder
	dest := &countingWriter{WritableSource: file.New(path)}
	stop := datasource.Persist(dest, datasource.WithLogger(log.Logger()), datasource.WithDebounce(20*time.Millisecond))
	defer stop()

	flow := []sentinel.FlowRule{{Resource: "once.a", Grade: sentinel.FlowGradeQPS, Count: 4}}
	degrade := []sentinel.DegradeRule{{Resource: "once.a", Grade: sentinel.DegradeErrorCount, Count: 1, TimeWindowSec: 1}}
	if err := sentinel.LoadRules(sentinel.Rules{Flow: flow, Degrade: degrade}); err != nil {
		t.Fatal(err)
	}
	want := rules.Current()
	st.WaitUntil(t, "the rules are written", func() bool { return fileHolds(path, want) })
	time.Sleep(60 * time.Millisecond)
	if n := dest.writes.Load(); n != 1 {
		t.Errorf("LoadRules (two notifications) made %d writes, want 1", n)
	}

	if err := sentinel.LoadRules(sentinel.Rules{Flow: flow, Degrade: degrade}); err != nil { // same rules again
		t.Fatal(err)
	}
	time.Sleep(60 * time.Millisecond)
	if n := dest.writes.Load(); n != 1 {
		t.Errorf("reloading identical rules made %d writes in all, want still 1", n)
	}
	if infos := log.Records(t, "INFO"); len(infos) != 1 || infos[0]["flow"] != 1.0 || infos[0]["degrade"] != 1.0 {
		t.Errorf("info records = %v, want one write with the counts", infos)
	}
}

func TestPersistWritesPendingChangeOnStop(t *testing.T) {
	st.ResetRules(t)
	path := filepath.Join(t.TempDir(), "rules.toml")
	st.WriteFile(t, path, st.FlowTOML("flush.a", 1))
	var log st.LogRecorder
	stop := datasource.Persist(file.New(path), datasource.WithLogger(log.Logger()), datasource.WithDebounce(time.Hour))

	if err := sentinel.LoadFlowRules([]sentinel.FlowRule{{Resource: "flush.a", Grade: sentinel.FlowGradeQPS, Count: 8}}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != st.FlowTOML("flush.a", 1) {
		t.Fatalf("written before the debounce passed:\n%s", data)
	}
	stop()
	if !fileHolds(path, rules.Current()) {
		t.Error("stop did not write the pending change")
	}
	stop() // a second stop is harmless
}

func TestPersistIgnoresRulesFoundAtStart(t *testing.T) {
	st.ResetRules(t)
	if err := sentinel.LoadFlowRules([]sentinel.FlowRule{{Resource: "found.a", Grade: sentinel.FlowGradeQPS, Count: 2}}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "rules.toml")
	original := st.FlowTOML("found.b", 9)
	st.WriteFile(t, path, original)
	var log st.LogRecorder
	stop := datasource.Persist(file.New(path), datasource.WithLogger(log.Logger()), datasource.WithDebounce(time.Millisecond))
	time.Sleep(20 * time.Millisecond)
	stop()
	if data, _ := os.ReadFile(path); string(data) != original {
		t.Errorf("Persist wrote the rules it found at registration:\n%s", data)
	}
}

// TestPersistDoesNotUndoNewerEdit: the rules in force came from the watched
// file, then the file changed again before the watcher read it. A rule
// notification now (here, reloading the same rules) must not write the older
// rules over the newer file.
func TestPersistDoesNotUndoNewerEdit(t *testing.T) {
	st.ResetRules(t)
	path := filepath.Join(t.TempDir(), "rules.toml")
	st.WriteFile(t, path, st.FlowTOML("undo.a", 1))
	// A poll interval of an hour: the watcher reads the file at start only.
	w, _ := watchFile(t, path, file.WithPollInterval(time.Hour))
	var log st.LogRecorder
	// Watcher.Persist writes to the file the watcher reads, and knows which
	// rules came from it.
	stop, err := w.Persist(datasource.WithLogger(log.Logger()), datasource.WithDebounce(time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer stop()

	newer := st.FlowTOML("undo.a", 2)
	st.WriteFile(t, path, newer)
	if err := sentinel.LoadFlowRules(sentinel.FlowRules()); err != nil {
		t.Fatal(err)
	}
	time.Sleep(30 * time.Millisecond)
	if data, _ := os.ReadFile(path); string(data) != newer {
		t.Errorf("the newer edit was overwritten:\n%s", data)
	}
	if infos := log.Records(t, "INFO"); len(infos) != 0 {
		t.Errorf("Persist logged writes of rules that came from the file itself: %v", infos)
	}

	// A real change through the API is still written.
	if err := sentinel.LoadFlowRules([]sentinel.FlowRule{{Resource: "undo.a", Grade: sentinel.FlowGradeQPS, Count: 3}}); err != nil {
		t.Fatal(err)
	}
	want := rules.Current()
	st.WaitUntil(t, "the API change is written", func() bool { return fileHolds(path, want) })
}

func TestPersistLogsFailedWrite(t *testing.T) {
	st.ResetRules(t)
	path := filepath.Join(t.TempDir(), "no-such-dir", "rules.toml")
	var log st.LogRecorder
	stop := datasource.Persist(file.New(path), datasource.WithLogger(log.Logger()), datasource.WithDebounce(time.Millisecond))
	defer stop()
	if err := sentinel.LoadFlowRules([]sentinel.FlowRule{{Resource: "fail.a", Grade: sentinel.FlowGradeQPS, Count: 1}}); err != nil {
		t.Fatal(err)
	}
	st.WaitUntil(t, "the failure is logged", func() bool { return len(log.Records(t, "ERROR")) == 1 })
	rec := log.Records(t, "ERROR")[0]
	if rec["source"] != path || !strings.Contains(fmt.Sprint(rec["error"]), "no-such-dir") {
		t.Errorf("error record = %v, want source %s and the cause", rec, path)
	}
}

// readOnly is a Source that cannot be written to.
type readOnly struct{}

func (readOnly) Watch(ctx context.Context, push func([]rules.Document)) error {
	push([]rules.Document{{Name: "ro.toml", Data: []byte("# no rules\n")}})
	<-ctx.Done()
	return nil
}

func TestWatcherPersistNeedsAWritableSource(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var log st.LogRecorder
	w, err := datasource.Watch(ctx, readOnly{}, datasource.WithApplier(func(rules.Set) error { return nil }),
		datasource.WithLogger(log.Logger()))
	if err != nil {
		t.Fatal(err)
	}
	stop, err := w.Persist()
	if err == nil || stop != nil || !strings.Contains(err.Error(), "cannot be written to") {
		t.Errorf("Persist on a read-only source = %v, %v; want an error", stop != nil, err)
	}
}
