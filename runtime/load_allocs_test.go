package runtime

import (
	"testing"
)

// A first load of many flow rules is bound by allocation and the garbage
// collector (issue 11 §3), so each rule on a new resource costs a fixed
// number of objects: the resource with its statistics node, the node's
// window and gauge (two objects each), the flow check with its block error,
// the error's message and the rule set. Checked as objects per rule, not
// time, so that the test holds on a loaded machine.
func TestFirstLoadAllocsPerFlowRule(t *testing.T) {
	const rulesPerLoad, runs = 2000, 3
	var sets [][]FlowRule
	var all []string
	for range runs + 1 { // AllocsPerRun runs once more to warm up
		names := scaleNames("allocs", rulesPerLoad)
		all = append(all, names...)
		sets = append(sets, scaleFlowRules(names))
	}
	t.Cleanup(func() {
		if err := LoadRules(Rules{}); err != nil {
			t.Error(err)
		}
		forgetResources(all)
	})
	next := 0
	allocs := testing.AllocsPerRun(runs, func() {
		if err := LoadFlowRules(sets[next]); err != nil {
			panic(err)
		}
		next++
	})
	// Each load also drops the previous load's rules from its resources
	// (an empty rule set for each: no object) and copies the rule list.
	if perRule := allocs / rulesPerLoad; perRule > 8.1 {
		t.Errorf("%.2f objects per flow rule on a first load, want at most 8", perRule)
	}
}
