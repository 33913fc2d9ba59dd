package nocontext

import (
	"errors"
	"testing"

	"example.com/golden/ruletest"
	"github.com/sentinelgen/sentinelgen/runtime"
)

func TestDivideWithoutContext(t *testing.T) {
	ruletest.UseFlow(t)
	calc := &Calc{}
	if got, err := NewGuardedCalc(calc).Divide(9, 3); got != 3 || err != nil {
		t.Fatalf("Divide(9, 3) = %d, %v; want 3, nil", got, err)
	}
	// No fallback: the traced error comes back unchanged.
	if got, err := NewGuardedCalc(calc).Divide(1, 0); got != 0 || !errors.Is(err, ErrDivideByZero) {
		t.Fatalf("Divide(1, 0) = %d, %v; want 0, ErrDivideByZero", got, err)
	}
}

func TestDivideBlockedWithoutContext(t *testing.T) {
	ruletest.UseFlow(t, runtime.FlowRule{Resource: "nocontext.divide", Grade: runtime.FlowGradeQPS, Count: 0})
	calc := &Calc{}
	if got, err := NewGuardedCalc(calc).Divide(9, 3); got != -1 || err != nil || calc.Calls != 0 {
		t.Fatalf("Divide(9, 3) = %d, %v after %d calls; want the blockHandler's -1", got, err, calc.Calls)
	}
}
