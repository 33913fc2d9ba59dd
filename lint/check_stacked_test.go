package lint

import (
	"slices"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/rules"
	"github.com/sentinelgen/sentinelgen/runtime"
)

func qps(resource string, count float64) runtime.FlowRule {
	return runtime.FlowRule{Resource: resource, Grade: runtime.FlowGradeQPS, Count: count}
}

func chain(resource, entrance string, count float64) runtime.FlowRule {
	r := qps(resource, count)
	r.Strategy, r.RefResource = runtime.StrategyChain, entrance
	return r
}

// stackedFindings runs the check alone and returns the flagged rules'
// indexes (from their code-built positions "flow[i]") with the messages.
func stackedFindings(t *testing.T, flow ...runtime.FlowRule) ([]string, []string) {
	t.Helper()
	p := &pass{set: rules.Set{Flow: flow}, check: Check{ID: "stacked-thresholds"}}
	checkStackedThresholds(p)
	var at, msgs []string
	for _, d := range p.diags {
		at = append(at, d.Pos.Path)
		msgs = append(msgs, d.Message)
	}
	return at, msgs
}

func TestStackedThresholds(t *testing.T) {
	t.Run("a chain limit above the resource's own limit", func(t *testing.T) {
		at, msgs := stackedFindings(t, qps("m", 100), chain("m", "web", 300))
		if !slices.Equal(at, []string{"flow[1]"}) || !strings.Contains(msgs[0], `the QPS limit 100 on "m" (flow[0]) always blocks first`) {
			t.Errorf("got %q %q", at, msgs)
		}
	})
	t.Run("a chain limit below it, and a larger outer limit with no inner one", func(t *testing.T) {
		if at, msgs := stackedFindings(t, qps("m", 300), chain("m", "web", 100), qps("web", 50)); len(at) != 0 {
			t.Errorf("got %q %q", at, msgs)
		}
	})
	t.Run("a cycle ends the path", func(t *testing.T) {
		at, _ := stackedFindings(t, qps("root", 900), chain("a", "root", 800), chain("b", "a", 700), chain("a", "b", 600))
		// root -> a -> b; the edge back to a is left out, so 600 is on no
		// path and 900 and 800 lie above b's 700.
		if !slices.Equal(at, []string{"flow[0]", "flow[1]"}) {
			t.Errorf("flagged %q, want flow[0] and flow[1]", at)
		}
	})
	t.Run("concurrency and cluster limits are not compared", func(t *testing.T) {
		conc := chain("m", "web", 300)
		conc.Grade = runtime.FlowGradeConcurrency
		cluster := qps("m", 10)
		cluster.ClusterMode = true
		if at, _ := stackedFindings(t, cluster, conc, qps("web", 5000)); len(at) != 0 {
			t.Errorf("flagged %q", at)
		}
	})
}
