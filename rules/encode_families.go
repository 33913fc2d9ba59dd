package rules

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// checkFamiliesUTF8 refuses names TOML and JSON cannot carry unchanged.
func checkFamiliesUTF8(s Set) error {
	for i, r := range s.ParamFlow {
		ok := utf8.ValidString(r.Resource)
		for _, it := range r.Items {
			ok = ok && utf8.ValidString(it.Object) && utf8.ValidString(it.ClassType)
		}
		if !ok {
			return fmt.Errorf("rules: param-flow rule #%d: resource names and item values must be valid UTF-8", i)
		}
	}
	for i, r := range s.Authority {
		if !utf8.ValidString(r.Resource) || !utf8.ValidString(r.LimitApp) {
			return fmt.Errorf("rules: authority rule #%d: resource names and origins must be valid UTF-8", i)
		}
	}
	return nil
}

// encodeTOMLFamilies writes the param-flow, system and authority tables,
// after flow and degrade, defaults left out as for those.
func encodeTOMLFamilies(w *tomlWriter, s Set) {
	dp := NormalizeParamFlow(defaultParamFlowRule())
	names := padTo(s.ParamFlowParam, len(s.ParamFlow))
	for i, r := range s.ParamFlow {
		n := NormalizeParamFlow(r)
		w.open(KindParamFlow)
		w.kv("resource", tomlString(n.Resource))
		if n.Grade != dp.Grade {
			w.kv("grade", tomlEnum(flowGradeEnum, flowGradeEnum.sentinel(int64(n.Grade))))
		}
		if names[i] != "" {
			w.kv("param", tomlString(names[i]))
		} else {
			w.kv("paramIdx", strconv.Itoa(n.ParamIdx))
		}
		w.kv("count", tomlFloat(n.Count))
		if n.ControlBehavior != dp.ControlBehavior {
			w.kv("controlBehavior", tomlEnum(controlBehaviorEnum, int64(n.ControlBehavior)))
		}
		tomlInt(w, "maxQueueingTimeMs", n.MaxQueueingTimeMs, dp.MaxQueueingTimeMs)
		tomlInt(w, "burstCount", n.BurstCount, dp.BurstCount)
		tomlInt(w, "durationInSec", n.DurationInSec, dp.DurationInSec)
		if len(n.Items) > 0 {
			items := make([]string, len(n.Items))
			for j, it := range n.Items {
				items[j] = "  { object = " + tomlString(it.Object)
				if it.ClassType != "" {
					items[j] += ", classType = " + tomlString(it.ClassType)
				}
				items[j] += ", count = " + strconv.Itoa(it.Count) + " },\n"
			}
			w.kv("paramFlowItemList", "[\n"+strings.Join(items, "")+"]")
		}
		if n.ClusterMode {
			w.kv("clusterMode", "true")
		}
		if c := tomlCluster(n.ClusterConfig, dp.ClusterConfig); c != "" {
			w.kv("clusterConfig", c)
		}
	}
	for _, r := range s.System {
		n := NormalizeSystem(r)
		w.open(KindSystem)
		for _, f := range []struct {
			key string
			v   float64
		}{{"highestSystemLoad", n.HighestSystemLoad}, {"highestCpuUsage", n.HighestCPUUsage}, {"qps", n.QPS}} {
			if f.v >= 0 || f.v != f.v { // NaN kept, for the reader's error
				w.kv(f.key, tomlFloat(f.v))
			}
		}
		if n.AvgRT >= 0 {
			w.kv("avgRt", strconv.FormatInt(n.AvgRT, 10))
		}
		if n.MaxThread >= 0 {
			w.kv("maxThread", strconv.FormatInt(n.MaxThread, 10))
		}
	}
	for _, r := range s.Authority {
		w.open(KindAuthority)
		w.kv("resource", tomlString(r.Resource))
		w.kv("limitApp", tomlString(r.LimitApp))
		if r.Strategy != runtime.AuthorityWhite {
			w.kv("strategy", tomlEnum(authorityStrategyEnum, int64(r.Strategy)))
		}
	}
}

// open starts a [[kind]] table, after a blank line unless it is the first.
func (w *tomlWriter) open(kind Kind) {
	if w.Len() > 0 {
		w.WriteByte('\n')
	}
	w.WriteString("[[" + tomlTable(kind) + "]]\n")
}

// Sentinel's JSON shapes of the hot-parameter, system and authority kinds, fields in the order Sentinel's
// classes declare them.
type (
	sentinelParamFlowJSON struct {
		Resource          string                   `json:"resource"`
		LimitApp          string                   `json:"limitApp"`
		Grade             int32                    `json:"grade"`
		ParamIdx          int                      `json:"paramIdx"`
		Count             float64                  `json:"count"`
		ControlBehavior   int32                    `json:"controlBehavior"`
		MaxQueueingTimeMs int                      `json:"maxQueueingTimeMs"`
		BurstCount        int                      `json:"burstCount"`
		DurationInSec     int                      `json:"durationInSec"`
		ParamFlowItemList []sentinelParamItemJSON  `json:"paramFlowItemList"`
		ClusterMode       bool                     `json:"clusterMode"`
		ClusterConfig     *sentinelParamClusterCfg `json:"clusterConfig,omitempty"`
	}
	sentinelParamItemJSON struct {
		Object    string `json:"object"`
		Count     int    `json:"count"`
		ClassType string `json:"classType"`
	}
	sentinelParamClusterCfg struct {
		FlowID                  int64 `json:"flowId"`
		ThresholdType           int32 `json:"thresholdType"`
		FallbackToLocalWhenFail bool  `json:"fallbackToLocalWhenFail"`
		SampleCount             int   `json:"sampleCount"`
		WindowIntervalMs        int   `json:"windowIntervalMs"`
	}
	sentinelSystemJSON struct {
		HighestSystemLoad float64 `json:"highestSystemLoad"`
		HighestCPUUsage   float64 `json:"highestCpuUsage"`
		QPS               float64 `json:"qps"`
		AvgRT             int64   `json:"avgRt"`
		MaxThread         int64   `json:"maxThread"`
	}
	sentinelAuthorityJSON struct {
		Resource string `json:"resource"`
		LimitApp string `json:"limitApp"`
		Strategy int32  `json:"strategy"`
	}
)

// jsonFamilies converts the hot-parameter, system and authority kinds to Sentinel's shapes.
func jsonFamilies(s Set) ([]sentinelParamFlowJSON, []sentinelSystemJSON, []sentinelAuthorityJSON, error) {
	names := padTo(s.ParamFlowParam, len(s.ParamFlow))
	dp := NormalizeParamFlow(defaultParamFlowRule())
	param := make([]sentinelParamFlowJSON, len(s.ParamFlow))
	for i, r := range s.ParamFlow {
		if names[i] != "" {
			return nil, nil, nil, fmt.Errorf("rules: param-flow rule #%d names its parameter %q: Sentinel JSON needs paramIdx (apply the rules and encode Current())", i, names[i])
		}
		n := NormalizeParamFlow(r)
		j := sentinelParamFlowJSON{
			Resource: n.Resource, LimitApp: limitAppDefault, Grade: int32(flowGradeEnum.sentinel(int64(n.Grade))),
			ParamIdx: n.ParamIdx, Count: n.Count, ControlBehavior: int32(n.ControlBehavior),
			MaxQueueingTimeMs: n.MaxQueueingTimeMs, BurstCount: n.BurstCount, DurationInSec: n.DurationInSec,
			ParamFlowItemList: []sentinelParamItemJSON{}, ClusterMode: n.ClusterMode,
		}
		for _, it := range n.Items {
			j.ParamFlowItemList = append(j.ParamFlowItemList, sentinelParamItemJSON{Object: it.Object, Count: it.Count, ClassType: it.ClassType})
		}
		if n.ClusterMode || n.ClusterConfig != dp.ClusterConfig {
			c := n.ClusterConfig
			j.ClusterConfig = &sentinelParamClusterCfg{FlowID: c.FlowID, ThresholdType: int32(c.ThresholdType),
				FallbackToLocalWhenFail: c.FallbackToLocalWhenFail, SampleCount: 10, WindowIntervalMs: c.WindowIntervalMs}
		}
		param[i] = j
	}
	system := make([]sentinelSystemJSON, len(s.System))
	for i, r := range s.System {
		n := NormalizeSystem(r)
		system[i] = sentinelSystemJSON{HighestSystemLoad: n.HighestSystemLoad, HighestCPUUsage: n.HighestCPUUsage,
			QPS: n.QPS, AvgRT: n.AvgRT, MaxThread: n.MaxThread}
	}
	authority := make([]sentinelAuthorityJSON, len(s.Authority))
	for i, r := range s.Authority {
		authority[i] = sentinelAuthorityJSON{Resource: r.Resource, LimitApp: r.LimitApp, Strategy: int32(r.Strategy)}
	}
	return param, system, authority, nil
}

// jsonDocument is what encodeJSON writes: the array of the one kind s has
// (flow when it has none), or the object of the kinds it has.
func jsonDocument(s Set, flow []sentinelFlowJSON, degrade []sentinelDegradeJSON) (any, error) {
	param, system, authority, err := jsonFamilies(s)
	if err != nil {
		return nil, err
	}
	obj := struct {
		Flow      []sentinelFlowJSON      `json:"flow,omitempty"`
		Degrade   []sentinelDegradeJSON   `json:"degrade,omitempty"`
		ParamFlow []sentinelParamFlowJSON `json:"param-flow,omitempty"`
		System    []sentinelSystemJSON    `json:"system,omitempty"`
		Authority []sentinelAuthorityJSON `json:"authority,omitempty"`
	}{flow, degrade, param, system, authority}
	kinds := 0
	var only any = flow
	for _, k := range []struct {
		n   int
		doc any
	}{{len(flow), flow}, {len(degrade), degrade}, {len(param), param}, {len(system), system}, {len(authority), authority}} {
		if k.n > 0 {
			kinds++
			only = k.doc
		}
	}
	if kinds > 1 {
		return obj, nil
	}
	return only, nil
}
