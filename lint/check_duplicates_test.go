package lint

import (
	"testing"

	"github.com/sentinelgen/sentinelgen/annotate"
	"github.com/sentinelgen/sentinelgen/rules"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// Rules are compared as the runtime enforces them: a field left at zero is
// the default it stands for, so a copy that spells the default out is a
// duplicate, not a conflict, and a real difference is named.
func TestRepeatsCompareAsEnforced(t *testing.T) {
	pkg := &annotate.Package{Resources: []*annotate.Resource{{Name: "a"}}}
	cluster := func(windowMs int) runtime.FlowRule {
		return runtime.FlowRule{Resource: "a", Grade: runtime.FlowGradeQPS, Count: 10, ClusterMode: true,
			ClusterConfig: runtime.ClusterConfig{FlowID: 7, WindowIntervalMs: windowMs}}
	}
	cases := []struct {
		name  string
		later runtime.FlowRule
		want  string
	}{
		{"default spelled out", cluster(runtime.DefaultStatIntervalMs),
			`flow[1]: [duplicate-rule] QPS cluster flow rule for "a" repeats the rule at flow[0] exactly; delete one copy`},
		{"other window", cluster(500),
			`flow[1]: [conflicting-rules] QPS cluster flow rule for "a" configures the same limiter as the rule at flow[0], but with clusterConfig; both are enforced on every call, so the stricter setting wins whichever was meant: keep one rule`},
	}
	for _, c := range cases {
		set := rules.Set{Flow: []runtime.FlowRule{cluster(0), c.later}}
		ds := Run([]*annotate.Package{pkg}, set, Options{})
		if len(ds) != 1 || ds[0].String() != c.want {
			t.Errorf("%s: got %v\nwant %s", c.name, ds, c.want)
		}
	}
}
