package datasource_test

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
	"github.com/sentinelgen/sentinelgen/rules"
)

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
			datasource.ReportError(ctx, err)
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
func startChanWatch(t *testing.T, first []rules.Document, opts ...datasource.WatchOption) (*datasource.Watcher, *chanSource, *appliedSets, *st.LogRecorder) {
	t.Helper()
	src := newChanSource()
	applied := &appliedSets{}
	var log st.LogRecorder
	ctx, cancel := context.WithCancel(context.Background())
	go func() { src.updates <- first }()
	opts = append([]datasource.WatchOption{datasource.WithApplier(applied.apply), datasource.WithLogger(log.Logger())}, opts...)
	w, err := datasource.Watch(ctx, src, opts...)
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
	st.WaitUntil(t, "the report is counted", func() bool { return w.Rejected() == 1 })
	if !errors.Is(w.LastError(), gone) {
		t.Errorf("LastError = %v, want the reported error", w.LastError())
	}

	applied.mu.Lock()
	applied.err = errors.New("applier refuses")
	applied.mu.Unlock()
	changed := []rules.Document{{Name: "flow.json", Data: []byte(`[{"resource":"r.a","grade":1,"count":4}]`)}}
	src.updates <- changed
	st.WaitUntil(t, "the refused update is counted", func() bool { return w.Rejected() == 2 })
	if w.LastError() == nil || w.LastError().Error() != "applier refuses" {
		t.Errorf("LastError = %v, want the applier's error", w.LastError())
	}
	if got := w.Property().Get(); len(got.Flow) != 1 || got.Flow[0].Count != 3 {
		t.Errorf("property = %+v after a refused update, want the last good set", got)
	}
	if n := len(log.Records(t, "ERROR")); n != 2 {
		t.Errorf("%d error records, want 2", n)
	}

	src.updates <- changed
	st.WaitUntil(t, "the retried update applies", func() bool { return w.Applied() == 2 })
	if w.LastError() != nil || applied.count() != 2 || w.Property().Get().Flow[0].Count != 4 {
		t.Errorf("after a good update: LastError %v, %d applied, property %+v", w.LastError(), applied.count(), w.Property().Get())
	}

	src.updates <- changed
	src.updates <- good // a second send proves the first was handled
	st.WaitUntil(t, "the last update applies", func() bool { return w.Applied() == 3 })
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
	if errs := log.Records(t, "ERROR"); len(errs) != 1 || errs[0]["source"] != "chan" {
		t.Errorf("error records = %v, want one naming the source", errs)
	}
}

func TestWatchWaitsForFirstUpdate(t *testing.T) {
	before := runtime.NumGoroutine()
	var log st.LogRecorder

	_, err := datasource.Watch(context.Background(), newChanSource(),
		datasource.WithInitialTimeout(20*time.Millisecond), datasource.WithLogger(log.Logger()))
	if err == nil || !strings.Contains(err.Error(), "no rules within 20ms") {
		t.Errorf("silent source: err = %v, want the initial timeout", err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err = datasource.Watch(ctx, newChanSource(), datasource.WithLogger(log.Logger()))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("context ends first: err = %v, want context.DeadlineExceeded", err)
	}

	src := newChanSource()
	refused := errors.New("store unreachable")
	go func() { src.fail <- refused }()
	_, err = datasource.Watch(context.Background(), src, datasource.WithLogger(log.Logger()))
	if !errors.Is(err, refused) {
		t.Errorf("source fails first: err = %v, want its error", err)
	}
	st.WaitForGoroutines(t, before)
}

// TestWatchReportsAFirstRejectionOnce: a first update that is refused is
// Watch's error and is not logged as well, so a caller that reports it
// prints it once; a later rejection, with good rules in force, is logged
// and says they stay.
func TestWatchReportsAFirstRejectionOnce(t *testing.T) {
	var log st.LogRecorder
	src := newChanSource()
	go func() {
		src.updates <- []rules.Document{{Name: "flow-rules.json", Data: []byte(`[{"resource":"m.a","grade":1,"count":"x"}]`)}}
	}()
	_, err := datasource.Watch(context.Background(), src, datasource.WithApplier((&appliedSets{}).apply), datasource.WithLogger(log.Logger()))
	if err == nil || !strings.Contains(err.Error(), "flow-rules.json") {
		t.Fatalf("Watch: err = %v, want the document's error", err)
	}
	if recs := log.Records(t, "ERROR"); len(recs) != 0 {
		t.Errorf("a refused first update was logged as well as returned: %v", recs)
	}

	w, src2, _, log2 := startChanWatch(t, []rules.Document{{Name: "flow-rules.json", Data: []byte(`[{"resource":"m.a","grade":1,"count":3}]`)}})
	src2.updates <- []rules.Document{{Name: "flow-rules.json", Data: []byte(`[{"resource":"m.a","grade":1,"count":"x"}]`)}}
	st.WaitUntil(t, "the refused update is counted", func() bool { return w.Rejected() == 1 })
	recs := log2.Records(t, "ERROR")
	if len(recs) != 1 || !strings.Contains(recs[0]["msg"].(string), "the last good rules stay in force") {
		t.Errorf("a later rejection logged %v, want one record saying the last good rules stay", recs)
	}
}
