package edge

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/rules"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// clockStart moves each test's manual clock to a time of its own, so the
// process-wide statistics of one test are not in another's windows.
var clockStart = 1000 * time.Second

// start serves the example on 127.0.0.1 with rules.toml in force and a
// manual clock, so every request of the test falls in one second.
func start(t *testing.T) *httptest.Server {
	t.Helper()
	clockStart += 100 * time.Second
	runtime.SetClock(runtime.NewManualClock(clockStart))
	set, err := rules.Load("rules.toml")
	if err != nil {
		t.Fatal(err)
	}
	if err := rules.Apply(set); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		runtime.SetClock(nil)
		_ = runtime.LoadRules(runtime.Rules{})
	})
	srv := httptest.NewServer(NewHandler(NewStore()))
	t.Cleanup(srv.Close)
	return srv
}

func TestExampleRoutesUnderTheirRules(t *testing.T) {
	srv := start(t)
	resp, err := http.Post(srv.URL+"/orders", "application/json", strings.NewReader(`{"item":"book","qty":2}`))
	if err != nil {
		t.Fatal(err)
	}
	var o Order
	if err := json.NewDecoder(resp.Body).Decode(&o); err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d %v", resp.StatusCode, err)
	}
	resp.Body.Close()

	// 25 reads in one second: the chain rule lets 10 store reads through,
	// the route's own rule 20 requests; the rest are refused.
	codes := map[int]int{}
	for range 25 {
		resp, err := http.Get(srv.URL + "/orders/" + o.ID)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		codes[resp.StatusCode]++
	}
	if codes[200] != 10 || codes[429] != 15 {
		t.Errorf("reads answered %v, want 10 OK and 15 refused", codes)
	}
	find := func(name string) runtime.Snapshot {
		for _, r := range runtime.Resources() {
			if r.Name() == name {
				return r.Snapshot()
			}
		}
		t.Fatalf("no resource %q", name)
		return runtime.Snapshot{}
	}
	if s := find(GetOrder); s.Pass != 20 || s.Block != 5 {
		t.Errorf("%s: %+v, want 20 passed and 5 blocked", GetOrder, s)
	}
	if s := find(StoreRead); s.Pass != 10 || s.Block != 10 {
		t.Errorf("%s: %+v, want 10 passed and 10 blocked", StoreRead, s)
	}

	// The listing reads the store too, outside the chain rule's entrance.
	resp, err = http.Get(srv.URL + "/orders")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("list: %d, want 200 (the chain rule is for GET /orders/{id} only)", resp.StatusCode)
	}

	// The health check is not guarded.
	resp, err = http.Get(srv.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Errorf("healthz: %d", resp.StatusCode)
	}
}

func TestExampleCreationLimit(t *testing.T) {
	srv := start(t)
	var refused *http.Response
	for i := range 6 {
		resp, err := http.Post(srv.URL+"/orders", "application/json", strings.NewReader(`{"item":"pen","qty":1}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if i == 5 {
			refused = resp
		} else if resp.StatusCode != http.StatusCreated {
			t.Fatalf("creation %d: %d", i, resp.StatusCode)
		}
	}
	if refused.StatusCode != http.StatusTooManyRequests || refused.Header.Get("Retry-After") != "1" {
		t.Errorf("sixth creation: %d, Retry-After %q; want 429 with Retry-After 1", refused.StatusCode, refused.Header.Get("Retry-After"))
	}
}
