// Package routetest is what the router adapters' tests share: rules in force
// for one test, a real server on 127.0.0.1, a request and its answer, and
// the resources the runtime knows.
package routetest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// UseRules loads rules for one test and clears them when it ends; the
// runtime's rules are process-wide, so tests that use it do not run in
// parallel.
func UseRules(t testing.TB, rules runtime.Rules) {
	t.Helper()
	if err := runtime.LoadRules(rules); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = runtime.LoadRules(runtime.Rules{}) })
}

// Serve starts a real server on 127.0.0.1 for h, closed when the test ends.
func Serve(t testing.TB, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// Get requests path from srv with the given header name and value pairs
// and returns the answer's status and header, the body read and dropped.
func Get(t testing.TB, srv *httptest.Server, path string, header ...string) (int, http.Header) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp.StatusCode, resp.Header
}

// HasResource reports whether the runtime knows a resource named name.
func HasResource(name string) bool {
	for _, r := range runtime.Resources() {
		if r.Name() == name {
			return true
		}
	}
	return false
}
