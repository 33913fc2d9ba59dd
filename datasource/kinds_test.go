package datasource_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/datasource/file"
	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
	"github.com/sentinelgen/sentinelgen/rules"
	sentinel "github.com/sentinelgen/sentinelgen/runtime"
)

// tomlDoc is one TOML document of a chanSource push.
func tomlDoc(content string) []rules.Document {
	return []rules.Document{{Name: "kinds.toml", Data: []byte(content)}}
}

// startRuntimeWatch runs Watch with the default applier (the runtime) on a
// chanSource whose first update is first.
func startRuntimeWatch(t *testing.T, first string, opts ...datasource.WatchOption) (*datasource.Watcher, *chanSource) {
	t.Helper()
	src := newChanSource()
	ctx, cancel := context.WithCancel(context.Background())
	go func() { src.updates <- tomlDoc(first) }()
	var log st.LogRecorder
	w, err := datasource.Watch(ctx, src, append([]datasource.WatchOption{datasource.WithLogger(log.Logger())}, opts...)...)
	if err != nil {
		cancel()
		t.Fatalf("Watch: %v", err)
	}
	t.Cleanup(func() { cancel(); <-w.Done() })
	return w, src
}

// send pushes content and returns once the watcher has handled it: the
// source's loop takes the nil report only after push returned.
func (s *chanSource) send(content string) {
	s.updates <- tomlDoc(content)
	s.reports <- nil
}

// loadDegrade puts one breaker on resource in force beside the other kinds,
// as a dashboard push does.
func loadDegrade(t *testing.T, resource string, count float64) {
	t.Helper()
	_, err := rules.Update(func(cur rules.Set) (rules.Set, error) {
		d := []sentinel.DegradeRule{{Resource: resource, Grade: sentinel.DegradeErrorCount, Count: count, TimeWindowSec: 10}}
		return cur.Replace(rules.Set{Degrade: d}, rules.KindDegrade), nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// degradeCounts lists the counts of the breakers in force.
func degradeCounts() string {
	var out []string
	for _, d := range sentinel.DegradeRules() {
		out = append(out, fmt.Sprintf("%s:%g", d.Resource, d.Count))
	}
	return strings.Join(out, " ")
}

// Without WithKinds a watcher owns the kinds its source has held: a kind it
// never held stays as others loaded it, one it held once stays owned, so
// removing its last rule from the source removes it from force.
func TestWatcherOwnsTheKindsItsSourceHeld(t *testing.T) {
	st.ResetRules(t)
	w, src := startRuntimeWatch(t, st.FlowTOML("own.a", 1))
	loadDegrade(t, "own.pushed", 7)
	src.send(st.FlowTOML("own.a", 2))
	if got := degradeCounts(); got != "own.pushed:7" {
		t.Fatalf("breakers %q after a flow-only update, want the pushed one kept", got)
	}
	if got := fmt.Sprint(w.Kinds()); got != "[flow]" {
		t.Errorf("Kinds = %s, want [flow]", got)
	}
	src.send(st.FlowTOML("own.a", 3) + st.DegradeTOML("own.file", 4))
	if got := degradeCounts(); got != "own.file:4" {
		t.Fatalf("breakers %q, want the source's, which now owns degrade", got)
	}
	src.send(st.FlowTOML("own.a", 3))
	if got := degradeCounts(); got != "" {
		t.Errorf("breakers %q after the source dropped its last one, want none", got)
	}
	if got := fmt.Sprint(w.Kinds()); got != "[flow degrade]" {
		t.Errorf("Kinds = %s, want [flow degrade]", got)
	}
	if f := sentinel.FlowRules(); len(f) != 1 || f[0].Count != 3 || w.LastError() != nil {
		t.Errorf("flow %+v, error %v", f, w.LastError())
	}
}

// WithKinds binds a watcher to its kinds: rules of other kinds in its
// documents are left out, and the rules of those kinds in force stay.
func TestWithKindsReplacesOnlyThoseKinds(t *testing.T) {
	st.ResetRules(t)
	loadDegrade(t, "bound.pushed", 7)
	w, src := startRuntimeWatch(t, st.FlowTOML("bound.a", 1)+st.DegradeTOML("bound.file", 4), datasource.WithKinds(rules.KindFlow))
	if got := degradeCounts(); got != "bound.pushed:7" {
		t.Errorf("breakers %q, want the one in force kept: the source owns flow only", got)
	}
	src.send(st.FlowTOML("bound.a", 2))
	if f := sentinel.FlowRules(); len(f) != 1 || f[0].Count != 2 {
		t.Errorf("flow %+v, want the source's count 2", f)
	}
	if got := fmt.Sprint(w.Kinds()); got != "[flow]" {
		t.Errorf("Kinds = %s, want [flow]", got)
	}
	_, err := datasource.Watch(context.Background(), newChanSource(), datasource.WithKinds("flows"))
	if err == nil || !strings.Contains(err.Error(), `unknown rule kind "flows"`) {
		t.Errorf("Watch with an unknown kind: %v", err)
	}
}

// Watcher.Persist of a watcher bound to flow writes back the flow rules in
// force and keeps the file's other kinds as the file has them.
func TestPersistWritesOnlyTheOwnedKinds(t *testing.T) {
	st.ResetRules(t)
	path := filepath.Join(t.TempDir(), "rules.toml")
	st.WriteFile(t, path, st.FlowTOML("wb.a", 1)+st.DegradeTOML("wb.file", 4))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w, err := datasource.Watch(ctx, file.New(path, file.WithPollInterval(testPoll), file.WithSettle(testSettle)),
		datasource.WithKinds(rules.KindFlow))
	if err != nil {
		t.Fatal(err)
	}
	stop, err := w.Persist(datasource.WithDebounce(1))
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	loadDegrade(t, "wb.pushed", 7)
	if err := rules.Apply(rules.Current().Replace(rules.Set{Flow: []sentinel.FlowRule{{Resource: "wb.a", Count: 9}}}, rules.KindFlow)); err != nil {
		t.Fatal(err)
	}
	st.WaitUntil(t, "the flow change is written", func() bool {
		got, err := rules.Load(path)
		return err == nil && len(got.Flow) == 1 && got.Flow[0].Count == 9
	})
	got, _ := rules.Load(path)
	if len(got.Degrade) != 1 || got.Degrade[0].Resource != "wb.file" {
		data, _ := os.ReadFile(path)
		t.Errorf("file's breakers after write-back %+v, want the file's own (wb.file) kept:\n%s", got.Degrade, data)
	}
}

// An update replaces only the kinds whose rules it changed: an edit of the
// source's breaker keeps the flow rule pushed since, though the source
// owns flow too; an edit of its flow rule then replaces the pushed one.
func TestUpdateReplacesOnlyTheKindsItChanged(t *testing.T) {
	st.ResetRules(t)
	_, src := startRuntimeWatch(t, st.FlowTOML("chg.a", 1)+st.DegradeTOML("chg.a", 4))
	_, err := rules.Update(func(cur rules.Set) (rules.Set, error) {
		return cur.Replace(rules.Set{Flow: []sentinel.FlowRule{{Resource: "chg.a", Count: 42}}}, rules.KindFlow), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	src.send(st.FlowTOML("chg.a", 1) + st.DegradeTOML("chg.a", 5))
	if got := degradeCounts(); got != "chg.a:5" {
		t.Errorf("breakers %q, want the source's edit chg.a:5", got)
	}
	if f := sentinel.FlowRules(); len(f) != 1 || f[0].Count != 42 {
		t.Errorf("flow %+v after an edit of the breaker only, want the pushed count 42 kept", f)
	}
	src.send(st.FlowTOML("chg.a", 2) + st.DegradeTOML("chg.a", 5))
	if f := sentinel.FlowRules(); len(f) != 1 || f[0].Count != 2 {
		t.Errorf("flow %+v after an edit of the flow rule, want the source's count 2", f)
	}
}
