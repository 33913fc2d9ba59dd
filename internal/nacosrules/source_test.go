package nacosrules

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/internal/nacosapi"
	"github.com/sentinelgen/sentinelgen/internal/nacosapi/nacostest"
	"github.com/sentinelgen/sentinelgen/rules"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// waitTimeout bounds every wait for something the tests expect.
const waitTimeout = 15 * time.Second

// fixture is a Nacos client and a source for the test's own app.
type fixture struct {
	t      *testing.T
	client *nacosapi.Client
	src    *Source
	app    string
	ns     string
	log    *syncBuffer
}

func newFixture(t *testing.T, ns string) *fixture {
	t.Helper()
	addr := nacostest.Need(t)
	c, err := nacosapi.New(addr, nacosapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, client: c, app: "app-" + strings.NewReplacer("/", "-", "_", "-").Replace(t.Name()), ns: ns, log: &syncBuffer{}}
	f.src = f.newSource()
	// The server outlives the test (go test -count=2 runs it again): its
	// dataIds go with it.
	t.Cleanup(func() {
		for _, ns := range []string{"", ns} {
			for _, k := range Kinds() {
				_ = c.Delete(context.Background(), DataID(f.app, k), DefaultGroup, ns)
			}
		}
	})
	return f
}

// newSource is another source of the fixture's dataIds.
func (f *fixture) newSource() *Source {
	f.t.Helper()
	logger := slog.New(slog.NewTextHandler(f.log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	src, err := New(Config{Client: f.client, App: f.app, Namespace: f.ns, Hold: 10 * time.Second,
		RetryInterval: 100 * time.Millisecond, Logger: logger})
	if err != nil {
		f.t.Fatal(err)
	}
	return src
}

// publish stores content in the dataId of kind, as an operator would.
func (f *fixture) publish(kind rules.Kind, content string) {
	f.t.Helper()
	if err := f.client.Publish(context.Background(), DataID(f.app, kind), DefaultGroup, f.ns, content, "json", ""); err != nil {
		f.t.Fatal(err)
	}
}

// stored is the content of kind's dataId ("" when missing).
func (f *fixture) stored(kind rules.Kind) string {
	c, _, err := f.client.Get(context.Background(), DataID(f.app, kind), DefaultGroup, f.ns)
	if err != nil && !errors.Is(err, nacosapi.ErrNotFound) {
		f.t.Fatal(err)
	}
	return c
}

// watch runs datasource.Watch on src with a recording applier until the
// test ends.
func (f *fixture) watch(src *Source) (*datasource.Watcher, *applied) {
	f.t.Helper()
	a := &applied{}
	ctx, cancel := context.WithCancel(context.Background())
	w, err := datasource.Watch(ctx, src, datasource.WithApplier(a.apply), datasource.WithInitialTimeout(waitTimeout),
		datasource.WithLogger(slog.New(slog.NewTextHandler(f.log, nil))))
	if err != nil {
		cancel()
		f.t.Fatalf("Watch: %v", err)
	}
	f.t.Cleanup(func() { cancel(); <-w.Done() })
	return w, a
}

// applied records the sets a watcher applies.
type applied struct {
	mu   sync.Mutex
	last rules.Set
	n    int
	all  []rules.Set
}

func (a *applied) apply(s rules.Set) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.last, a.n = s, a.n+1
	a.all = append(a.all, s)
	return nil
}

func (a *applied) get() rules.Set {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.last
}

// flowCount is the count of the single flow rule in s, -1 when there is
// not exactly one.
func flowCount(s rules.Set) float64 {
	if len(s.Flow) != 1 {
		return -1
	}
	return s.Flow[0].Count
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func flowJSON(count string) string {
	return `[{"resource":"createOrder","grade":1,"count":` + count + `}]`
}

// syncBuffer is a log sink the source's goroutine and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestWatchReadsEveryKindAndFollowsChanges(t *testing.T) {
	f := newFixture(t, "")
	f.publish(rules.KindFlow, flowJSON("5"))
	f.publish(rules.KindDegrade, `[{"resource":"createOrder","grade":0,"count":100,"timeWindow":10}]`)
	f.publish(rules.KindSystem, `[{"highestCpuUsage":0.9}]`)
	f.publish(rules.KindAuthority, `[{"resource":"createOrder","limitApp":"bad","strategy":1}]`)
	f.publish(rules.KindParamFlow, `[{"resource":"createOrder","paramIdx":0,"count":3,"grade":1}]`)
	f.publish(rules.KindGatewayFlow, `[{"resource":"route1","resourceMode":0,"count":10,"grade":1}]`)
	f.publish(rules.KindAPIGroup, `[{"apiName":"api1","predicateItems":[{"pattern":"/a","matchStrategy":0}]}]`)
	waitUntil(t, "every dataId is readable", func() bool { return f.stored(rules.KindAPIGroup) != "" })
	_, a := f.watch(f.src)
	s := a.get()
	if flowCount(s) != 5 || len(s.Degrade) != 1 || len(s.System) != 1 || len(s.Authority) != 1 ||
		len(s.ParamFlow) != 1 || len(s.GatewayFlow) != 1 || len(s.APIGroups) != 1 {
		t.Fatalf("first set = %+v, want one rule of each kind", s)
	}
	f.publish(rules.KindFlow, flowJSON("7"))
	waitUntil(t, "the new flow rule is applied", func() bool { return flowCount(a.get()) == 7 })
	if s := a.get(); len(s.Degrade) != 1 || len(s.APIGroups) != 1 {
		t.Fatalf("after a flow change the other kinds are %+v, want them kept", s)
	}
}

func TestWatchBrokenDocumentKeepsLastGoodAndNamesTheDataID(t *testing.T) {
	f := newFixture(t, "")
	f.publish(rules.KindFlow, flowJSON("5"))
	waitUntil(t, "the flow dataId is readable", func() bool { return f.stored(rules.KindFlow) != "" })
	w, a := f.watch(f.src)
	f.publish(rules.KindFlow, `[{"resource":"createOrder","grade":1,"count":}]`)
	waitUntil(t, "the broken document is rejected", func() bool { return w.LastError() != nil })
	want := "nacos:" + DefaultGroup + "/" + DataID(f.app, rules.KindFlow)
	if err := w.LastError(); !strings.Contains(err.Error(), want) {
		t.Fatalf("LastError = %v, want it to name %s", err, want)
	}
	if flowCount(a.get()) != 5 {
		t.Fatalf("rules after a broken document = %+v, want the last good ones", a.get())
	}
}

func TestWatchReportsGoneWhenEveryDataIDIsDeleted(t *testing.T) {
	f := newFixture(t, "")
	f.publish(rules.KindFlow, flowJSON("5"))
	waitUntil(t, "the flow dataId is readable", func() bool { return f.stored(rules.KindFlow) != "" })
	w, a := f.watch(f.src)
	if err := f.client.Delete(context.Background(), DataID(f.app, rules.KindFlow), DefaultGroup, ""); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the deletion is reported", func() bool { return errors.Is(w.LastError(), datasource.ErrGone) })
	if flowCount(a.get()) != 5 {
		t.Fatalf("rules after the deletion = %+v, want the last good ones (ErrGone keeps them)", a.get())
	}
}

func TestWatchNamespaceIsApart(t *testing.T) {
	f := newFixture(t, "ns-apart")
	f.publish(rules.KindFlow, flowJSON("9"))
	public := &fixture{t: t, client: f.client, app: f.app, log: f.log}
	public.publish(rules.KindFlow, flowJSON("1"))
	waitUntil(t, "both dataIds are readable", func() bool { return f.stored(rules.KindFlow) != "" && public.stored(rules.KindFlow) != "" })
	_, a := f.watch(f.src)
	if flowCount(a.get()) != 9 {
		t.Fatalf("the source of namespace ns-apart read %+v, want its own rule (count 9)", a.get())
	}
	if got := f.src.String(); got != "nacos:ns-apart/"+DefaultGroup+"/"+f.app+"-*" {
		t.Fatalf("String = %q", got)
	}
}

// An unreachable Nacos fails the start at once, naming the dataId, rather
// than waiting for the initial timeout.
func TestWatchUnreachableFailsFast(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	c, _ := nacosapi.New(addr, nacosapi.Options{Timeout: time.Second})
	src, _ := New(Config{Client: c, App: "orders", Logger: slog.New(slog.DiscardHandler)})
	start := time.Now()
	_, err = datasource.Watch(context.Background(), src, datasource.WithInitialTimeout(time.Minute))
	if err == nil || !strings.Contains(err.Error(), "orders-flow-rules") {
		t.Fatalf("Watch with Nacos down: %v, want an error naming orders-flow-rules", err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Fatalf("Watch with Nacos down took %v", d)
	}
}

func TestWriteStoresChangedKindsOnly(t *testing.T) {
	f := newFixture(t, "")
	f.publish(rules.KindDegrade, `[{"resource":"createOrder","grade":0,"count":100,"timeWindow":10}]`)
	waitUntil(t, "the degrade dataId is readable", func() bool { return f.stored(rules.KindDegrade) != "" })
	_, a := f.watch(f.src)
	degrade := f.stored(rules.KindDegrade)
	set := a.get()
	set.Flow = []runtime.FlowRule{{Resource: "createOrder", Grade: 1, Count: 4}}
	if err := f.src.Write(context.Background(), set); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the written flow rule is read back", func() bool { return flowCount(a.get()) == 4 })
	if got := f.stored(rules.KindDegrade); got != degrade {
		t.Fatalf("the unchanged degrade dataId was rewritten: %q, was %q", got, degrade)
	}
	if got := f.stored(rules.KindSystem); got != "" {
		t.Fatalf("an empty kind was created: %q", got)
	}
}

// A Write whose base is stale is refused by Nacos's compare-and-swap and
// made again on the fresh content, so the other writer's change is seen
// rather than blindly overwritten.
func TestWriteRetriesOnConflict(t *testing.T) {
	f := newFixture(t, "")
	f.publish(rules.KindFlow, flowJSON("1"))
	waitUntil(t, "the flow dataId is readable", func() bool { return f.stored(rules.KindFlow) != "" })
	_, a := f.watch(f.src)
	// Another writer changes the dataId; the source's base is stale until
	// its watch reads the change, so write before it can.
	other := f.newSource()
	set := a.get()
	set.Flow = []runtime.FlowRule{{Resource: "createOrder", Grade: 1, Count: 2}}
	if err := other.Write(context.Background(), set); err != nil {
		t.Fatal(err)
	}
	f.src.mu.Lock()
	f.src.base[DataID(f.app, rules.KindFlow)] = flowJSON("1") // as read before the other write
	f.src.mu.Unlock()
	set.Flow[0].Count = 3
	if err := f.src.Write(context.Background(), set); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(f.log.String(), "nacos write conflict") {
		t.Fatalf("no conflict was met; log:\n%s", f.log.String())
	}
	waitUntil(t, "the retried write is read back", func() bool { return flowCount(a.get()) == 3 })
}

// A dataId seen missing is created only while it is still missing.
func TestWriteCreateIsCompareAndSwap(t *testing.T) {
	f := newFixture(t, "")
	src := f.newSource()
	src.setBase(DataID(f.app, rules.KindFlow), "") // seen missing
	f.publish(rules.KindFlow, flowJSON("1"))       // then created by another writer
	waitUntil(t, "the flow dataId is readable", func() bool { return f.stored(rules.KindFlow) != "" })
	set := rules.Set{Flow: []runtime.FlowRule{{Resource: "createOrder", Grade: 1, Count: 2}}}
	if err := src.Write(context.Background(), set); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(f.log.String(), "nacos write conflict") {
		t.Fatalf("creating over another writer's dataId met no conflict; log:\n%s", f.log.String())
	}
}

// Nacos stopping while the source follows it is reported, naming the
// dataIds, and the rules in force stay.
func TestWatchReportsOutageAndKeepsRules(t *testing.T) {
	server := nacostest.Start(t)
	// A server just started may take seconds over its first writes on a
	// busy machine: the setup waits for them; the source then reads with a
	// short timeout, so the outage shows soon.
	setup, _ := nacosapi.New(server.Addr, nacosapi.Options{Timeout: 20 * time.Second})
	log := &syncBuffer{}
	f := &fixture{t: t, client: setup, app: "outage", log: log}
	f.publish(rules.KindFlow, flowJSON("5"))
	waitUntil(t, "the flow dataId is readable", func() bool { return f.stored(rules.KindFlow) != "" })
	f.client, _ = nacosapi.New(server.Addr, nacosapi.Options{Timeout: time.Second})
	f.src = f.newSource()
	w, a := f.watch(f.src)
	server.Stop(t)
	waitUntil(t, "the outage is reported", func() bool { return w.LastError() != nil })
	if err := w.LastError(); !strings.Contains(err.Error(), "outage-flow-rules") {
		t.Fatalf("LastError = %v, want it to name outage-flow-rules", err)
	}
	if flowCount(a.get()) != 5 {
		t.Fatalf("rules during the outage = %+v, want the last good ones", a.get())
	}
}

// pausingTransport holds the response to a read of one dataId, once armed,
// until released: the test changes the rules in force and the store while
// the source holds a read made before.
type pausingTransport struct {
	dataID  string
	armed   atomic.Bool
	got     chan struct{}
	release chan struct{}
}

func (p *pausingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if r.Method == http.MethodGet && r.URL.Query().Get("dataId") == p.dataID && p.armed.CompareAndSwap(true, false) {
		p.got <- struct{}{}
		<-p.release
	}
	return resp, err
}

// A read made before a dashboard push was put in force and written is not
// put in force after it: it would undo the push until the push's own write
// came back from Nacos.
func TestWatchDoesNotUndoANewerPush(t *testing.T) {
	f := newFixture(t, "")
	pause := &pausingTransport{dataID: DataID(f.app, rules.KindFlow), got: make(chan struct{}), release: make(chan struct{})}
	c, err := nacosapi.New(nacostest.Need(t), nacosapi.Options{HTTPClient: &http.Client{Transport: pause}})
	if err != nil {
		t.Fatal(err)
	}
	src, _ := New(Config{Client: c, App: f.app, Hold: 10 * time.Second, RetryInterval: 100 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(f.log, nil))})
	t.Cleanup(func() { _ = rules.Apply(rules.Set{}) })
	f.publish(rules.KindFlow, flowJSON("1"))
	waitUntil(t, "the flow dataId is readable", func() bool { return f.stored(rules.KindFlow) != "" })
	_, a := f.watch(src)
	if flowCount(a.get()) != 1 {
		t.Fatalf("first set = %+v", a.get())
	}
	a.mu.Lock()
	first := a.n
	a.mu.Unlock()

	// Another writer stores count 2; the source's read of it is held.
	pause.armed.Store(true)
	f.publish(rules.KindFlow, flowJSON("2"))
	select {
	case <-pause.got:
	case <-time.After(waitTimeout):
		t.Fatal("the source never read the changed dataId")
	}
	// Meanwhile a dashboard push of count 3 is put in force, then written.
	pushed := rules.Set{Flow: []runtime.FlowRule{{Resource: "createOrder", Grade: 1, Count: 3}}}
	if _, err := rules.Update(func(cur rules.Set) (rules.Set, error) { return cur.Replace(pushed, rules.KindFlow), nil }); err != nil {
		t.Fatal(err)
	}
	if err := src.Write(context.Background(), pushed); err != nil {
		t.Fatal(err)
	}
	close(pause.release)
	waitUntil(t, "the pushed count is read back", func() bool { return flowCount(a.get()) == 3 })
	a.mu.Lock()
	defer a.mu.Unlock()
	for i, s := range a.all[first:] {
		if flowCount(s) == 2 {
			t.Fatalf("set %d put the count read before the push (2) in force after the push (3)", first+i)
		}
	}
}
