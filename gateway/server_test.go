package gateway

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// TestGuardOverLoopback puts a Guard in front of a real ServeMux served on
// 127.0.0.1, with rules and API definitions read from Sentinel JSON: the
// route's rule limits per client IP, the API group's in total.
func TestGuardOverLoopback(t *testing.T) {
	setup(t)
	rules, err := ParseFlowRules("gw-flow.json", []byte(`[
		{"resource": "GET /items/{id}", "count": 4, "paramItem": {"parseStrategy": 0}},
		{"resource": "items-api", "resourceMode": 1, "count": 2}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	apis, err := ParseAPIDefinitions("gw-api-group.json", []byte(`[
		{"apiName": "items-api", "predicateItems": [{"pattern": "/items/7", "matchStrategy": 0}]}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	mustLoad(t, rules, apis)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /items/{id}", func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, r.PathValue("id")) })
	g := NewGuard(mux, WithRoute(func(r *http.Request) string { _, p := mux.Handler(r); return p }))
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	var got []int
	for _, path := range []string{"/items/7", "/items/7", "/items/7", "/items/1", "/items/2"} {
		resp, err := srv.Client().Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		got = append(got, resp.StatusCode)
	}
	// /items/7: 2 a second for the API group, so the third is refused by
	// it, after the route admitted it (the route's budget is spent, as in
	// Sentinel, whose entries take their tokens in order); /items/1 is the
	// route's fourth request from 127.0.0.1, /items/2 its fifth.
	want := []int{200, 200, 429, 200, 429}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
	for _, r := range runtime.Resources() {
		if r.Name() == "items-api" && r.ResourceType() != runtime.ResourceTypeGateway {
			t.Errorf("items-api is of type %v, want gateway", r.ResourceType())
		}
	}
}
