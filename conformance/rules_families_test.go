package conformance

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/rules"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// What the Java program prints of the rule kinds of issue 14: the getters
// of Sentinel's ParamFlowRule, SystemRule and AuthorityRule.
type (
	javaParamFlow struct {
		Resource          string             `json:"resource"`
		LimitApp          string             `json:"limitApp"`
		Grade             int32              `json:"grade"`
		ParamIdx          *int               `json:"paramIdx"`
		Count             float64            `json:"count"`
		ControlBehavior   int32              `json:"controlBehavior"`
		MaxQueueingTimeMs int                `json:"maxQueueingTimeMs"`
		BurstCount        int                `json:"burstCount"`
		DurationInSec     int                `json:"durationInSec"`
		Items             []javaParamItem    `json:"paramFlowItemList"`
		ClusterMode       bool               `json:"clusterMode"`
		ClusterConfig     *javaParamClusterC `json:"clusterConfig"`
	}
	javaParamItem struct {
		Object    string `json:"object"`
		Count     *int   `json:"count"`
		ClassType string `json:"classType"`
	}
	javaParamClusterC struct {
		FlowID                  *int64 `json:"flowId"`
		ThresholdType           int32  `json:"thresholdType"`
		FallbackToLocalWhenFail bool   `json:"fallbackToLocalWhenFail"`
		SampleCount             int    `json:"sampleCount"`
		WindowIntervalMs        int    `json:"windowIntervalMs"`
	}
	javaSystem struct {
		HighestSystemLoad float64 `json:"highestSystemLoad"`
		HighestCPUUsage   float64 `json:"highestCpuUsage"`
		QPS               float64 `json:"qps"`
		AvgRT             int64   `json:"avgRt"`
		MaxThread         int64   `json:"maxThread"`
	}
	javaAuthority struct {
		Resource string `json:"resource"`
		LimitApp string `json:"limitApp"`
		Strategy int32  `json:"strategy"`
	}
)

// javaOnlyKeys are fields fastjson writes that the runtime does not have:
// ClusterFlowConfig's and ParamFlowClusterConfig's extras, ParamFlowRule's
// derived parsedHotItems (the item list parsed by Java), AbstractRule's
// regex. The Go reader ignores them with a warning, and nothing else may be
// ignored.
var javaOnlyKeys = append(slices.Clone(javaOnlyClusterKeys), "parsedHotItems")

func javaOnlyKey(field string) bool {
	return slices.ContainsFunc(javaOnlyKeys, func(k string) bool { return field == k || strings.HasSuffix(field, "."+k) })
}

// compareFamilies checks, field by field, the param-flow, system and
// authority rules Java read from the document f against want; it returns
// how many rules it compared.
func compareFamilies(t *testing.T, f string, want rules.Set, d javaDoc) int {
	t.Helper()
	n := 0
	for i, r := range want.ParamFlow {
		n++
		if diff := diffParamFlow(rules.NormalizeParamFlow(r), d.ParamFlow[i]); diff != "" {
			t.Errorf("%s: param-flow rule #%d as Java reads it: %s", f, i, diff)
		}
	}
	for i, r := range want.System {
		n++
		g, j := rules.NormalizeSystem(r), d.System[i]
		if g.HighestSystemLoad != j.HighestSystemLoad || g.HighestCPUUsage != j.HighestCPUUsage || g.QPS != j.QPS || g.AvgRT != j.AvgRT || g.MaxThread != j.MaxThread {
			t.Errorf("%s: system rule #%d as Java reads it: Go %+v, Java %+v", f, i, g, j)
		}
	}
	for i, r := range want.Authority {
		n++
		if j := d.Authority[i]; r.Resource != j.Resource || r.LimitApp != j.LimitApp || int32(r.Strategy) != j.Strategy {
			t.Errorf("%s: authority rule #%d as Java reads it: Go %+v, Java %+v", f, i, r, j)
		}
	}
	return n
}

func diffParamFlow(g runtime.ParamFlowRule, j javaParamFlow) string {
	var d []string
	check := func(field string, ok bool, gv, jv any) {
		if !ok {
			d = append(d, fmt.Sprintf("%s: Go %v, Java %v", field, gv, jv))
		}
	}
	check("resource", g.Resource == j.Resource, g.Resource, j.Resource)
	check("limitApp", j.LimitApp == "default", "default", j.LimitApp)
	check("grade", g.Grade.SentinelNumber() == j.Grade, g.Grade, j.Grade)
	check("paramIdx", j.ParamIdx != nil && *j.ParamIdx == g.ParamIdx, g.ParamIdx, j.ParamIdx)
	check("count", g.Count == j.Count, g.Count, j.Count)
	check("controlBehavior", int32(g.ControlBehavior) == j.ControlBehavior, g.ControlBehavior, j.ControlBehavior)
	check("maxQueueingTimeMs", g.MaxQueueingTimeMs == j.MaxQueueingTimeMs, g.MaxQueueingTimeMs, j.MaxQueueingTimeMs)
	check("burstCount", g.BurstCount == j.BurstCount, g.BurstCount, j.BurstCount)
	check("durationInSec", g.DurationInSec == j.DurationInSec, g.DurationInSec, j.DurationInSec)
	check("paramFlowItemList", len(g.Items) == len(j.Items), len(g.Items), len(j.Items))
	for i := range min(len(g.Items), len(j.Items)) {
		gi, ji := g.Items[i], j.Items[i]
		check(fmt.Sprintf("paramFlowItemList[%d]", i), gi.Object == ji.Object && gi.ClassType == ji.ClassType && ji.Count != nil && *ji.Count == gi.Count, gi, ji)
	}
	check("clusterMode", g.ClusterMode == j.ClusterMode, g.ClusterMode, j.ClusterMode)
	c := g.ClusterConfig
	if j.ClusterConfig == nil {
		check("clusterConfig", c == runtime.ClusterConfig{WindowIntervalMs: 1000}, c, nil)
	} else {
		jc := j.ClusterConfig
		check("clusterConfig.flowId", jc.FlowID != nil && *jc.FlowID == c.FlowID || jc.FlowID == nil && c.FlowID == 0, c.FlowID, jc.FlowID)
		check("clusterConfig.thresholdType", int32(c.ThresholdType) == jc.ThresholdType, c.ThresholdType, jc.ThresholdType)
		check("clusterConfig.fallbackToLocalWhenFail", c.FallbackToLocalWhenFail == jc.FallbackToLocalWhenFail, c.FallbackToLocalWhenFail, jc.FallbackToLocalWhenFail)
		check("clusterConfig.windowIntervalMs", c.WindowIntervalMs == jc.WindowIntervalMs, c.WindowIntervalMs, jc.WindowIntervalMs)
	}
	return strings.Join(d, "; ")
}

// addRandomFamilies adds random valid param-flow, system and authority
// rules to s.
func addRandomFamilies(r *rand.Rand, s *rules.Set, names []string, floats []float64) {
	for range 1 + r.IntN(3) {
		p := runtime.ParamFlowRule{Resource: names[r.IntN(len(names))],
			Grade:    []runtime.FlowGrade{runtime.FlowGradeQPS, runtime.FlowGradeConcurrency}[r.IntN(2)],
			ParamIdx: r.IntN(5) - 2, Count: float64(r.IntN(1000)), DurationInSec: []int{0, 1, 2, 60}[r.IntN(4)]}
		if p.Grade == runtime.FlowGradeQPS {
			if r.IntN(3) == 0 {
				p.ControlBehavior, p.MaxQueueingTimeMs = runtime.BehaviorRateLimiter, r.IntN(1000)
			} else {
				p.BurstCount = r.IntN(10)
			}
			if r.IntN(4) == 0 {
				p.ClusterMode = true
				p.ClusterConfig = runtime.ClusterConfig{FlowID: 1 + r.Int64N(1<<40), ThresholdType: runtime.ThresholdType(r.IntN(2)),
					FallbackToLocalWhenFail: true, WindowIntervalMs: []int{0, 1000, 2000}[r.IntN(3)]}
			}
		}
		for k := range r.IntN(3) {
			p.Items = append(p.Items, runtime.ParamFlowItem{Object: fmt.Sprint(names[r.IntN(len(names))], k),
				ClassType: []string{"String", "java.lang.String", "int", "long"}[r.IntN(4)], Count: r.IntN(100)})
			if c := p.Items[k].ClassType; c == "int" || c == "long" {
				p.Items[k].Object = fmt.Sprint(r.IntN(1000)*10 + k)
			}
		}
		s.ParamFlow = append(s.ParamFlow, p)
	}
	unset := func(v float64) float64 {
		if v == 0 {
			return -1 // a system threshold of 0 is refused (it would refuse every inbound call)
		}
		return []float64{-1, v}[r.IntN(2)]
	}
	for range r.IntN(3) {
		sys := runtime.SystemRule{HighestSystemLoad: unset(floats[r.IntN(len(floats))]),
			HighestCPUUsage: unset(0.8), QPS: unset(floats[r.IntN(len(floats))]), AvgRT: int64(unset(float64(r.IntN(500)))),
			MaxThread: int64(unset(float64(r.IntN(200))))}
		if rules.NormalizeSystem(sys) == (runtime.SystemRule{HighestSystemLoad: -1, HighestCPUUsage: -1, QPS: -1, AvgRT: -1, MaxThread: -1}) {
			sys.MaxThread = 1 // a rule without a threshold reads back with a warning
		}
		s.System = append(s.System, sys)
	}
	for range r.IntN(3) {
		s.Authority = append(s.Authority, runtime.AuthorityRule{Resource: names[r.IntN(len(names))],
			LimitApp: []string{"app-a", "app-a,app-b", "订单服务"}[r.IntN(3)], Strategy: runtime.AuthorityStrategy(r.IntN(2))})
	}
}
