package pkgfunc

import (
	"context"
	"testing"

	fb "example.com/golden/gen_pkgfunc/fallbacks"
	"example.com/golden/ruletest"
	"github.com/sentinelgen/sentinelgen/runtime"
)

func TestHandlersFromAnotherPackage(t *testing.T) {
	ruletest.UseFlow(t)
	req := &fb.Request{URL: "/a"}
	if body, err := NewGuardedClient(&Client{}).Fetch(context.Background(), req); string(body) != "body of /a" || err != nil {
		t.Fatalf("Fetch = %q, %v", body, err)
	}
	if body, err := NewGuardedClient(&Client{Down: true}).Fetch(context.Background(), req); string(body) != "fallback /a: backend down" || err != nil {
		t.Fatalf("failing Fetch = %q, %v; want fallbacks.FetchFallback", body, err)
	}
	if body, err := GuardedPing(context.Background(), ""); string(body) != "unavailable: backend down" || err != nil {
		t.Fatalf("failing Ping = %q, %v; want fallbacks.Unavailable", body, err)
	}

	ruletest.UseFlow(t,
		runtime.FlowRule{Resource: "pkgfunc.fetch", Grade: runtime.FlowGradeQPS, Count: 0},
		runtime.FlowRule{Resource: "pkgfunc.ping", Grade: runtime.FlowGradeQPS, Count: 0})
	if body, err := NewGuardedClient(&Client{}).Fetch(context.Background(), req); string(body) != "blocked /a" || err != nil {
		t.Fatalf("blocked Fetch = %q, %v; want fallbacks.FetchBlocked", body, err)
	}
	if body, err := GuardedPing(context.Background(), "h"); len(body) <= len("unavailable: ") || string(body[:13]) != "unavailable: " || err != nil {
		t.Fatalf("blocked Ping = %q, %v; want fallbacks.Unavailable given the block error", body, err)
	}
}
