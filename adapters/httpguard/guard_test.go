package httpguard

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

func TestHandleNamesResourceAfterPattern(t *testing.T) {
	useManualClock(t)
	mux := http.NewServeMux()
	g := New()
	g.HandleFunc(mux, "GET   /names/{id}", ok)
	g.HandleFunc(mux, "/names-any", ok)
	srv := serve(t, mux)
	if r := get(t, srv, "/names/7"); r.status != 200 || r.body != "ok" {
		t.Fatalf("got %d %q", r.status, r.body)
	}
	res := findResource("GET /names/{id}")
	if res == nil {
		t.Fatal(`no resource "GET /names/{id}"`)
	}
	if res.TrafficType() != runtime.TrafficInbound || res.ResourceType() != runtime.ResourceTypeWeb {
		t.Errorf("traffic %v type %v, want inbound web", res.TrafficType(), res.ResourceType())
	}
	if s := res.Snapshot(); s.Pass != 1 || s.Success != 1 {
		t.Errorf("snapshot %+v, want one pass and one success", s)
	}
	if findResource("/names-any") == nil {
		t.Error(`no resource "/names-any" for a pattern without method`)
	}
}

func TestMethodPrefix(t *testing.T) {
	useManualClock(t)
	mux := http.NewServeMux()
	New(WithMethodPrefix(false)).HandleFunc(mux, "GET /mp/off", ok)
	on := New(WithMethodPrefix(true))
	on.HandleFunc(mux, "/mp/on", ok)
	on.HandleFunc(mux, "POST /mp/post", ok)
	srv := serve(t, mux)
	get(t, srv, "/mp/off")
	get(t, srv, "/mp/on")
	do(t, srv, "PURGE", "/mp/on")
	do(t, srv, http.MethodPost, "/mp/post")
	for _, name := range []string{"/mp/off", "GET /mp/on", "PURGE /mp/on", "POST /mp/post"} {
		if r := findResource(name); r == nil || r.Snapshot().Pass != 1 {
			t.Errorf("resource %q missing or without its pass", name)
		}
	}
	for _, name := range []string{"GET /mp/off", "/mp/on"} {
		if findResource(name) != nil {
			t.Errorf("unexpected resource %q", name)
		}
	}
}

func TestFlowBlockAnswers429WithRetryAfter(t *testing.T) {
	useManualClock(t)
	mux := http.NewServeMux()
	New().HandleFunc(mux, "GET /flow", ok)
	mustLoad(t, runtime.Rules{Flow: []runtime.FlowRule{{Resource: "GET /flow", Grade: runtime.FlowGradeQPS, Count: 2}}})
	srv := serve(t, mux)
	for i := range 2 {
		if r := get(t, srv, "/flow"); r.status != 200 {
			t.Fatalf("request %d: status %d", i, r.status)
		}
	}
	r := get(t, srv, "/flow")
	if r.status != http.StatusTooManyRequests {
		t.Fatalf("status %d, want 429", r.status)
	}
	if got := r.header.Get("Retry-After"); got != "1" {
		t.Errorf("Retry-After %q, want 1 (a QPS window)", got)
	}
	if !strings.Contains(r.body, "flow") {
		t.Errorf("body %q does not name the kind of rule", r.body)
	}
	if s := findResource("GET /flow").Snapshot(); s.Block != 1 {
		t.Errorf("blocks %d, want 1", s.Block)
	}
}

func TestConcurrencyBlockHasNoRetryAfter(t *testing.T) {
	useManualClock(t)
	mux := http.NewServeMux()
	release, entered := make(chan struct{}), make(chan struct{})
	New().HandleFunc(mux, "GET /conc", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("hold") != "" {
			entered <- struct{}{}
			<-release
		}
	})
	mustLoad(t, runtime.Rules{Flow: []runtime.FlowRule{{Resource: "GET /conc", Grade: runtime.FlowGradeConcurrency, Count: 1}}})
	srv := serve(t, mux)
	done := make(chan reply)
	go func() { done <- get(t, srv, "/conc?hold=1") }()
	<-entered
	r := get(t, srv, "/conc")
	close(release)
	<-done
	if r.status != http.StatusTooManyRequests {
		t.Fatalf("status %d, want 429", r.status)
	}
	if got := r.header.Get("Retry-After"); got != "" {
		t.Errorf("Retry-After %q for a concurrency block, whose wait is unknown", got)
	}
}

func TestServerErrorsOpenBreakerThen503(t *testing.T) {
	clock := useManualClock(t)
	mux := http.NewServeMux()
	New().HandleFunc(mux, "GET /fail", func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
	})
	mustLoad(t, runtime.Rules{Degrade: []runtime.DegradeRule{{
		Resource: "GET /fail", Grade: runtime.DegradeErrorCount, Count: 2, TimeWindowSec: 10, MinRequestAmount: 1,
	}}})
	srv := serve(t, mux)
	for range 3 {
		if r := get(t, srv, "/fail"); r.status != http.StatusBadGateway {
			t.Fatalf("status %d, want the handler's 502", r.status)
		}
	}
	if s := findResource("GET /fail").Snapshot(); s.Error != 3 {
		t.Errorf("errors %d, want the three 502s", s.Error)
	}
	clock.Advance(2500 * time.Millisecond)
	r := get(t, srv, "/fail")
	if r.status != http.StatusServiceUnavailable {
		t.Fatalf("status %d, want 503 from the open breaker", r.status)
	}
	if got := r.header.Get("Retry-After"); got != "8" {
		t.Errorf("Retry-After %q, want 8 (10 s open, 2.5 s gone, rounded up)", got)
	}
}

func TestErrorStatusPredicate(t *testing.T) {
	useManualClock(t)
	mux := http.NewServeMux()
	h := func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNotFound) }
	New().HandleFunc(mux, "GET /st/default", h)
	New(WithErrorStatus(func(s int) bool { return s >= 400 })).HandleFunc(mux, "GET /st/4xx", h)
	New(WithErrorStatus(nil)).HandleFunc(mux, "GET /st/none", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
	})
	srv := serve(t, mux)
	for _, p := range []string{"/st/default", "/st/4xx", "/st/none"} {
		get(t, srv, p)
	}
	for name, want := range map[string]int64{"GET /st/default": 0, "GET /st/4xx": 1, "GET /st/none": 0} {
		if got := findResource(name).Snapshot().Error; got != want {
			t.Errorf("%s: %d errors, want %d", name, got, want)
		}
	}
}

func TestPanicIsTracedAndGoesOn(t *testing.T) {
	useManualClock(t)
	mux := http.NewServeMux()
	New().HandleFunc(mux, "GET /panic", func(http.ResponseWriter, *http.Request) { panic("boom") })
	New(WithTracePanics(false)).HandleFunc(mux, "GET /panic-untraced", func(http.ResponseWriter, *http.Request) { panic("boom") })
	h := http.Handler(mux)
	for _, path := range []string{"/panic", "/panic-untraced"} {
		func() {
			defer func() {
				if v := recover(); v != "boom" {
					t.Errorf("%s: recovered %v, want the handler's panic", path, v)
				}
			}()
			h.ServeHTTP(httptestRecorder(), mustRequest(t, path))
		}()
	}
	if s := findResource("GET /panic").Snapshot(); s.Error != 1 || s.Concurrency != 0 {
		t.Errorf("/panic: %+v, want one error and nothing in flight", s)
	}
	if s := findResource("GET /panic-untraced").Snapshot(); s.Error != 0 || s.Success != 1 || s.Concurrency != 0 {
		t.Errorf("/panic-untraced: %+v, want a success, no error, nothing in flight", s)
	}
}

func TestURLCleaner(t *testing.T) {
	useManualClock(t)
	mux := http.NewServeMux()
	g := New(WithURLCleaner(func(r *http.Request, name string) string {
		if strings.HasPrefix(r.URL.Path, "/clean/static/") {
			return "" // not guarded
		}
		return "web:" + name
	}))
	g.HandleFunc(mux, "GET /clean/static/", ok)
	g.HandleFunc(mux, "GET /clean/{id}", ok)
	mustLoad(t, runtime.Rules{Flow: []runtime.FlowRule{
		{Resource: "web:GET /clean/static/", Grade: runtime.FlowGradeQPS, Count: 0},
		{Resource: "GET /clean/static/", Grade: runtime.FlowGradeQPS, Count: 0},
	}})
	srv := serve(t, mux)
	if r := get(t, srv, "/clean/static/a.css"); r.status != 200 {
		t.Errorf("skipped route: status %d, want 200", r.status)
	}
	get(t, srv, "/clean/9")
	if r := findResource("web:GET /clean/{id}"); r == nil || r.Snapshot().Pass != 1 {
		t.Error("cleaned name not used as the resource")
	}
}

func TestOriginReachesRulesAndHandler(t *testing.T) {
	useManualClock(t)
	mux := http.NewServeMux()
	// The handler reports what it saw in a response header: the test and
	// the server's goroutines share no variable.
	New(WithOriginHeader("X-Caller")).HandleFunc(mux, "GET /origin", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Seen", runtime.OriginFrom(r.Context()))
	})
	srv := serve(t, mux)
	if seen := get(t, srv, "/origin", "X-Caller", "billing").header.Get("X-Seen"); seen != "billing" {
		t.Errorf("handler saw origin %q, want billing", seen)
	}
	if seen := get(t, srv, "/origin").header.Get("X-Seen"); seen != "" {
		t.Errorf("handler saw origin %q without the header", seen)
	}
}

func TestEntranceForChainRules(t *testing.T) {
	useManualClock(t)
	inner := runtime.NewResource("chain-inner")
	mux := http.NewServeMux()
	g := New()
	h := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Entrance", runtime.EntranceFrom(r.Context()))
		e, be := inner.Entry(r.Context())
		if be != nil {
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		e.Exit()
	}
	g.HandleFunc(mux, "GET /chain/a", h)
	g.HandleFunc(mux, "GET /chain/b", h)
	mustLoad(t, runtime.Rules{Flow: []runtime.FlowRule{{
		Resource: "chain-inner", Grade: runtime.FlowGradeQPS, Count: 0,
		Strategy: runtime.StrategyChain, RefResource: "GET /chain/a",
	}}})
	srv := serve(t, mux)
	a := get(t, srv, "/chain/a")
	if a.status != http.StatusTooManyRequests {
		t.Errorf("via /chain/a: status %d, want 429 from the chain rule", a.status)
	}
	b := get(t, srv, "/chain/b")
	if b.status != 200 {
		t.Errorf("via /chain/b: status %d, want 200", b.status)
	}
	if ea, eb := a.header.Get("X-Entrance"), b.header.Get("X-Entrance"); ea != "GET /chain/a" || eb != "" {
		t.Errorf("entrances %q and %q, want GET /chain/a and none", ea, eb)
	}
}

func TestMuxGuardsEveryRoute(t *testing.T) {
	useManualClock(t)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /mux/{id}", func(w http.ResponseWriter, r *http.Request) { w.Header().Set("X-Pattern", r.Pattern) })
	mustLoad(t, runtime.Rules{Flow: []runtime.FlowRule{{Resource: "GET /mux/{id}", Grade: runtime.FlowGradeQPS, Count: 1}}})
	srv := serve(t, New().Mux(mux))
	if r := get(t, srv, "/mux/1"); r.status != 200 || r.header.Get("X-Pattern") != "GET /mux/{id}" {
		t.Fatalf("status %d, pattern %q", r.status, r.header.Get("X-Pattern"))
	}
	if r := get(t, srv, "/mux/2"); r.status != http.StatusTooManyRequests {
		t.Errorf("second request: status %d, want 429", r.status)
	}
	if r := get(t, srv, "/nothing-here"); r.status != http.StatusNotFound {
		t.Errorf("unmatched: status %d, want the mux's 404", r.status)
	}
	var notFound *runtime.Resource
	cleaned := New(WithURLCleaner(func(r *http.Request, name string) string {
		if name == "" {
			return "mux-unmatched"
		}
		return name
	})).Mux(mux)
	srv2 := serve(t, cleaned)
	get(t, srv2, "/nothing-here")
	if notFound = findResource("mux-unmatched"); notFound == nil || notFound.Snapshot().Pass != 1 {
		t.Error("the cleaner's name for unmatched requests was not guarded")
	}
}

func TestCustomBlockHandler(t *testing.T) {
	useManualClock(t)
	mux := http.NewServeMux()
	New(WithBlockHandler(func(w http.ResponseWriter, r *http.Request, be *runtime.BlockError) {
		w.Header().Set("X-Block", be.Type().String()+" "+be.Resource())
		w.WriteHeader(http.StatusTeapot)
	})).HandleFunc(mux, "GET /custom", ok)
	mustLoad(t, runtime.Rules{Flow: []runtime.FlowRule{{Resource: "GET /custom", Grade: runtime.FlowGradeQPS, Count: 0}}})
	srv := serve(t, mux)
	r := get(t, srv, "/custom")
	if r.status != http.StatusTeapot {
		t.Errorf("status %d, want the handler's 418", r.status)
	}
	if got := r.header.Get("X-Block"); got != "flow GET /custom" {
		t.Errorf("block handler got %q", got)
	}
}
