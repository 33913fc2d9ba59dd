package runtime

import (
	"context"
	"errors"
	"strconv"
	"testing"
)

func mustLoadAuthority(t *testing.T, rules ...AuthorityRule) {
	t.Helper()
	if err := LoadAuthorityRules(rules); err != nil {
		t.Fatal(err)
	}
}

func from(origin string) context.Context { return WithOrigin(context.Background(), origin) }

func TestAuthorityBlackList(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "r"))
	mustLoadAuthority(t, AuthorityRule{Resource: r.Name(), LimitApp: "app-a,app-b", Strategy: AuthorityBlack})
	for _, origin := range []string{"app-a", "app-b"} {
		ok, be := callCtx(from(origin), r, clock, 0, nil)
		if ok || be.Type() != BlockTypeAuthority || be.Origin() != origin || !errors.Is(be, ErrBlocked) {
			t.Fatalf("origin %s: admitted %v, block %v", origin, ok, be)
		}
		if want := `authority rule #0 (black list app-a,app-b): origin "` + origin + `"`; be.Rule() != want {
			t.Errorf("Rule() = %q, want %q", be.Rule(), want)
		}
	}
	// Exact match: neither a prefix nor a longer name is listed.
	for _, origin := range []string{"app-c", "app", "app-a,app-b", ""} {
		if ok, be := callCtx(from(origin), r, clock, 0, nil); !ok {
			t.Errorf("origin %q refused: %v", origin, be)
		}
	}
	if ok, _ := callCtx(context.Background(), r, clock, 0, nil); !ok {
		t.Error("a call without an origin refused by a black list")
	}
}

func TestAuthorityWhiteList(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "r"))
	mustLoadAuthority(t, AuthorityRule{Resource: r.Name(), LimitApp: "app-a", Strategy: AuthorityWhite})
	if ok, be := callCtx(from("app-a"), r, clock, 0, nil); !ok {
		t.Fatalf("listed origin refused: %v", be)
	}
	// Sentinel lets a call without an origin through a white list.
	if ok, be := callCtx(context.Background(), r, clock, 0, nil); !ok {
		t.Fatalf("call without origin refused: %v", be)
	}
	ok, be := callCtx(from("app-z"), r, clock, 0, nil)
	if ok || be.Type() != BlockTypeAuthority || be.Origin() != "app-z" {
		t.Fatalf("unlisted origin: admitted %v, block %v", ok, be)
	}
	// The refusal of one origin is one error, kept.
	if _, be2 := callCtx(from("app-z"), r, clock, 0, nil); be2 != be {
		t.Error("a second refusal of the same origin made a new error")
	}
}

// Several rules of a resource are all checked; authority runs before the
// flow rules (Sentinel's AuthoritySlot comes first).
func TestAuthorityBeforeFlowAndEveryRule(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "r"))
	mustLoadFlow(t, FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 0})
	mustLoadAuthority(t,
		AuthorityRule{Resource: r.Name(), LimitApp: "a,b", Strategy: AuthorityWhite},
		AuthorityRule{Resource: r.Name(), LimitApp: "b", Strategy: AuthorityBlack},
	)
	if _, be := callCtx(from("b"), r, clock, 0, nil); be == nil || be.Type() != BlockTypeAuthority || be.Rule()[:17] != "authority rule #1" {
		t.Fatalf("b: %v, want the black list (rule #1)", be)
	}
	if _, be := callCtx(from("a"), r, clock, 0, nil); be == nil || be.Type() != BlockTypeFlow {
		t.Fatalf("a: %v, want the flow rule", be)
	}
	if _, be := callCtx(from("c"), r, clock, 0, nil); be == nil || be.Type() != BlockTypeAuthority || be.Rule()[:17] != "authority rule #0" {
		t.Fatalf("c: %v, want the white list (rule #0)", be)
	}
}

// The steady block path allocates nothing: black lists have one error per
// listed origin, white lists keep the error of each refused origin.
func TestAuthorityBlockDoesNotAllocate(t *testing.T) {
	useManualClock(t)
	black, white := NewResource(uniqueName(t, "black")), NewResource(uniqueName(t, "white"))
	mustLoadAuthority(t,
		AuthorityRule{Resource: black.Name(), LimitApp: "x", Strategy: AuthorityBlack},
		AuthorityRule{Resource: white.Name(), LimitApp: "y", Strategy: AuthorityWhite},
	)
	ctx := from("x")
	for _, r := range []*Resource{black, white} {
		var e Entry
		r.EntryTo(&e, ctx) // a white list's first refusal makes the error
		if n := testing.AllocsPerRun(200, func() {
			if r.EntryTo(&e, ctx) == nil {
				panic("admitted")
			}
		}); n != 0 {
			t.Errorf("%s: %v allocs per blocked call, want 0", r.Name(), n)
		}
	}
}

// A white list keeps at most maxRefusedOrigins errors; beyond, refusals
// still name their origin.
func TestAuthorityWhiteListCacheBounded(t *testing.T) {
	useManualClock(t)
	r := NewResource(uniqueName(t, "r"))
	mustLoadAuthority(t, AuthorityRule{Resource: r.Name(), LimitApp: "ok", Strategy: AuthorityWhite})
	a := r.rules.Load().extras.authority[0]
	for i := range maxRefusedOrigins + 50 {
		origin := "o" + strconv.Itoa(i)
		var e Entry
		if be := r.EntryTo(&e, from(origin)); be == nil || be.Origin() != origin {
			t.Fatalf("origin %s: %v", origin, be)
		}
	}
	if n := a.refusedCount.Load(); n != maxRefusedOrigins {
		t.Fatalf("%d refusals kept, want %d", n, maxRefusedOrigins)
	}
}

func TestInvalidAuthorityRules(t *testing.T) {
	for _, tc := range []struct {
		rule  AuthorityRule
		field string
	}{
		{AuthorityRule{LimitApp: "a"}, "Resource"},
		{AuthorityRule{Resource: "r", LimitApp: ""}, "LimitApp"},
		{AuthorityRule{Resource: "r", LimitApp: ",,"}, "LimitApp"},
		{AuthorityRule{Resource: "r", LimitApp: "a, b"}, "LimitApp"},
		{AuthorityRule{Resource: "r", LimitApp: "a", Strategy: 2}, "Strategy"},
	} {
		err := ValidateAuthorityRules([]AuthorityRule{tc.rule})
		var re *RuleError
		if !errors.As(err, &re) || re.Kind != "authority" || re.Field != tc.field {
			t.Errorf("%+v: %v, want an authority error on %s", tc.rule, err, tc.field)
		}
	}
	if err := ValidateAuthorityRules([]AuthorityRule{{Resource: "r", LimitApp: "a,b"}}); err != nil {
		t.Errorf("valid rule refused: %v", err)
	}
}
