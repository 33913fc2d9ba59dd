package gateway

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

var clockStart = 1000 * time.Second

// setup installs a manual clock of its own (process-wide statistics stay
// out of the next test's windows) and clears every rule at the end.
func setup(t *testing.T) {
	t.Helper()
	clockStart += 100 * time.Second
	runtime.SetClock(runtime.NewManualClock(clockStart))
	t.Cleanup(func() {
		runtime.SetClock(nil)
		if err := Load(nil, nil); err != nil {
			t.Errorf("clearing gateway rules: %v", err)
		}
		_ = runtime.LoadRules(runtime.Rules{})
	})
}

func mustLoad(t *testing.T, rules []FlowRule, apis []APIDefinition) {
	t.Helper()
	if err := Load(rules, apis); err != nil {
		t.Fatal(err)
	}
}

// statuses sends the requests through h and returns their status codes.
func statuses(h http.Handler, reqs ...*http.Request) []int {
	var out []int
	for _, r := range reqs {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		out = append(out, w.Code)
	}
	return out
}

func req(path string, kv ...string) *http.Request {
	r := httptest.NewRequest(http.MethodGet, path, nil)
	for i := 0; i+1 < len(kv); i += 2 {
		r.Header.Set(kv[i], kv[i+1])
	}
	return r
}

func okHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
}

func TestRouteRuleWithoutParameter(t *testing.T) {
	setup(t)
	mustLoad(t, []FlowRule{{Resource: "orders-route", Grade: runtime.FlowGradeQPS, Count: 2}}, nil)
	g := NewGuard(okHandler(), WithRoute(func(*http.Request) string { return "orders-route" }))
	got := statuses(g, req("/a"), req("/b"), req("/c"))
	if want := []int{200, 200, 429}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestAPIGroupPerHeaderValueWithPattern(t *testing.T) {
	setup(t)
	apis := []APIDefinition{{Name: "orders-api", Predicates: []PathPredicate{
		{Pattern: "/orders/**", MatchStrategy: MatchPrefix},
		{Pattern: "/cart", MatchStrategy: MatchExact},
	}}}
	// Tenants whose name starts with "free-" get 1 request a second each;
	// the others are not limited by this rule.
	mustLoad(t, []FlowRule{{
		Resource: "orders-api", ResourceMode: ModeAPI, Grade: runtime.FlowGradeQPS, Count: 1,
		ParamItem: &ParamItem{ParseStrategy: ParseHeader, FieldName: "X-Tenant", Pattern: "free-", MatchStrategy: MatchPrefix},
	}}, apis)
	g := NewGuard(okHandler())
	got := statuses(g,
		req("/orders/1", "X-Tenant", "free-a"), req("/orders/2", "X-Tenant", "free-a"), // one budget per value
		req("/cart", "X-Tenant", "free-b"),
		req("/orders/3", "X-Tenant", "paid"), req("/orders/4", "X-Tenant", "paid"), req("/orders/5", "X-Tenant", "paid"),
		req("/orders/6"), req("/orders/7"), // no header: the rule passes
		req("/other", "X-Tenant", "free-a"), // not in the API
	)
	if want := []int{200, 429, 200, 200, 200, 200, 200, 200, 200}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestParamMatchStrategies(t *testing.T) {
	for _, c := range []struct {
		strategy  MatchStrategy
		pattern   string
		hit, miss string
	}{
		{MatchExact, "vip", "vip", "vip2"},
		{MatchPrefix, "vip", "vip2", "xvip"},
		{MatchRegex, "v[0-9]+", "v12", "v12x"},
		{MatchContains, "ip", "vip", "vp"},
	} {
		rule := compileRule(FlowRule{ParamItem: &ParamItem{ParseStrategy: ParseURLParam, FieldName: "u", Pattern: c.pattern, MatchStrategy: c.strategy}})
		if got := rule.arg(req("/?u="+c.hit), ModeRoute); got != runtime.StringArg(c.hit) {
			t.Errorf("strategy %d: %q gave %+v, want its own value", c.strategy, c.hit, got)
		}
		if got := rule.arg(req("/?u="+c.miss), ModeRoute); got != runtime.StringArg(notMatchedKey) {
			t.Errorf("strategy %d: %q gave %+v, want $NM", c.strategy, c.miss, got)
		}
	}
}

func TestAttributes(t *testing.T) {
	r := req("/p?k=v1&k=v2", "X-H", "h1")
	r.Host = "shop.example"
	r.RemoteAddr = "192.0.2.1:5555"
	r.AddCookie(&http.Cookie{Name: "c", Value: "cv"})
	for _, c := range []struct {
		item ParamItem
		want string
	}{
		{ParamItem{ParseStrategy: ParseClientIP}, "192.0.2.1"},
		{ParamItem{ParseStrategy: ParseHost}, "shop.example"},
		{ParamItem{ParseStrategy: ParseHeader, FieldName: "x-h"}, "h1"},
		{ParamItem{ParseStrategy: ParseURLParam, FieldName: "k"}, "v1"},
		{ParamItem{ParseStrategy: ParseCookie, FieldName: "c"}, "cv"},
	} {
		if v, ok := attribute(r, &c.item); !ok || v != c.want {
			t.Errorf("strategy %d: %q, %v; want %q", c.item.ParseStrategy, v, ok, c.want)
		}
	}
	if _, ok := attribute(r, &ParamItem{ParseStrategy: ParseCookie, FieldName: "none"}); ok {
		t.Error("a missing cookie was found")
	}
}

func TestPathPredicates(t *testing.T) {
	for _, c := range []struct {
		p     PathPredicate
		path  string
		match bool
	}{
		{PathPredicate{"/a", MatchExact}, "/a", true},
		{PathPredicate{"/a", MatchExact}, "/a/b", false},
		{PathPredicate{"/a/**", MatchPrefix}, "/a", true},
		{PathPredicate{"/a/**", MatchPrefix}, "/a/b/c", true},
		{PathPredicate{"/a/*", MatchPrefix}, "/a/b/c", false},
		{PathPredicate{"/a/*.json", MatchPrefix}, "/a/x.json", true},
		{PathPredicate{"/a/?", MatchPrefix}, "/a/bc", false},
		// Without a wildcard Sentinel's Ant matching never matches a
		// longer path; here it is a plain prefix.
		{PathPredicate{"/a/", MatchPrefix}, "/a/b", true},
		{PathPredicate{"/a/", MatchPrefix}, "/b/a/", false},
		{PathPredicate{"/a/[0-9]+", MatchRegex}, "/a/12", true},
		{PathPredicate{"/a/[0-9]+", MatchRegex}, "/a/12/x", false},
	} {
		m, err := compilePredicate(c.p)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.match(c.path); got != c.match {
			t.Errorf("%+v on %q: %v, want %v", c.p, c.path, got, c.match)
		}
	}
}

func TestRuleModeMustMatchHowTheResourceWasEntered(t *testing.T) {
	setup(t)
	// A ModeAPI rule on a name that the request enters as a route does not
	// apply to it.
	mustLoad(t, []FlowRule{{Resource: "both", ResourceMode: ModeAPI, Grade: runtime.FlowGradeQPS, Count: 0}}, nil)
	g := NewGuard(okHandler(), WithRoute(func(*http.Request) string { return "both" }))
	if got := statuses(g, req("/x")); got[0] != 200 {
		t.Errorf("got %v, want 200", got)
	}
}

func TestLoadKeepsOtherParamRulesAndRejectsBadInput(t *testing.T) {
	setup(t)
	user := runtime.ParamFlowRule{Resource: "user-resource", Grade: runtime.FlowGradeQPS, Count: 3}
	if err := runtime.LoadParamFlowRules([]runtime.ParamFlowRule{user}); err != nil {
		t.Fatal(err)
	}
	mustLoad(t, []FlowRule{{Resource: "gw", Grade: runtime.FlowGradeQPS, Count: 1}}, nil)
	mustLoad(t, []FlowRule{{Resource: "gw2", Grade: runtime.FlowGradeQPS, Count: 1}}, nil)
	var names []string
	for _, r := range runtime.ParamFlowRules() {
		names = append(names, r.Resource)
	}
	if strings.Join(names, ",") != "user-resource,gw2" {
		t.Errorf("param rules in force on %q, want the user's and the last gateway load's", names)
	}
	err := Load([]FlowRule{
		{Resource: "", Grade: runtime.FlowGradeQPS},
		{Resource: "x", Grade: runtime.FlowGradeQPS, IntervalSec: -1, ParamItem: &ParamItem{ParseStrategy: ParseHeader}},
	}, []APIDefinition{{Name: "a"}, {Name: "a", Predicates: []PathPredicate{{Pattern: "(", MatchStrategy: MatchRegex}}}})
	if err == nil {
		t.Fatal("bad rules loaded")
	}
	for _, want := range []string{`gw-flow rule #0 (""): resource: is empty`, `#1 ("x"): intervalSec`, `paramItem.fieldName`,
		`gw-api-group definition #0 ("a"): predicateItems`, `#1 ("a"): apiName: is also the name of definition #0`, `predicateItems[0]`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if got := Rules(); len(got) != 1 || got[0].Resource != "gw2" {
		t.Errorf("rules in force after a bad load: %+v, want the last good ones", got)
	}
	if err := Load([]FlowRule{{Resource: "user-resource", Grade: runtime.FlowGradeQPS, Count: 1}}, nil); err == nil {
		t.Error("a gateway rule on a resource with a user's param rule loaded")
	}
}
