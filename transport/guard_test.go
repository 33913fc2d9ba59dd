package transport

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// onePush is a valid flow push of one rule.
func onePush(t *testing.T) url.Values {
	return url.Values{"type": {"flow"}, "data": {`[{"resource":"` + t.Name() + `","grade":1,"count":2.0}]`}}
}

// A push over GET is refused (a link or an image in a page would
// otherwise change the rules), whatever the kind.
func TestWritesArePostOnly(t *testing.T) {
	f := newGatewayFixture(t, Config{})
	for cmd, p := range map[string]url.Values{
		"setRules":                     onePush(t),
		"setParamFlowRules":            {"data": {`[]`}},
		"gateway/updateRules":          {"data": {`[]`}},
		"gateway/updateApiDefinitions": {"data": {`[]`}},
	} {
		code, body := f.get(cmd, p)
		if code != http.StatusMethodNotAllowed || !strings.Contains(body, "POST only") {
			t.Errorf("GET %s = %d %q, want 405", cmd, code, body)
		}
	}
	if got := runtime.FlowRules(); len(got) != 0 {
		t.Errorf("a GET push changed the rules: %+v", got)
	}
	if r := f.srv.Refusals(); r.Count != 4 {
		t.Errorf("refusals = %+v, want the 4 GETs", r)
	}
	if code, body := f.post("setRules", onePush(t)); code != 200 || body != "success" {
		t.Errorf("POST setRules = %d %q", code, body)
	}
}

// withHeaders sends cmd as the dashboard would, plus the given headers.
func (f *fixture) withHeaders(method, cmd string, form url.Values, h map[string]string) (int, string) {
	f.t.Helper()
	var req *http.Request
	if method == http.MethodPost {
		req, _ = http.NewRequest(method, f.base+"/"+cmd, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded; charset=UTF-8")
	} else {
		req, _ = http.NewRequest(method, f.base+"/"+cmd+"?"+form.Encode(), nil)
	}
	for k, v := range h {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	return f.do(req)
}

// A page of another site cannot push (a cross-site form sends Origin) and
// a page whose name was rebound to this machine cannot read or push (its
// requests carry its own name as Host).
func TestForeignHostAndOriginAreRefused(t *testing.T) {
	f := newFixture(t, Config{})
	own := strings.TrimPrefix(f.base, "http://")
	for _, h := range []map[string]string{
		{"Origin": "http://attacker.example"},
		{"Origin": "null"},
		{"Origin": "http://localhost:3000"}, // another port is another origin
		{"Host": "attacker.example:" + own[strings.LastIndex(own, ":")+1:]},
		{"Sec-Fetch-Site": "cross-site"},
	} {
		if code, body := f.withHeaders(http.MethodPost, "setRules", onePush(t), h); code != http.StatusForbidden || !strings.Contains(body, "refused") {
			t.Errorf("push with %v = %d %q, want 403", h, code, body)
		}
		if code, body := f.withHeaders(http.MethodGet, "getRules", url.Values{"type": {"flow"}}, h); code != http.StatusForbidden {
			t.Errorf("getRules with %v = %d %q, want 403", h, code, body)
		}
	}
	if got := runtime.FlowRules(); len(got) != 0 {
		t.Errorf("a foreign push changed the rules: %+v", got)
	}
	if r := f.srv.Refusals(); r.Count != 5 || !strings.HasPrefix(r.Last.Caller, "127.0.0.1:") {
		t.Errorf("refusals = %+v, want the 5 pushes", r)
	}
	// The names of this machine, and a page of the command center itself.
	for _, h := range []map[string]string{
		{},
		{"Host": "localhost:8719"},
		{"Host": "[::1]:8719"},
		{"Host": "127.0.0.2"},
		{"Origin": f.base},
	} {
		if code, body := f.withHeaders(http.MethodPost, "setRules", onePush(t), h); code != 200 || body != "success" {
			t.Errorf("push with %v = %d %q, want success", h, code, body)
		}
	}
}

func TestAllowedHostsAddNames(t *testing.T) {
	f := newFixture(t, Config{AllowedHosts: []string{"Sentinel-Client.example"}})
	if code, body := f.withHeaders(http.MethodGet, "getRules", url.Values{"type": {"flow"}}, map[string]string{"Host": "sentinel-client.example:8719"}); code != 200 {
		t.Errorf("getRules with an allowed Host = %d %q", code, body)
	}
}

// Only the callers of the allow-list may push; everyone may read.
func TestWriteClientsRestrictPushes(t *testing.T) {
	f := newFixture(t, Config{WriteClients: []string{"192.0.2.0/24"}})
	code, body := f.post("setRules", onePush(t))
	if code != http.StatusForbidden || !strings.Contains(body, "WriteClients") {
		t.Errorf("push from loopback outside the allow-list = %d %q", code, body)
	}
	if got := runtime.FlowRules(); len(got) != 0 {
		t.Errorf("a refused caller changed the rules: %+v", got)
	}
	if code, _ := f.get("getRules", url.Values{"type": {"flow"}}); code != 200 {
		t.Errorf("getRules = %d", code)
	}
}

// The default allow-list is loopback and the dashboard's host; an entry may
// be an address, a prefix or a name.
func TestWriteClientsDefault(t *testing.T) {
	s := &Server{cfg: Config{Listen: "127.0.0.1:0", Dashboard: "192.0.2.7:8080"}, log: slog.New(slog.DiscardHandler)}
	s.guard = s.newGuard("")
	caller := func(addr string) bool {
		r := httptest.NewRequest(http.MethodPost, "/setRules", nil)
		r.RemoteAddr = addr
		return s.writeAllowed(r)
	}
	for addr, want := range map[string]bool{
		"127.0.0.1:5000": true, "127.3.4.5:5000": true, "[::1]:5000": true, "192.0.2.7:40000": true,
		"192.0.2.8:40000": false, "10.0.0.1:5000": false, "[::ffff:192.0.2.7]:1": true, "bogus": false,
	} {
		if got := caller(addr); got != want {
			t.Errorf("default allow-list, caller %s: %v, want %v", addr, got, want)
		}
	}
	s.cfg.WriteClients = []string{"10.1.0.0/16", "192.0.2.9", "localhost"}
	s.guard = s.newGuard("")
	for addr, want := range map[string]bool{
		"10.1.200.3:1": true, "192.0.2.9:1": true, "127.0.0.1:1": true, "192.0.2.7:1": false,
	} {
		if got := caller(addr); got != want {
			t.Errorf("allow-list %v, caller %s: %v, want %v", s.cfg.WriteClients, addr, got, want)
		}
	}
}

// syncBuffer is a log destination several goroutines may write.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// Every push is logged with its caller, its kind, what it changed and its
// result; so is every refused one.
func TestPushesAreLogged(t *testing.T) {
	var logs syncBuffer
	f := newFixture(t, Config{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err := runtime.LoadFlowRules(manyFlowRules(3)); err != nil {
		t.Fatal(err)
	}
	if code, body := f.post("setRules", url.Values{"type": {"flow"}, "data": {flowPushJSON(manyFlowRules(2))}}); code != 200 {
		t.Fatalf("push = %d %q", code, body)
	}
	out := logs.String()
	for _, want := range []string{"caller=127.0.0.1:", "kind=flow", "before=3", "after=2", "unchanged=2", "result=success"} {
		if !strings.Contains(out, want) {
			t.Errorf("push log lacks %q:\n%s", want, out)
		}
	}
	if code, _ := f.post("setRules", url.Values{"type": {"degrade"}, "data": {`[{"resource":"x","grade":9}]`}}); code != 400 {
		t.Fatalf("invalid push = %d", code)
	}
	out = logs.String()
	if !strings.Contains(out, "refused a rule push") || !strings.Contains(out, "kind=degrade") || !strings.Contains(out, "refused=1") {
		t.Errorf("refused push not logged:\n%s", out)
	}
}

// A read-only service refuses every push; the dashboard's degrade, system
// and authority pages show success anyway, so the refusal is counted and
// the last one kept for the service's own page and metrics.
func TestReadOnlyRefusalsAreVisible(t *testing.T) {
	f := newFixture(t, Config{ReadOnly: true})
	if r := f.srv.Refusals(); r.Count != 0 || !r.Last.At.IsZero() {
		t.Errorf("refusals before any push = %+v", r)
	}
	for _, kind := range []string{"degrade", "system", "authority"} {
		if code, _ := f.post("setRules", url.Values{"type": {kind}, "data": {"[]"}}); code != http.StatusForbidden {
			t.Errorf("read-only %s push = %d", kind, code)
		}
	}
	r := f.srv.Refusals()
	if r.Count != 3 || r.Last.Kind != "authority" || !strings.HasPrefix(r.Last.Caller, "127.0.0.1:") ||
		!strings.Contains(r.Last.Reason, "read-only") || r.Last.At.IsZero() {
		t.Errorf("refusals = %+v", r)
	}
	if in := currentRules(); !reflect.DeepEqual(in, runtime.Rules{}) && (len(in.Degrade)+len(in.System)+len(in.Authority)) != 0 {
		t.Errorf("read-only pushes changed the rules: %+v", in)
	}
}
