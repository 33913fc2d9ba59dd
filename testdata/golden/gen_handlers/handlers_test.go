package handlers

import (
	"context"
	"errors"
	"strings"
	"testing"

	"example.com/golden/ruletest"
	"github.com/sentinelgen/sentinelgen/runtime"
)

var errBusiness = errors.New("boom")

// method picks one guarded method by resource name.
type method struct {
	resource string
	call     func(*GuardedService, context.Context, int) (string, error)
}

var methods = []method{
	{"handlers.blockOnly", (*GuardedService).BlockOnly},
	{"handlers.fallbackWithErr", (*GuardedService).FallbackWithErr},
	{"handlers.fallbackNoErr", (*GuardedService).FallbackNoErr},
	{"handlers.defaultWithErr", (*GuardedService).DefaultWithErr},
	{"handlers.defaultNoErr", (*GuardedService).DefaultNoErr},
	{"handlers.bare", (*GuardedService).Bare},
	{"handlers.all", (*GuardedService).All},
	{"handlers.fallbackAndDefault", (*GuardedService).FallbackAndDefault},
}

// blockAll is a QPS rule of 0 on every resource of the package.
func blockAll() []runtime.FlowRule {
	var rules []runtime.FlowRule
	for _, m := range methods {
		rules = append(rules, runtime.FlowRule{Resource: m.resource, Grade: runtime.FlowGradeQPS, Count: 0})
	}
	return rules
}

func TestBlockedCallTakesTheFirstHandlerThatCanTakeIt(t *testing.T) {
	ruletest.Use(t, blockAll(), nil)
	tests := []struct {
		resource string
		want     string
		gotBlock bool // the handler received the *BlockError
	}{
		{"handlers.blockOnly", "blockHandler 7: flow", true},
		{"handlers.fallbackWithErr", "fallback 7: ", true}, // followed by the BlockError's text
		{"handlers.fallbackNoErr", "fallback 7", false},
		{"handlers.defaultWithErr", "defaultFallback: ", true},
		{"handlers.defaultNoErr", "defaultFallback", false},
		{"handlers.all", "blockHandler 7: flow", true},
		{"handlers.fallbackAndDefault", "fallback 7", false},
	}
	for _, tt := range tests {
		inner := &Service{}
		got, err := callByName(tt.resource)(NewGuardedService(inner), context.Background(), 7)
		if err != nil || !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s: got %q, %v; want %q..., nil", tt.resource, got, err, tt.want)
		}
		var blockErr *runtime.BlockError
		if got := errors.As(inner.Got, &blockErr) && blockErr.Resource() == tt.resource; got != tt.gotBlock {
			t.Errorf("%s: handler received %v; want the block error: %v", tt.resource, inner.Got, tt.gotBlock)
		}
	}
}

func callByName(resource string) func(*GuardedService, context.Context, int) (string, error) {
	for _, m := range methods {
		if m.resource == resource {
			return m.call
		}
	}
	panic("no method for " + resource)
}

func TestBareBlockReturnsTheBlockError(t *testing.T) {
	ruletest.Use(t, blockAll(), nil)
	got, err := NewGuardedService(&Service{}).Bare(context.Background(), 7)
	if got != "" {
		t.Errorf("result = %q; want the zero value", got)
	}
	if err == nil {
		t.Fatal("err is nil; want the block error")
	}
	if !errors.Is(err, runtime.ErrBlocked) {
		t.Errorf("errors.Is(%v, ErrBlocked) is false", err)
	}
	var blockErr *runtime.BlockError
	if !errors.As(err, &blockErr) || blockErr == nil || blockErr.Resource() != "handlers.bare" {
		t.Errorf("err = %#v; want a non-nil *runtime.BlockError for handlers.bare", err)
	}
}

func TestAdmittedCallWithoutErrorNeverReachesAHandler(t *testing.T) {
	ruletest.Use(t, nil, nil)
	svc := NewGuardedService(&Service{})
	for _, m := range methods {
		got, err := m.call(svc, context.Background(), 3)
		if err != nil || got != "ok 3" {
			t.Errorf("%s: got %q, %#v; want the method's own result and an untyped nil", m.resource, got, err)
		}
	}
}

func TestBusinessErrorTakesFallbackThenDefaultFallback(t *testing.T) {
	ruletest.Use(t, nil, nil)
	want := map[string]string{
		"handlers.blockOnly":          "", // no fallback: the error comes back
		"handlers.fallbackWithErr":    "fallback 5: boom",
		"handlers.fallbackNoErr":      "fallback 5", // called although it takes no error
		"handlers.defaultWithErr":     "defaultFallback: boom",
		"handlers.defaultNoErr":       "defaultFallback",
		"handlers.bare":               "",
		"handlers.all":                "fallback 5: boom",
		"handlers.fallbackAndDefault": "fallback 5",
	}
	svc := NewGuardedService(&Service{Err: errBusiness})
	for _, m := range methods {
		got, err := m.call(svc, context.Background(), 5)
		w := want[m.resource]
		if w == "" {
			if !errors.Is(err, errBusiness) || got != "" {
				t.Errorf("%s: got %q, %v; want the error unchanged", m.resource, got, err)
			}
			continue
		}
		if err != nil || got != w {
			t.Errorf("%s: got %q, %v; want %q", m.resource, got, err, w)
		}
	}
}
