package console

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/metrics"
	"github.com/sentinelgen/sentinelgen/runtime"
	"github.com/sentinelgen/sentinelgen/transport"
)

const epochMs = 1_764_590_000_000

// TestStateUnderManualClock runs a workload under a manual clock and checks
// that api/state reports the completed seconds, the breaker, its transition
// and the rules.
func TestStateUnderManualClock(t *testing.T) {
	clock := runtime.NewManualClock(1000 * time.Second)
	runtime.SetClock(clock)
	name := t.Name() + "/orders"
	res := runtime.NewResource(name)
	t.Cleanup(func() {
		runtime.SetClock(nil)
		_ = runtime.LoadRules(runtime.Rules{})
	})
	if err := runtime.LoadRules(runtime.Rules{
		Flow:    []runtime.FlowRule{{Resource: name, Grade: runtime.FlowGradeQPS, Count: 3}},
		Degrade: []runtime.DegradeRule{{Resource: name, Grade: runtime.DegradeErrorCount, Count: 1, MinRequestAmount: 1, TimeWindowSec: 30}},
	}); err != nil {
		t.Fatal(err)
	}
	wall := func() int64 { return epochMs + clock.Now().Milliseconds() }
	s := metrics.New(metrics.Config{WallMs: wall, Resources: func() []*runtime.Resource { return []*runtime.Resource{res} }})
	c := New(Config{Sampler: s, Title: "orders", Now: func() time.Time { return time.UnixMilli(wall()) }})
	defer c.Close()
	s.Poll()
	// Second 0: 5 calls of 20 ms; the first two fail, which opens the
	// breaker (2 errors > 1) at 40 ms, and it refuses the other three.
	for i := range 5 {
		e, be := res.Entry(context.Background())
		if be != nil {
			continue
		}
		clock.Advance(20 * time.Millisecond)
		if i < 2 {
			e.TraceError(errors.New("boom"))
		}
		e.Exit()
	}
	clock.Set(1001*time.Second + 100*time.Millisecond)
	s.Poll()
	clock.Advance(500 * time.Millisecond)
	s.Poll()

	srv := httptest.NewServer(c)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/api/state")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st State
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	sec0 := epochMs + int64(1000_000)
	if st.Title != "orders" || st.LatestMs != sec0 || len(st.Resources) != 1 {
		t.Fatalf("state %+v", st)
	}
	r := st.Resources[0]
	want := Point{T: sec0, Pass: 2, Block: 3, Success: 2, Error: 2, RTMs: 20}
	if r.Name != name || r.Last != want {
		t.Errorf("last %+v, want %+v", r.Last, want)
	}
	if len(r.Series) != 1 || r.Series[0] != want {
		t.Errorf("series %+v", r.Series)
	}
	if len(r.Breakers) != 1 || r.Breakers[0].State != "OPEN" || !strings.HasPrefix(r.Breakers[0].Rule, "degrade rule #0") {
		t.Errorf("breakers %+v", r.Breakers)
	}
	if len(st.Transitions) != 1 || st.Transitions[0].From != "CLOSED" || st.Transitions[0].To != "OPEN" ||
		st.Transitions[0].Resource != name || st.Transitions[0].AtMs != sec0+40 {
		t.Errorf("transitions %+v", st.Transitions)
	}
	if len(st.Flow) != 1 || st.Flow[0].Count != 3 || st.Flow[0].Grade != "QPS" || len(st.Degrade) != 1 || st.Degrade[0].Grade != "error count" {
		t.Errorf("rules %+v %+v", st.Flow, st.Degrade)
	}
	if len(r.Blocked) != 2 || r.Blocked[0].Type != "flow" || r.Blocked[0].Blocked != 0 ||
		r.Blocked[1].Type != "degrade" || r.Blocked[1].Blocked != 3 {
		t.Errorf("blocked %+v, want flow 0, degrade 3", r.Blocked)
	}
}

// TestServesEmbeddedPageReadOnly checks the page's assets and that the
// handler refuses anything but GET and HEAD.
func TestServesEmbeddedPageReadOnly(t *testing.T) {
	c := New(Config{Sampler: metrics.New(metrics.Config{Resources: func() []*runtime.Resource { return nil }})})
	defer c.Close()
	srv := httptest.NewServer(c)
	defer srv.Close()
	for path, want := range map[string]string{"/": "text/html", "/console.js": "javascript", "/console.css": "text/css", "/api/state": "application/json"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Type"), want) {
			t.Errorf("GET %s: %d %q, want 200 %s", path, resp.StatusCode, resp.Header.Get("Content-Type"), want)
		}
		if csp := resp.Header.Get("Content-Security-Policy"); csp != "default-src 'self'" {
			t.Errorf("GET %s: CSP %q", path, csp)
		}
	}
	page, _ := assets.ReadFile("assets/index.html")
	for _, ext := range []string{"http://", "https://", "//cdn"} {
		if strings.Contains(string(page), ext) {
			t.Errorf("index.html refers to an external asset (%s)", ext)
		}
	}
	resp, err := http.Post(srv.URL+"/api/state", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST answered %d, want 405", resp.StatusCode)
	}
}

// The pushes the command center refused show in api/state (and on the
// page), with the last one's time, kind, caller and reason; without
// Config.Refusals the field is left out.
func TestStateShowsRefusedPushes(t *testing.T) {
	s := metrics.New(metrics.Config{Resources: func() []*runtime.Resource { return nil }})
	at := time.UnixMilli(1_764_590_000_123)
	c := New(Config{Sampler: s, Refusals: func() transport.PushRefusals {
		return transport.PushRefusals{Count: 3, Last: transport.PushRefusal{At: at, Kind: "degrade", Caller: "127.0.0.1:5000", Reason: "read-only"}}
	}})
	defer c.Close()
	got := c.State().Refused
	want := &RefusedPushes{Count: 3, LastAtMs: at.UnixMilli(), Kind: "degrade", Caller: "127.0.0.1:5000", Reason: "read-only"}
	if got == nil || *got != *want {
		t.Errorf("refused = %+v, want %+v", got, want)
	}
	plain := New(Config{Sampler: s})
	defer plain.Close()
	if r := plain.State().Refused; r != nil {
		t.Errorf("refused without Config.Refusals = %+v", r)
	}
	page, _ := assets.ReadFile("assets/index.html")
	script, _ := assets.ReadFile("assets/console.js")
	if !strings.Contains(string(page), `id="refused"`) || !strings.Contains(string(script), "st.refused") {
		t.Error("the page has no place for refused pushes")
	}
}
