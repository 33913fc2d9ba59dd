package results

import (
	"context"
	"errors"
	"testing"

	"example.com/golden/ruletest"
	"github.com/sentinelgen/sentinelgen/runtime"
)

func TestSplitAdmitted(t *testing.T) {
	ruletest.UseFlow(t)
	h, n, ok, err := NewGuardedParser(&Parser{}).Split(context.Background(), "Host: example.com")
	if h == nil || h.Name != "Host" || h.Value != "example.com" || n != 17 || !ok || err != nil {
		t.Fatalf("Split = %+v, %d, %v, %v; want the parsed header", h, n, ok, err)
	}
	if _, _, _, err := NewGuardedParser(&Parser{}).Split(context.Background(), ""); err != ErrEmpty {
		t.Fatalf("Split(\"\") err = %v; want ErrEmpty unchanged", err)
	}
}

func TestSplitBlockedReturnsZeroValuesAndTheBlockError(t *testing.T) {
	ruletest.UseFlow(t, runtime.FlowRule{Resource: "results.split", Grade: runtime.FlowGradeQPS, Count: 0})
	h, n, ok, err := NewGuardedParser(&Parser{}).Split(context.Background(), "Host: example.com")
	if h != nil || n != 0 || ok {
		t.Fatalf("Split = %+v, %d, %v; want zero values", h, n, ok)
	}
	if err == nil || !errors.Is(err, runtime.ErrBlocked) {
		t.Fatalf("err = %#v; want a non-nil error matching ErrBlocked", err)
	}
}

func TestFieldsFallbackAnswersErrorsAndBlocks(t *testing.T) {
	ruletest.UseFlow(t)
	fields, counts, err := NewGuardedParser(&Parser{}).Fields(context.Background(), "")
	if len(fields) != 1 || fields[0] != "fallback" || counts["empty input"] != 1 || err != nil {
		t.Fatalf("Fields(\"\") = %v, %v, %v; want the fallback given ErrEmpty", fields, counts, err)
	}

	ruletest.UseFlow(t, runtime.FlowRule{Resource: "results.fields", Grade: runtime.FlowGradeQPS, Count: 0})
	fields, counts, err = NewGuardedParser(&Parser{}).Fields(context.Background(), "a b a")
	if len(fields) != 1 || fields[0] != "fallback" || err != nil || len(counts) != 1 {
		t.Fatalf("blocked Fields = %v, %v, %v; want the fallback", fields, counts, err)
	}
	for text := range counts {
		if text == "" || text == "empty input" {
			t.Fatalf("fallback got error %q; want the block error", text)
		}
	}
}
