package rules

import (
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

func TestValidateNamesFieldsAndPositions(t *testing.T) {
	flow := []runtime.FlowRule{
		{Resource: "ok", Grade: runtime.FlowGradeQPS, Count: 1},
		{Resource: "bad", Grade: runtime.FlowGradeQPS, Count: -1, Strategy: runtime.StrategyChain},
		{Resource: "c", Grade: runtime.FlowGradeConcurrency, ControlBehavior: runtime.BehaviorWarmUp, WarmUpPeriodSec: 10, ColdFactor: 1},
	}
	degrade := []runtime.DegradeRule{{Resource: "d", Grade: runtime.DegradeErrorRatio, Count: 2, SlowRatioThreshold: -1}}

	cases := []struct {
		name      string
		flowAt    []Position
		degradeAt []Position
		want      []string
	}{
		{"built in code: named by place in the set", nil, nil, []string{
			`flow[1].count: -1 must be a finite number >= 0`,
			`flow[1].refResource: is required for strategy "relate" and "chain": name the related resource or the entrance`,
			`flow[2].controlBehavior: other than "reject" needs grade "qps"`,
			`flow[2].coldFactor: 1 must be > 1 (0 means 3)`,
			`degrade[0].count: 2 must be an error ratio between 0 and 1`,
			`degrade[0].slowRatioThreshold: -1 must be a ratio between 0 and 1`,
			`degrade[0].timeWindow: 0 must be > 0 (seconds the breaker stays open; required)`,
		}},
		{"read from TOML: the rule's line", []Position{{File: "r.toml", Line: 2}, {File: "r.toml", Line: 6}, {File: "r.toml", Line: 9}},
			[]Position{{File: "r.toml", Line: 20}}, []string{
				`r.toml:6: count: -1 must be a finite number >= 0`,
				`r.toml:6: refResource: is required for strategy "relate" and "chain": name the related resource or the entrance`,
				`r.toml:9: controlBehavior: other than "reject" needs grade "qps"`,
				`r.toml:9: coldFactor: 1 must be > 1 (0 means 3)`,
				`r.toml:20: count: 2 must be an error ratio between 0 and 1`,
				`r.toml:20: slowRatioThreshold: -1 must be a ratio between 0 and 1`,
				`r.toml:20: timeWindow: 0 must be > 0 (seconds the breaker stays open; required)`,
			}},
		{"read from JSON: the field's path", []Position{{File: "f.json", Line: 2, Path: "[0]"}, {File: "f.json", Line: 7, Path: "[1]"}, {}},
			[]Position{{File: "d.json", Path: "[0]"}}, []string{
				`f.json:7: [1].count: -1 must be a finite number >= 0`,
				`f.json:7: [1].refResource: is required for strategy "relate" and "chain": name the related resource or the entrance`,
				`flow[2].controlBehavior: other than "reject" needs grade "qps"`,
				`flow[2].coldFactor: 1 must be > 1 (0 means 3)`,
				`d.json: [0].count: 2 must be an error ratio between 0 and 1`,
				`d.json: [0].slowRatioThreshold: -1 must be a ratio between 0 and 1`,
				`d.json: [0].timeWindow: 0 must be > 0 (seconds the breaker stays open; required)`,
			}},
	}
	for _, c := range cases {
		err := Validate(Set{Flow: flow, Degrade: degrade, FlowAt: c.flowAt, DegradeAt: c.degradeAt})
		checkTexts(t, c.name, errorTexts(err), c.want)
	}
	for _, e := range Errors(Validate(Set{Flow: flow})) {
		if e.Field == "" {
			t.Errorf("error without a field: %v", e)
		}
	}
	if err := Validate(Set{Flow: flow[:1]}); err != nil {
		t.Errorf("valid set: %v", err)
	}
}

func TestValidateTooManyBreakers(t *testing.T) {
	var s Set
	for range 65 {
		s.Degrade = append(s.Degrade, runtime.DegradeRule{Resource: "r", TimeWindowSec: 1})
	}
	checkTexts(t, "65 breakers", errorTexts(Validate(s)), []string{`degrade[64].resource: has more than 64 degrade rules`})
}
