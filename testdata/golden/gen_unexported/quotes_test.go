package unexported

import (
	"context"
	"testing"

	"example.com/golden/ruletest"
	"github.com/sentinelgen/sentinelgen/runtime"
)

func TestUnexportedWrappers(t *testing.T) {
	ruletest.UseFlow(t)
	q := newGuardedQuoteService(&quoteService{prices: map[string]float64{"ACME": 12.5}})
	if p, err := q.price(context.Background(), "ACME"); p != 12.5 || err != nil {
		t.Fatalf("price = %v, %v; want 12.5", p, err)
	}
	if s, err := guardedQuote(context.Background(), "ACME"); s != "ACME 42" || err != nil {
		t.Fatalf("guardedQuote = %q, %v", s, err)
	}

	ruletest.UseFlow(t,
		runtime.FlowRule{Resource: "unexported.price", Grade: runtime.FlowGradeQPS, Count: 0},
		runtime.FlowRule{Resource: "unexported.quote", Grade: runtime.FlowGradeQPS, Count: 0})
	if p, err := q.price(context.Background(), "ACME"); p != -1 || err != nil {
		t.Fatalf("blocked price = %v, %v; want the blockHandler's -1", p, err)
	}
	if s, err := guardedQuote(context.Background(), "ACME"); s != "ACME n/a" || err != nil {
		t.Fatalf("blocked guardedQuote = %q, %v; want the fallback", s, err)
	}
}
