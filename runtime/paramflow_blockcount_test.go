package runtime

import (
	"context"
	"testing"
)

// paramBlockErrors is the param-flow entries of r.BlockErrors.
func paramBlockErrors(r *Resource) []*BlockError {
	var out []*BlockError
	for _, e := range r.BlockErrors(nil) {
		if e.Type() == BlockTypeParamFlow {
			out = append(out, e)
		}
	}
	return out
}

// Param-flow blocks are counted under their rule: BlockErrors lists one
// error per param-flow rule (in load order, after the breakers) whose
// Blocked is the rule's blocks over all its values, times their acquire
// counts, while each refused value's own error still names the value. A
// reload that keeps the rule at its index keeps the error and its count;
// a changed rule counts from zero.
func TestParamBlocksCountedUnderTheirRule(t *testing.T) {
	useManualClock(t)
	name := uniqueName(t, "detail")
	res := NewResource(name)
	flow := FlowRule{Resource: name, Grade: FlowGradeQPS, Count: 100}
	byString := ParamFlowRule{Resource: name, Grade: FlowGradeQPS, Count: 1}
	byInt := ParamFlowRule{Resource: name, Grade: FlowGradeQPS, Count: 1, ParamIdx: 1}
	rules := Rules{Flow: []FlowRule{flow}, ParamFlow: []ParamFlowRule{byString, byInt}}
	mustLoad(t, rules)
	errs := paramBlockErrors(res)
	if len(errs) != 2 {
		t.Fatalf("BlockErrors lists %d param-flow errors, want 2: %v", len(errs), res.BlockErrors(nil))
	}
	if all := res.BlockErrors(nil); all[0].Type() != BlockTypeFlow || all[1] != errs[0] || all[2] != errs[1] {
		t.Fatalf("BlockErrors order %v, want the flow rule's, then the param-flow rules' in load order", all)
	}
	if errs[0].Rule() != "param-flow rule #0 (param 0, QPS 1 per 1s)" || errs[1].Rule() != "param-flow rule #1 (param 1, QPS 1 per 1s)" {
		t.Fatalf("rules %q, %q", errs[0].Rule(), errs[1].Rule())
	}
	if errs[0].Value() != "" || errs[0].Blocked() != 0 {
		t.Fatalf("rule error before any block: value %q, Blocked %d", errs[0].Value(), errs[0].Blocked())
	}

	ctx := context.Background()
	enter := func(acquire int64, args ...ParamArg) *BlockError {
		var e Entry
		if be := res.EntryArgsTo(&e, ctx, args, AcquireCount(int(acquire))); be != nil {
			return be
		}
		e.Exit()
		return nil
	}
	// Values a and b each pass once under rule #0, then are refused: a
	// twice, b once with acquire 3. c is refused by rule #1 on int 7.
	var perValue []*BlockError
	for _, c := range []struct {
		acquire int64
		s       string
		n       int64
		blocked bool
	}{
		{1, "a", 1, false}, {1, "a", 2, true}, {1, "a", 3, true},
		{1, "b", 4, false}, {3, "b", 5, true},
		{1, "c", 7, false}, {1, "d", 7, true},
	} {
		be := enter(c.acquire, StringArg(c.s), IntArg(c.n))
		if (be != nil) != c.blocked {
			t.Fatalf("call %q/%d: block %v, want blocked %v", c.s, c.n, be, c.blocked)
		}
		if be != nil {
			perValue = append(perValue, be)
		}
	}
	if perValue[0].Value() != "a" || perValue[2].Value() != "b" || perValue[3].Value() != "7" {
		t.Fatalf("per-value errors name %q %q %q", perValue[0].Value(), perValue[2].Value(), perValue[3].Value())
	}
	if got := errs[0].Blocked(); got != 5 {
		t.Errorf("rule #0 Blocked() = %d, want 5 (a twice, b with acquire 3)", got)
	}
	if got := errs[1].Blocked(); got != 1 {
		t.Errorf("rule #1 Blocked() = %d, want 1", got)
	}
	if got := perValue[0].Blocked(); got != 2 {
		t.Errorf("value a's error Blocked() = %d, want 2", got)
	}

	// Reload: the flow rule changes, both param rules stay at their index.
	rules.Flow[0].Count = 200
	mustLoad(t, rules)
	if now := paramBlockErrors(res); len(now) != 2 || now[0] != errs[0] || now[0].Blocked() != 5 || now[1] != errs[1] {
		t.Fatalf("after a reload keeping the param rules, errors %v (Blocked %d), want the same with 5", now, now[0].Blocked())
	}
	if be := enter(1, StringArg("a"), IntArg(9)); be != perValue[0] || errs[0].Blocked() != 6 {
		t.Fatalf("after the reload: a refused by %p (want %p), rule Blocked %d, want 6", be, perValue[0], errs[0].Blocked())
	}
	// A changed rule gets a new error counting from zero.
	rules.ParamFlow[0].Count = 2
	mustLoad(t, rules)
	if now := paramBlockErrors(res); now[0] == errs[0] || now[0].Blocked() != 0 || now[1] != errs[1] {
		t.Fatalf("after changing rule #0: %v, Blocked %d", now, now[0].Blocked())
	}
}
