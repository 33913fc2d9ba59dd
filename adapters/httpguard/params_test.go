package httpguard

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

func TestParamSources(t *testing.T) {
	mux := http.NewServeMux()
	var got []runtime.ParamArg
	params := []Param{PathValue("id"), Query("q"), Header("x-tenant"), ClientIP(), PathValue("missing"), Query("none")}
	mux.HandleFunc("GET /p/{id}", func(w http.ResponseWriter, r *http.Request) {
		for _, p := range params {
			got = append(got, p.arg(r, ""))
		}
	})
	r := httptest.NewRequest(http.MethodGet, "/p/a%2Fb?x=1&q=hello+world&q=2", nil)
	r.Header.Set("X-Tenant", "acme")
	r.RemoteAddr = "192.0.2.7:41234"
	mux.ServeHTTP(httptest.NewRecorder(), r)
	want := []runtime.ParamArg{
		runtime.StringArg("a/b"), runtime.StringArg("hello world"), runtime.StringArg("acme"),
		runtime.StringArg("192.0.2.7"), {}, {},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d args, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("arg %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestQueryValue(t *testing.T) {
	for _, c := range []struct {
		raw, key, want string
		ok             bool
	}{
		{"a=1&b=2", "b", "2", true},
		{"a=1&a=2", "a", "1", true},
		{"a", "a", "", true},
		{"%61=x", "a", "x", true},
		{"a=%zz", "a", "%zz", true},
		{"ab=1", "a", "", false},
		{"", "a", "", false},
	} {
		v, ok := queryValue(c.raw, c.key)
		if v != c.want || ok != c.ok {
			t.Errorf("queryValue(%q, %q) = %q, %v; want %q, %v", c.raw, c.key, v, ok, c.want, c.ok)
		}
	}
}

// TestMuxPathValuesMatchServeMux holds matchPathValue, which reads path
// values before the mux has routed the request, to what ServeMux itself sets.
func TestMuxPathValuesMatchServeMux(t *testing.T) {
	for _, c := range []struct{ pattern, path, name string }{
		{"/o/{id}", "/o/42", "id"},
		{"/o/{id}/items/{item}", "/o/42/items/x%20y", "item"},
		{"/files/{rest...}", "/files/a/b/c%2Fd", "rest"},
		{"/u/{name}/", "/u/%E2%9C%93/", "name"},
		{"example.com/h/{v}", "/h/9", "v"},
	} {
		mux := http.NewServeMux()
		var want string
		mux.HandleFunc(c.pattern, func(w http.ResponseWriter, r *http.Request) { want = r.PathValue(c.name) })
		r := httptest.NewRequest(http.MethodGet, "http://example.com"+c.path, nil)
		mux.ServeHTTP(httptest.NewRecorder(), r)
		_, hostPath := splitPattern(c.pattern)
		path := hostPath[strings.IndexByte(hostPath, '/'):]
		got, ok := matchPathValue(path, r.URL.EscapedPath(), c.name)
		if !ok || got != want {
			t.Errorf("%s on %s: got %q, %v; ServeMux says %q", c.pattern, c.path, got, ok, want)
		}
	}
}

func TestParamsUnderMux(t *testing.T) {
	useManualClock(t)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /pm/{sku}", ok)
	m := New().Mux(mux, WithParams(PathValue("sku"))).(*muxGuard)
	r := httptest.NewRequest(http.MethodGet, "/pm/sku-1", nil)
	m.ServeHTTP(httptest.NewRecorder(), r)
	rt, found := m.routes.Load("GET /pm/{sku}")
	if !found {
		t.Fatal("no route cached for the pattern")
	}
	if a := rt.cfg.params[0].arg(r, rt.path); a != runtime.StringArg("sku-1") {
		t.Errorf("path value under Mux = %+v, want sku-1", a)
	}
}
