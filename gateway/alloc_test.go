package gateway

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// TestGuardAllocations counts the allocations of a request admitted by a
// route rule and an API group rule with a header item.
func TestGuardAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	setup(t)
	mustLoad(t, []FlowRule{
		{Resource: "alloc-route", Grade: runtime.FlowGradeQPS, Count: 1e9},
		{Resource: "alloc-api", ResourceMode: ModeAPI, Grade: runtime.FlowGradeQPS, Count: 1e9,
			ParamItem: &ParamItem{ParseStrategy: ParseHeader, FieldName: "X-Tenant"}},
	}, []APIDefinition{{Name: "alloc-api", Predicates: []PathPredicate{{Pattern: "/alloc/**", MatchStrategy: MatchPrefix}}}})
	g := NewGuard(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}), WithRoute(func(*http.Request) string { return "alloc-route" }))
	r := httptest.NewRequest(http.MethodGet, "/alloc/1", nil)
	r.Header.Set("X-Tenant", "acme")
	w := httptest.NewRecorder()
	if n := testing.AllocsPerRun(100, func() { g.ServeHTTP(w, r) }); n != 0 {
		t.Errorf("%v allocations per request", n)
	}
}
