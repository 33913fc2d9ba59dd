package transport

import (
	"encoding/json"
	"fmt"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Readers of the rule kinds the rules package does not read (yet): JSON
// arrays of Java rule beans, read as fastjson reads them (unknown
// properties ignored, missing ones at Java's defaults), with errors naming
// the document and the rule's index.

type systemBean struct {
	HighestSystemLoad *float64 `json:"highestSystemLoad"`
	HighestCPUUsage   *float64 `json:"highestCpuUsage"`
	QPS               *float64 `json:"qps"`
	AvgRT             *int64   `json:"avgRt"`
	MaxThread         *int64   `json:"maxThread"`
}

func parseSystem(name, data string) ([]runtime.SystemRule, error) {
	var beans []systemBean
	if err := json.Unmarshal([]byte(data), &beans); err != nil {
		return nil, fmt.Errorf("%s: want a JSON array of Sentinel system rules: %w", name, err)
	}
	out := make([]runtime.SystemRule, 0, len(beans))
	for _, b := range beans {
		out = append(out, runtime.SystemRule{
			HighestSystemLoad: deref(b.HighestSystemLoad, -1), HighestCPUUsage: deref(b.HighestCPUUsage, -1),
			QPS: deref(b.QPS, -1), AvgRT: deref(b.AvgRT, -1), MaxThread: deref(b.MaxThread, -1),
		})
	}
	return out, nil
}

type authorityBean struct {
	Resource string `json:"resource"`
	LimitApp string `json:"limitApp"`
	Strategy int32  `json:"strategy"`
}

func parseAuthority(name, data string) ([]runtime.AuthorityRule, error) {
	var beans []authorityBean
	if err := json.Unmarshal([]byte(data), &beans); err != nil {
		return nil, fmt.Errorf("%s: want a JSON array of Sentinel authority rules: %w", name, err)
	}
	out := make([]runtime.AuthorityRule, 0, len(beans))
	for i, b := range beans {
		if b.Resource == "" {
			return nil, fmt.Errorf("%s: rule [%d]: resource is empty", name, i)
		}
		out = append(out, runtime.AuthorityRule{Resource: b.Resource, LimitApp: b.LimitApp, Strategy: runtime.AuthorityStrategy(b.Strategy)})
	}
	return out, nil
}

type paramBean struct {
	Resource          string  `json:"resource"`
	Grade             *int32  `json:"grade"`
	ParamIdx          *int    `json:"paramIdx"`
	Count             float64 `json:"count"`
	ControlBehavior   int32   `json:"controlBehavior"`
	MaxQueueingTimeMs int     `json:"maxQueueingTimeMs"`
	BurstCount        int     `json:"burstCount"`
	DurationInSec     *int    `json:"durationInSec"`
	Items             []struct {
		Object    string `json:"object"`
		ClassType string `json:"classType"`
		Count     int    `json:"count"`
	} `json:"paramFlowItemList"`
	ClusterMode   bool `json:"clusterMode"`
	ClusterConfig *struct {
		FlowID                  int64 `json:"flowId"`
		ThresholdType           int32 `json:"thresholdType"`
		FallbackToLocalWhenFail bool  `json:"fallbackToLocalWhenFail"`
		WindowIntervalMs        int   `json:"windowIntervalMs"`
	} `json:"clusterConfig"`
}

func parseParamFlow(name, data string) ([]runtime.ParamFlowRule, error) {
	var beans []paramBean
	if err := json.Unmarshal([]byte(data), &beans); err != nil {
		return nil, fmt.Errorf("%s: want a JSON array of Sentinel parameter flow rules: %w", name, err)
	}
	out := make([]runtime.ParamFlowRule, 0, len(beans))
	for i, b := range beans {
		if b.Resource == "" {
			return nil, fmt.Errorf("%s: rule [%d]: resource is empty", name, i)
		}
		if b.ParamIdx == nil {
			return nil, fmt.Errorf("%s: rule [%d] (%s): paramIdx is missing", name, i, b.Resource)
		}
		r := runtime.ParamFlowRule{
			Resource: b.Resource, Grade: runtime.FlowGrade(deref(b.Grade, int32(runtime.FlowGradeQPS))), ParamIdx: *b.ParamIdx,
			Count: b.Count, ControlBehavior: runtime.ControlBehavior(b.ControlBehavior), MaxQueueingTimeMs: b.MaxQueueingTimeMs,
			BurstCount: b.BurstCount, DurationInSec: deref(b.DurationInSec, 1), ClusterMode: b.ClusterMode,
		}
		for _, it := range b.Items {
			r.Items = append(r.Items, runtime.ParamFlowItem{Object: it.Object, ClassType: it.ClassType, Count: it.Count})
		}
		if c := b.ClusterConfig; c != nil {
			r.ClusterConfig = runtime.ClusterConfig{FlowID: c.FlowID, ThresholdType: runtime.ThresholdType(c.ThresholdType),
				FallbackToLocalWhenFail: c.FallbackToLocalWhenFail, WindowIntervalMs: c.WindowIntervalMs}
		}
		out = append(out, r)
	}
	return out, nil
}

func deref[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}
