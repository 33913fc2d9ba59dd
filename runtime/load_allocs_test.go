package runtime

import (
	"testing"
)

// A first load of many flow rules is bound by allocation and the garbage
// collector, so each rule on a new resource costs a fixed number of objects:
// the resource with its statistics node, window and gauge, and their counter
// words, the flow check with its block error and the rule set. The error's message is
// formatted when first read, not at the load. Checked as objects per rule,
// not time, so that the test holds on a loaded machine.
func TestFirstLoadAllocsPerFlowRule(t *testing.T) {
	perRule := firstLoadAllocs(t, func(names []string) error { return LoadFlowRules(scaleFlowRules(names)) })
	// Each load also drops the previous load's rules from its resources
	// (an empty rule set for each: no object) and copies the rule list.
	if perRule > 4.1 {
		t.Errorf("%.2f objects per flow rule on a first load, want at most 4", perRule)
	}
}

// A first load of degrade rules on new resources: the resource with its
// node, window and gauge, and their words (two objects), the breaker with
// its block error, the breaker's window (two objects) and the rule set.
func TestFirstLoadAllocsPerDegradeRule(t *testing.T) {
	perRule := firstLoadAllocs(t, func(names []string) error { return LoadDegradeRules(scaleDegradeRules(names)) })
	if perRule > 6.1 {
		t.Errorf("%.2f objects per degrade rule on a first load, want at most 6", perRule)
	}
}

// firstLoadAllocs is the objects per rule of loads of rules on resources
// no rule named before; load loads rules naming names.
func firstLoadAllocs(t *testing.T, load func(names []string) error) float64 {
	const rulesPerLoad, runs = 2000, 3
	var sets [][]string
	var all []string
	for range runs + 1 { // AllocsPerRun runs once more to warm up
		names := scaleNames("allocs", rulesPerLoad)
		all = append(all, names...)
		sets = append(sets, names)
	}
	t.Cleanup(func() {
		if err := LoadRules(Rules{}); err != nil {
			t.Error(err)
		}
		forgetResources(all)
	})
	next := 0
	allocs := testing.AllocsPerRun(runs, func() {
		names := sets[next]
		next++
		if err := load(names); err != nil {
			panic(err)
		}
	})
	return allocs / rulesPerLoad
}
