package transport

import (
	"strconv"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// The rules as fastjson writes Sentinel's rule beans: every property, keys
// sorted (encoding/json sorts map keys, as fastjson sorts fields), null
// properties left out, doubles with a fraction. The dashboard parses these
// into its rule entities; a Java client answers the same.

// jdouble is a Java double: fastjson writes 10.0, not 10.
type jdouble float64

// MarshalJSON writes the value with a decimal point, as Java does.
func (d jdouble) MarshalJSON() ([]byte, error) {
	s := strconv.FormatFloat(float64(d), 'f', -1, 64)
	for _, c := range s {
		if c == '.' {
			return []byte(s), nil
		}
	}
	return []byte(s + ".0"), nil
}

type object = map[string]any

func limitApp(s string) string {
	if s == "" {
		return "default"
	}
	return s
}

// Sentinel's defaults for the properties the runtime leaves at zero.
const (
	javaWarmUpPeriodSec   = 10
	javaMaxQueueingTimeMs = 500
)

func flowJSON(r runtime.FlowRule) object {
	o := object{
		"resource": r.Resource, "limitApp": limitApp(r.LimitApp), "grade": r.Grade.SentinelNumber(),
		"count": jdouble(r.Count), "strategy": int32(r.Strategy), "controlBehavior": int32(r.ControlBehavior),
		"warmUpPeriodSec": orJava(r.WarmUpPeriodSec, javaWarmUpPeriodSec), "maxQueueingTimeMs": orJava(r.MaxQueueingTimeMs, javaMaxQueueingTimeMs),
		"clusterMode": r.ClusterMode, "regex": false,
	}
	if r.RefResource != "" {
		o["refResource"] = r.RefResource
	}
	if hasCluster(r.ClusterMode, r.ClusterConfig) {
		o["clusterConfig"] = clusterJSON(r.ClusterConfig, true)
	}
	return o
}

// hasCluster says whether a rule's clusterConfig is worth writing: Java
// keeps a null clusterConfig on a rule that never had one, so do we, unless
// the rule is in cluster mode or names a budget.
func hasCluster(mode bool, c runtime.ClusterConfig) bool {
	return mode || c.FlowID != 0 || c.ThresholdType != 0 || (c.WindowIntervalMs != 0 && c.WindowIntervalMs != 1000)
}

// orJava is v, or Java's default when v is the Go zero value.
func orJava(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// clusterJSON is ClusterFlowConfig (flow rules) or ParamFlowClusterConfig
// (flow false), with Java's defaults for the properties the runtime has not.
func clusterJSON(c runtime.ClusterConfig, flow bool) object {
	o := object{
		"flowId": c.FlowID, "thresholdType": int32(c.ThresholdType),
		"fallbackToLocalWhenFail": c.FallbackToLocalWhenFail, "sampleCount": 10,
		"windowIntervalMs": orJava(c.WindowIntervalMs, 1000),
	}
	if flow {
		o["strategy"] = 0
		o["resourceTimeout"] = 2000
		o["resourceTimeoutStrategy"] = 0
		o["acquireRefuseStrategy"] = 0
		o["clientOfflineTime"] = 2000
	}
	return o
}

func degradeJSON(r runtime.DegradeRule) object {
	return object{
		"resource": r.Resource, "limitApp": "default", "grade": int32(r.Grade), "count": jdouble(r.Count),
		"timeWindow": r.TimeWindowSec, "minRequestAmount": orJava(r.MinRequestAmount, runtime.DefaultMinRequestAmount),
		"slowRatioThreshold": jdouble(r.SlowRatioThreshold), "statIntervalMs": orJava(r.StatIntervalMs, runtime.DefaultStatIntervalMs),
		"regex": false,
	}
}

func systemJSON(r runtime.SystemRule) object {
	return object{
		"regex":             false, // a system rule has no resource or limitApp: Java leaves them null
		"highestSystemLoad": jdouble(r.HighestSystemLoad), "highestCpuUsage": jdouble(r.HighestCPUUsage),
		"qps": jdouble(r.QPS), "avgRt": r.AvgRT, "maxThread": r.MaxThread,
	}
}

func authorityJSON(r runtime.AuthorityRule) object {
	return object{"resource": r.Resource, "limitApp": r.LimitApp, "strategy": int32(r.Strategy), "regex": false}
}

func paramJSON(r runtime.ParamFlowRule) object {
	items := make([]object, 0, len(r.Items))
	for _, it := range r.Items {
		items = append(items, object{"object": it.Object, "classType": it.ClassType, "count": it.Count})
	}
	o := object{
		"resource": r.Resource, "limitApp": "default", "grade": r.Grade.SentinelNumber(), "paramIdx": r.ParamIdx,
		"count": jdouble(r.Count), "controlBehavior": int32(r.ControlBehavior), "maxQueueingTimeMs": r.MaxQueueingTimeMs,
		"burstCount": r.BurstCount, "durationInSec": orJava(r.DurationInSec, 1), "paramFlowItemList": items,
		"clusterMode": r.ClusterMode, "regex": false,
	}
	if hasCluster(r.ClusterMode, r.ClusterConfig) {
		o["clusterConfig"] = clusterJSON(r.ClusterConfig, false)
	}
	return o
}

func encodeAll[T any](rules []T, enc func(T) object) []object {
	out := make([]object, 0, len(rules))
	for _, r := range rules {
		out = append(out, enc(r))
	}
	return out
}
