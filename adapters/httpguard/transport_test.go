package httpguard

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

func TestPathPatternMatch(t *testing.T) {
	cases := []struct {
		pattern string
		path    string
		want    bool
	}{
		{"/orders/{id}", "/orders/42", true},
		{"/orders/{id}", "/orders/", false},
		{"/orders/{id}", "/orders", false},
		{"/orders/{id}", "/orders/42/items", false},
		{"/orders/{id}/items", "/orders/42/items", true},
		{"/orders/{id}/items", "/orders/42/lines", false},
		{"/files/{path...}", "/files/a/b/c", true},
		{"/files/{path...}", "/files/", true},
		{"/files/{path...}", "/files", true},
		{"/files/{path...}", "/file/a", false},
		{"/", "/", true},
		{"/", "/x", false},
		{"/health", "/health", true},
		{"/health", "/health/", false},
		{"/health/", "/health/", true},
	}
	for _, c := range cases {
		pp, err := parsePathPattern(c.pattern)
		if err != nil {
			t.Fatalf("%s: %v", c.pattern, err)
		}
		if got := pp.match(c.path); got != c.want {
			t.Errorf("%s matching %s = %v, want %v", c.pattern, c.path, got, c.want)
		}
	}
}

func TestPathPatternErrors(t *testing.T) {
	for _, p := range []string{"orders/{id}", "/files/{path...}/x", "/o/{}", "/o/{1d}", "/o/x{id}", "/o/{a b}"} {
		if _, err := parsePathPattern(p); err == nil {
			t.Errorf("%q parsed without an error", p)
		} else if !strings.Contains(err.Error(), p) {
			t.Errorf("%q: the error %q does not name the pattern", p, err)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("NewTransport accepted a malformed pattern")
		}
	}()
	NewTransport(nil, WithPathPatterns("/o/{"))
}

// countingServer is a real server on 127.0.0.1 whose answers can turn slow
// or fail; it counts the requests it receives.
type countingServer struct {
	*httptest.Server
	hits   atomic.Int64
	delay  atomic.Int64 // nanoseconds
	status atomic.Int64
}

func newCountingServer(t *testing.T) *countingServer {
	cs := &countingServer{}
	cs.status.Store(http.StatusOK)
	cs.Server = serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cs.hits.Add(1)
		if d := time.Duration(cs.delay.Load()); d > 0 {
			time.Sleep(d)
		}
		w.WriteHeader(int(cs.status.Load()))
		_, _ = io.WriteString(w, "ok")
	}))
	return cs
}

// fetchStatus calls url through client and returns the status, or the error.
func fetchStatus(t *testing.T, client *http.Client, url string) (int, error) {
	t.Helper()
	resp, err := client.Get(url)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp.StatusCode, nil
}

func TestTransportNames(t *testing.T) {
	cs := newCountingServer(t)
	host := strings.TrimPrefix(cs.URL, "http://")
	tr := NewTransport(nil, WithPathPatterns("/orders/{id}", "/orders/{id}/items", "/orders/special", "/files/{path...}"))
	client := &http.Client{Transport: tr}
	want := map[string]string{
		"/orders/42":         "GET " + host + "/orders/{id}",
		"/orders/43/items":   "GET " + host + "/orders/{id}/items",
		"/orders/special":    "GET " + host + "/orders/special",
		"/files/a/b":         "GET " + host + "/files/{path...}",
		"/users/7":           "GET " + host,
		"/orders/44?page=2":  "GET " + host + "/orders/{id}",
		"/orders/45/refunds": "GET " + host,
	}
	for path, name := range want {
		if _, err := fetchStatus(t, client, cs.URL+path); err != nil {
			t.Fatal(err)
		}
		r := tr.resourceFor(outboundRequest(t, http.MethodGet, cs.URL+path))
		if r == nil || r.Name() != name {
			t.Errorf("%s: resource %v, want %q", path, r, name)
		}
	}
	if got := tr.resources.Len(); got != 5 {
		t.Errorf("%d resources, want 5 (one per name)", got)
	}
	r := tr.resourceFor(outboundRequest(t, http.MethodPost, cs.URL+"/orders/1"))
	if r.Name() != "POST "+host+"/orders/{id}" {
		t.Errorf("POST: %q", r.Name())
	}
	if r.TrafficType() != runtime.TrafficOutbound {
		t.Errorf("traffic type %v, want outbound", r.TrafficType())
	}

	named := NewTransport(nil, WithOutboundName(func(r *http.Request) string {
		if r.URL.Path == "/unguarded" {
			return ""
		}
		return "inventory"
	}))
	if r := named.resourceFor(outboundRequest(t, http.MethodGet, cs.URL+"/x")); r == nil || r.Name() != "inventory" {
		t.Errorf("WithOutboundName: %v", r)
	}
	if r := named.resourceFor(outboundRequest(t, http.MethodGet, cs.URL+"/unguarded")); r != nil {
		t.Errorf("an empty name guarded the request as %q", r.Name())
	}
}

func outboundRequest(t *testing.T, method, url string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return req
}

// The drill: a dependency turns slow, the slow-call breaker opens, calls are
// refused without reaching the server, and when the server has recovered
// the half-open probe closes the breaker.
func TestTransportSlowCallBreaker(t *testing.T) {
	cs := newCountingServer(t)
	host := strings.TrimPrefix(cs.URL, "http://")
	name := "GET " + host + "/orders/{id}"
	var mu sync.Mutex
	var states []runtime.BreakerState
	defer runtime.OnBreakerStateChange(func(ev runtime.BreakerEvent) {
		if ev.Resource == name {
			mu.Lock()
			states = append(states, ev.To)
			mu.Unlock()
		}
	})()
	t.Cleanup(func() { _ = runtime.LoadRules(runtime.Rules{}) })
	mustLoad(t, runtime.Rules{Degrade: []runtime.DegradeRule{{
		Resource: name, Grade: runtime.DegradeSlowRatio, Count: 50, SlowRatioThreshold: 0.5,
		TimeWindowSec: 1, MinRequestAmount: 3, StatIntervalMs: 10000,
	}}})
	client := &http.Client{Transport: NewTransport(nil, WithPathPatterns("/orders/{id}"))}

	for i := range 5 {
		if status, err := fetchStatus(t, client, cs.URL+"/orders/1"); err != nil || status != 200 {
			t.Fatalf("fast call %d: %d %v", i, status, err)
		}
	}
	cs.delay.Store(int64(120 * time.Millisecond))
	var be *runtime.BlockError
	for i := 0; ; i++ {
		_, err := fetchStatus(t, client, cs.URL+"/orders/1")
		if errors.As(err, &be) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if i == 20 {
			t.Fatal("the slow-call breaker did not open after 20 slow calls")
		}
	}
	if be.Type() != runtime.BlockTypeDegrade || be.Resource() != name || be.Rule() == "" {
		t.Errorf("block error: type %v, resource %q, rule %q", be.Type(), be.Resource(), be.Rule())
	}
	var ue *url.Error
	if !errors.As(errorOf(fetchStatus(t, client, cs.URL+"/orders/2")), &ue) {
		t.Error("the refusal did not come through http.Client as a *url.Error")
	}
	if d := RetryAfter(be); d <= 0 || d > time.Second {
		t.Errorf("RetryAfter = %v, want the rest of the 1 s window", d)
	}
	hits := cs.hits.Load()
	for range 20 {
		if _, err := fetchStatus(t, client, cs.URL+"/orders/3"); !errors.As(err, &be) {
			t.Fatalf("a call passed the open breaker: %v", err)
		}
	}
	if got := cs.hits.Load(); got != hits {
		t.Fatalf("refused calls reached the server: %d requests, want %d", got, hits)
	}

	cs.delay.Store(0)
	deadline := time.Now().Add(5 * time.Second)
	for {
		status, err := fetchStatus(t, client, cs.URL+"/orders/4")
		if err == nil && status == 200 {
			break
		}
		if !errors.As(err, &be) || time.Now().After(deadline) {
			t.Fatalf("the breaker did not let a probe through: %d %v", status, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	for i := range 5 {
		if status, err := fetchStatus(t, client, cs.URL+"/orders/5"); err != nil || status != 200 {
			t.Fatalf("after the probe, call %d: %d %v", i, status, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	wantStates := []runtime.BreakerState{runtime.StateOpen, runtime.StateHalfOpen, runtime.StateClosed}
	if !slices.Equal(states, wantStates) {
		t.Errorf("breaker states %v, want %v", states, wantStates)
	}
}

func errorOf(_ int, err error) error { return err }

// A 5xx answer, a transport error and a timeout each count as an error for
// the error-count breaker; a 4xx does not.
func TestTransportTracesErrors(t *testing.T) {
	cs := newCountingServer(t)
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()

	cases := []struct {
		name   string
		url    string
		client func(tr http.RoundTripper) *http.Client
		prep   func()
	}{
		{"5xx", cs.URL + "/e5xx", nil, func() { cs.status.Store(http.StatusBadGateway) }},
		{"refused connection", closedURL + "/refused", nil, nil},
		{"timeout", cs.URL + "/timeout", func(tr http.RoundTripper) *http.Client {
			return &http.Client{Transport: tr, Timeout: 30 * time.Millisecond}
		}, func() { cs.delay.Store(int64(300 * time.Millisecond)) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cs.status.Store(http.StatusOK)
			cs.delay.Store(0)
			if c.prep != nil {
				c.prep()
			}
			name := "outbound-errors-" + c.name
			tr := NewTransport(nil, WithOutboundName(func(*http.Request) string { return name }))
			client := &http.Client{Transport: tr}
			if c.client != nil {
				client = c.client(tr)
			}
			mustLoad(t, runtime.Rules{Degrade: []runtime.DegradeRule{{
				Resource: name, Grade: runtime.DegradeErrorCount, Count: 2, TimeWindowSec: 60, MinRequestAmount: 1,
			}}})
			t.Cleanup(func() { _ = runtime.LoadRules(runtime.Rules{}) })
			var be *runtime.BlockError
			for i := range 3 {
				if _, err := fetchStatus(t, client, c.url); errors.As(err, &be) {
					t.Fatalf("call %d refused before the breaker could count three errors", i)
				}
			}
			if _, err := fetchStatus(t, client, c.url); !errors.As(err, &be) {
				t.Fatalf("after three failed calls the breaker is not open: %v", err)
			}
		})
	}

	t.Run("4xx", func(t *testing.T) {
		cs.status.Store(http.StatusNotFound)
		cs.delay.Store(0)
		name := "outbound-errors-4xx"
		client := &http.Client{Transport: NewTransport(nil, WithOutboundName(func(*http.Request) string { return name }))}
		mustLoad(t, runtime.Rules{Degrade: []runtime.DegradeRule{{
			Resource: name, Grade: runtime.DegradeErrorCount, Count: 2, TimeWindowSec: 60, MinRequestAmount: 1,
		}}})
		t.Cleanup(func() { _ = runtime.LoadRules(runtime.Rules{}) })
		for i := range 6 {
			if status, err := fetchStatus(t, client, cs.URL+"/missing"); err != nil || status != 404 {
				t.Fatalf("call %d: %d %v", i, status, err)
			}
		}
	})
}

// RoundTrip returns as soon as the header has arrived: it neither reads nor
// buffers the body, which the server is still writing.
func TestTransportDoesNotReadTheBody(t *testing.T) {
	release := make(chan struct{})
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "first")
		w.(http.Flusher).Flush()
		<-release
		_, _ = io.WriteString(w, " second")
	}))
	client := &http.Client{Transport: NewTransport(nil)}
	resp, err := client.Get(srv.URL + "/stream")
	if err != nil {
		close(release)
		t.Fatal(err)
	}
	close(release)
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil || string(body) != "first second" {
		t.Fatalf("body %q, %v", body, err)
	}
}

type closeRecorder struct {
	io.Reader
	closed atomic.Bool
}

func (c *closeRecorder) Close() error { c.closed.Store(true); return nil }

// A refused request is never sent, and its body is closed as the
// RoundTripper contract wants.
func TestTransportRefusalClosesTheBody(t *testing.T) {
	cs := newCountingServer(t)
	name := "outbound-refused"
	mustLoad(t, runtime.Rules{Flow: []runtime.FlowRule{{Resource: name, Count: 0}}})
	t.Cleanup(func() { _ = runtime.LoadRules(runtime.Rules{}) })
	client := &http.Client{Transport: NewTransport(nil, WithOutboundName(func(*http.Request) string { return name }))}
	body := &closeRecorder{Reader: strings.NewReader("payload")}
	req, err := http.NewRequest(http.MethodPost, cs.URL+"/orders", body)
	if err != nil {
		t.Fatal(err)
	}
	_, err = client.Do(req)
	var be *runtime.BlockError
	if !errors.As(err, &be) || be.Type() != runtime.BlockTypeFlow {
		t.Fatalf("want a flow block, got %v", err)
	}
	if !body.closed.Load() {
		t.Error("the refused request's body was not closed")
	}
	if cs.hits.Load() != 0 {
		t.Error("the refused request reached the server")
	}
}

// roundTripFunc answers in process, so the benchmarks time the Transport's
// own work.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func inProcessBase() http.RoundTripper {
	resp := &http.Response{StatusCode: http.StatusOK, Body: http.NoBody}
	return roundTripFunc(func(*http.Request) (*http.Response, error) { return resp, nil })
}

func TestTransportPassDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	tr := NewTransport(inProcessBase(), WithPathPatterns("/orders/{id}"))
	req := outboundRequest(t, http.MethodGet, "http://inventory:8080/orders/42")
	if _, err := tr.RoundTrip(req); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(1000, func() { _, _ = tr.RoundTrip(req) }); n != 0 {
		t.Errorf("a guarded round trip allocates %.1f times", n)
	}
}

// BenchmarkTransport is the guarded round trip over an in-process base;
// BenchmarkTransportBare is the base alone.
func BenchmarkTransport(b *testing.B) {
	tr := NewTransport(inProcessBase(), WithPathPatterns("/users/{id}", "/orders/{id}", "/orders/{id}/items"))
	req, _ := http.NewRequest(http.MethodGet, "http://inventory:8080/orders/42", nil)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tr.RoundTrip(req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTransportBare is BenchmarkTransport's base without the Transport.
func BenchmarkTransportBare(b *testing.B) {
	base := inProcessBase()
	req, _ := http.NewRequest(http.MethodGet, "http://inventory:8080/orders/42", nil)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := base.RoundTrip(req); err != nil {
			b.Fatal(err)
		}
	}
}
