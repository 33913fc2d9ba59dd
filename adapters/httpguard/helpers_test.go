package httpguard

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// clockStart moves each test's manual clock to a time of its own, so the
// statistics of a resource used again (another test, -count) are not in
// its windows.
var clockStart = 1000 * time.Second

// useManualClock installs a manual clock and clears every rule when the
// test ends: the runtime's rules and clock are process-wide, so the tests
// of this package do not run in parallel.
func useManualClock(t *testing.T) *runtime.ManualClock {
	t.Helper()
	clockStart += 100 * time.Second
	c := runtime.NewManualClock(clockStart)
	runtime.SetClock(c)
	t.Cleanup(func() {
		runtime.SetClock(nil)
		if err := runtime.LoadRules(runtime.Rules{}); err != nil {
			t.Errorf("clearing rules: %v", err)
		}
	})
	return c
}

func mustLoad(t *testing.T, rules runtime.Rules) {
	t.Helper()
	if err := runtime.LoadRules(rules); err != nil {
		t.Fatal(err)
	}
}

// serve starts a real server on 127.0.0.1 for h.
func serve(t *testing.T, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

type reply struct {
	status int
	header http.Header
	body   string
}

func do(t *testing.T, srv *httptest.Server, method, path string, header ...string) reply {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, nil)
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
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return reply{status: resp.StatusCode, header: resp.Header, body: string(b)}
}

func get(t *testing.T, srv *httptest.Server, path string, header ...string) reply {
	t.Helper()
	return do(t, srv, http.MethodGet, path, header...)
}

func ok(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok") }

// findResource returns the declared resource named name, or nil.
func findResource(name string) *runtime.Resource {
	for _, r := range runtime.Resources() {
		if r.Name() == name {
			return r
		}
	}
	return nil
}

func httptestRecorder() *httptest.ResponseRecorder { return httptest.NewRecorder() }

func mustRequest(t *testing.T, path string) *http.Request {
	t.Helper()
	return httptest.NewRequest(http.MethodGet, path, nil)
}
