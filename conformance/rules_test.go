package conformance

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/rules"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// javaFlow and javaDegrade are what the Java program prints of a rule: the
// getters of Sentinel's FlowRule and DegradeRule.
type (
	javaFlow struct {
		Resource          string       `json:"resource"`
		LimitApp          string       `json:"limitApp"`
		Grade             int32        `json:"grade"`
		Count             float64      `json:"count"`
		Strategy          int32        `json:"strategy"`
		RefResource       string       `json:"refResource"`
		ControlBehavior   int32        `json:"controlBehavior"`
		WarmUpPeriodSec   int          `json:"warmUpPeriodSec"`
		MaxQueueingTimeMs int          `json:"maxQueueingTimeMs"`
		ClusterMode       bool         `json:"clusterMode"`
		ClusterConfig     *javaCluster `json:"clusterConfig"`
	}
	javaCluster struct {
		FlowID                  *int64 `json:"flowId"`
		ThresholdType           int32  `json:"thresholdType"`
		FallbackToLocalWhenFail bool   `json:"fallbackToLocalWhenFail"`
		WindowIntervalMs        int    `json:"windowIntervalMs"`
		Strategy                int32  `json:"strategy"`
	}
	javaDegrade struct {
		Resource           string  `json:"resource"`
		LimitApp           string  `json:"limitApp"`
		Grade              int32   `json:"grade"`
		Count              float64 `json:"count"`
		TimeWindow         int     `json:"timeWindow"`
		MinRequestAmount   int     `json:"minRequestAmount"`
		SlowRatioThreshold float64 `json:"slowRatioThreshold"`
		StatIntervalMs     int     `json:"statIntervalMs"`
	}
	javaDoc struct {
		File          string          `json:"file"`
		Flow          []javaFlow      `json:"flow"`
		Degrade       []javaDegrade   `json:"degrade"`
		ParamFlow     []javaParamFlow `json:"paramFlow"`
		System        []javaSystem    `json:"system"`
		Authority     []javaAuthority `json:"authority"`
		FlowJSON      string          `json:"flowJSON"`
		DegradeJSON   string          `json:"degradeJSON"`
		ParamFlowJSON string          `json:"paramFlowJSON"`
		SystemJSON    string          `json:"systemJSON"`
		AuthorityJSON string          `json:"authorityJSON"`
	}
)

// javaOnlyClusterKeys are the fields of Sentinel's ClusterFlowConfig that
// fastjson writes and the runtime does not have: the Go reader ignores them
// with a warning, and nothing else may be ignored.
var javaOnlyClusterKeys = []string{"acquireRefuseStrategy", "clientOfflineTime", "resourceTimeout", "resourceTimeoutStrategy", "sampleCount"}

// TestRuleDocumentsThroughJava encodes rule sets with the rules package
// (the repository's example documents and seeded random valid sets), has
// Java read each with fastjson into FlowRule and DegradeRule as Sentinel's
// datasources do, and checks that every field Java has is equal; then it
// parses what Java serializes back and checks that the Go rules are equal.
// coldFactor and a flow rule's statIntervalMs are not fields of Java's
// FlowRule (docs/differences.md): Java drops them, and what comes back has
// the defaults.
func TestRuleDocumentsThroughJava(t *testing.T) {
	dir := t.TempDir()
	var files []string
	sets := map[string]rules.Set{}
	add := func(name string, s rules.Set) {
		data, err := rules.Encode(s, rules.FormatJSON)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, path)
		sets[path] = s
	}
	examples, _ := filepath.Glob(filepath.Join("..", "rules", "testdata", "*.*"))
	for _, f := range examples {
		s, err := rules.Load(f)
		if err != nil {
			t.Fatalf("example %s: %v", f, err)
		}
		add("example-"+filepath.Base(f)+".json", s)
	}
	for seed := uint64(1); seed <= 200; seed++ {
		s := randomSet(seed)
		kind := "mixed"
		for _, k := range rules.Kinds() {
			if part := s.Only(k); !part.IsEmpty() && rules.Set.Equal(part, s) {
				kind = string(k)
			}
		}
		add(fmt.Sprintf("random-%03d-%s.json", seed, kind), s)
	}

	h := javaHarness(t)
	out, err := h.run(append([]string{"rules"}, files...)...)
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]javaDoc{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for sc.Scan() {
		if !strings.HasPrefix(sc.Text(), "{") {
			continue // Sentinel's own start-up lines
		}
		var d javaDoc
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatalf("reading the Java program's output: %v\n%s", err, sc.Text())
		}
		docs[d.File] = d
	}
	rulesCompared := 0
	for _, f := range files {
		d, ok := docs[f]
		if !ok {
			t.Errorf("%s: Java printed nothing for it", f)
			continue
		}
		want := sets[f]
		if len(d.Flow) != len(want.Flow) || len(d.Degrade) != len(want.Degrade) || len(d.ParamFlow) != len(want.ParamFlow) ||
			len(d.System) != len(want.System) || len(d.Authority) != len(want.Authority) {
			t.Errorf("%s: Java read %d flow, %d degrade, %d param-flow, %d system and %d authority rules, want %d, %d, %d, %d and %d", f,
				len(d.Flow), len(d.Degrade), len(d.ParamFlow), len(d.System), len(d.Authority),
				len(want.Flow), len(want.Degrade), len(want.ParamFlow), len(want.System), len(want.Authority))
			continue
		}
		rulesCompared += compareFamilies(t, f, want, d)
		for i, r := range want.Flow {
			rulesCompared++
			if diff := diffFlow(rules.NormalizeFlow(r), d.Flow[i]); diff != "" {
				t.Errorf("%s: flow rule #%d as Java reads it: %s", f, i, diff)
			}
		}
		for i, r := range want.Degrade {
			rulesCompared++
			if diff := diffDegrade(rules.NormalizeDegrade(r), d.Degrade[i]); diff != "" {
				t.Errorf("%s: degrade rule #%d as Java reads it: %s", f, i, diff)
			}
		}
		// The way back: what Java serializes, read by the rules package.
		back := rules.Set{}
		for _, part := range []struct {
			data string
			kind rules.Kind
		}{{d.FlowJSON, rules.KindFlow}, {d.DegradeJSON, rules.KindDegrade}, {d.ParamFlowJSON, rules.KindParamFlow},
			{d.SystemJSON, rules.KindSystem}, {d.AuthorityJSON, rules.KindAuthority}} {
			s, err := rules.Parse(rules.Document{Name: f + " from Java", Data: []byte(part.data), Format: rules.FormatJSON, Kind: part.kind})
			if err != nil {
				t.Errorf("%s: the %s rules Java serialized do not parse: %v\n%s", f, part.kind, err, part.data)
				continue
			}
			for _, w := range s.Warnings {
				if !javaOnlyKey(w.Field) {
					t.Errorf("%s: reading Java's %s rules: unexpected warning %v", f, part.kind, w)
				}
			}
			back = back.Merge(s)
		}
		expected := rules.Set{Degrade: want.Degrade, ParamFlow: want.ParamFlow, System: want.System, Authority: want.Authority}
		for _, r := range want.Flow {
			r.ColdFactor, r.StatIntervalMs = 0, 0 // not fields of Java's FlowRule
			expected.Flow = append(expected.Flow, r)
		}
		if !back.Equal(expected) {
			t.Errorf("%s: the rules Java serialized read back as\n%+v\nwant\n%+v", f, back, expected)
		}
	}
	t.Logf("%d documents, %d rules compared both ways", len(files), rulesCompared)
}

func diffFlow(g runtime.FlowRule, j javaFlow) string {
	var d []string
	check := func(field string, ok bool, gv, jv any) {
		if !ok {
			d = append(d, fmt.Sprintf("%s: Go %v, Java %v", field, gv, jv))
		}
	}
	check("resource", g.Resource == j.Resource, g.Resource, j.Resource)
	check("limitApp", rules.NormalizeFlow(g).LimitApp == j.LimitApp, g.LimitApp, j.LimitApp)
	check("grade", g.Grade.SentinelNumber() == j.Grade, g.Grade, j.Grade)
	check("count", g.Count == j.Count || (math.IsNaN(g.Count) && math.IsNaN(j.Count)), g.Count, j.Count)
	check("strategy", int32(g.Strategy) == j.Strategy, g.Strategy, j.Strategy)
	check("refResource", g.RefResource == j.RefResource, g.RefResource, j.RefResource)
	check("controlBehavior", int32(g.ControlBehavior) == j.ControlBehavior, g.ControlBehavior, j.ControlBehavior)
	check("warmUpPeriodSec", g.WarmUpPeriodSec == j.WarmUpPeriodSec, g.WarmUpPeriodSec, j.WarmUpPeriodSec)
	check("maxQueueingTimeMs", g.MaxQueueingTimeMs == j.MaxQueueingTimeMs, g.MaxQueueingTimeMs, j.MaxQueueingTimeMs)
	check("clusterMode", g.ClusterMode == j.ClusterMode, g.ClusterMode, j.ClusterMode)
	c := g.ClusterConfig
	if j.ClusterConfig == nil {
		// Java keeps no config; Go's must then be the defaults.
		check("clusterConfig", c == runtime.ClusterConfig{FallbackToLocalWhenFail: true, WindowIntervalMs: 1000}, c, nil)
	} else {
		jc := j.ClusterConfig
		check("clusterConfig.flowId", jc.FlowID != nil && *jc.FlowID == c.FlowID || jc.FlowID == nil && c.FlowID == 0, c.FlowID, jc.FlowID)
		check("clusterConfig.thresholdType", int32(c.ThresholdType) == jc.ThresholdType, c.ThresholdType, jc.ThresholdType)
		check("clusterConfig.fallbackToLocalWhenFail", c.FallbackToLocalWhenFail == jc.FallbackToLocalWhenFail, c.FallbackToLocalWhenFail, jc.FallbackToLocalWhenFail)
		check("clusterConfig.windowIntervalMs", c.WindowIntervalMs == jc.WindowIntervalMs, c.WindowIntervalMs, jc.WindowIntervalMs)
		check("clusterConfig.strategy", jc.Strategy == 0, 0, jc.Strategy)
	}
	return strings.Join(d, "; ")
}

func diffDegrade(g runtime.DegradeRule, j javaDegrade) string {
	var d []string
	check := func(field string, ok bool, gv, jv any) {
		if !ok {
			d = append(d, fmt.Sprintf("%s: Go %v, Java %v", field, gv, jv))
		}
	}
	check("resource", g.Resource == j.Resource, g.Resource, j.Resource)
	check("limitApp", j.LimitApp == "default", "default", j.LimitApp)
	check("grade", int32(g.Grade) == j.Grade, g.Grade, j.Grade)
	check("count", g.Count == j.Count, g.Count, j.Count)
	check("timeWindow", g.TimeWindowSec == j.TimeWindow, g.TimeWindowSec, j.TimeWindow)
	check("minRequestAmount", g.MinRequestAmount == j.MinRequestAmount, g.MinRequestAmount, j.MinRequestAmount)
	check("slowRatioThreshold", g.SlowRatioThreshold == j.SlowRatioThreshold, g.SlowRatioThreshold, j.SlowRatioThreshold)
	check("statIntervalMs", g.StatIntervalMs == j.StatIntervalMs, g.StatIntervalMs, j.StatIntervalMs)
	return strings.Join(d, "; ")
}

// randomSet is a random valid rule set: every field at a random valid
// value, including cluster mode, the runtime-only coldFactor and flow
// statIntervalMs, awkward floats and resource names with quotes and
// non-ASCII text.
func randomSet(seed uint64) rules.Set {
	r := rand.New(rand.NewPCG(seed, 0xd0c5))
	names := []string{"a", "orders.place", `we"ird\name`, "商品/查询", "GET:/api/v1/items?id=1"}
	floats := []float64{0, 0.1, 0.5, 1, 3, 7.25, 100, 1e-9, 123456.789, 1.0 / 3}
	var s rules.Set
	for range r.IntN(4) {
		f := runtime.FlowRule{Resource: names[r.IntN(len(names))], Grade: runtime.FlowGrade(r.IntN(2)), Count: floats[r.IntN(len(floats))]}
		switch r.IntN(4) {
		case 1:
			f.Strategy, f.RefResource = runtime.StrategyRelate, "ref."+f.Resource
		case 2:
			f.Strategy, f.RefResource = runtime.StrategyChain, names[r.IntN(len(names))]
		}
		if f.Grade == runtime.FlowGradeQPS {
			f.ControlBehavior = runtime.ControlBehavior(r.IntN(4))
			if f.Strategy == runtime.StrategyDirect && r.IntN(3) == 0 {
				f.StatIntervalMs = []int{500, 2000, 10000}[r.IntN(3)]
			}
			if f.Strategy == runtime.StrategyDirect && r.IntN(4) == 0 {
				f.ClusterMode = true
				f.ClusterConfig = runtime.ClusterConfig{FlowID: r.Int64N(1 << 53), ThresholdType: runtime.ThresholdType(r.IntN(2)),
					FallbackToLocalWhenFail: r.IntN(2) == 0, WindowIntervalMs: []int{0, 1000, 2000}[r.IntN(3)]}
			}
		}
		f.WarmUpPeriodSec = r.IntN(20)
		if f.ControlBehavior == runtime.BehaviorWarmUp || f.ControlBehavior == runtime.BehaviorWarmUpRateLimiter {
			f.WarmUpPeriodSec++
		}
		f.ColdFactor = []int{0, 0, 2, 5}[r.IntN(4)]
		f.MaxQueueingTimeMs = r.IntN(2000)
		s.Flow = append(s.Flow, f)
	}
	for range r.IntN(4) {
		d := runtime.DegradeRule{Resource: names[r.IntN(len(names))], Grade: runtime.DegradeGrade(r.IntN(3)),
			TimeWindowSec: 1 + r.IntN(60), MinRequestAmount: r.IntN(50), StatIntervalMs: []int{0, 1000, 2000, 60000}[r.IntN(4)],
			SlowRatioThreshold: []float64{0, 0.25, 1.0 / 3, 1}[r.IntN(4)]}
		d.Count = floats[r.IntN(len(floats))]
		if d.Grade == runtime.DegradeErrorRatio {
			d.Count = math.Min(d.Count, 1)
		}
		s.Degrade = append(s.Degrade, d)
	}
	if seed%2 == 0 {
		addRandomFamilies(r, &s, names, floats)
	}
	if s.IsEmpty() {
		s.Flow = []runtime.FlowRule{{Resource: "a", Grade: runtime.FlowGradeQPS, Count: 1}}
	}
	if err := rules.Validate(s); err != nil {
		panic(fmt.Sprintf("seed %d: random set is invalid: %v", seed, err))
	}
	return s
}
