package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Encode writes s in format f.
//
// FormatTOML (and FormatAuto) writes the native format: one [[flow]],
// [[degrade]], [[paramFlow]], [[system]] or [[authority]] table per rule, fields in a fixed order, enums as words, and
// fields at their default left out except resource and count. The output
// depends only on the rules, so it can be diffed and kept in version control.
//
// FormatJSON writes Sentinel's JSON, every Sentinel field present with
// Sentinel's numbers, so a Java service reads it unchanged. A set of one
// kind is a Sentinel array; a set with several kinds is the object
// {"flow":[...],"degrade":[...],"param-flow":[...],"system":[...],
// "authority":[...]} with the kinds it has. Fields Sentinel lacks
// (coldFactor, a flow rule's statIntervalMs) are written only when they
// differ from the default. A param-flow rule that names its parameter
// instead of giving its index cannot be written in Sentinel JSON.
//
// Positions and warnings are not written. Parse(Encode(s)) is Equal to s.
func Encode(s Set, f Format) ([]byte, error) {
	for i, r := range s.Flow {
		if !utf8.ValidString(r.Resource) || !utf8.ValidString(r.RefResource) {
			return nil, fmt.Errorf("rules: flow rule #%d: resource names must be valid UTF-8", i)
		}
	}
	for i, r := range s.Degrade {
		if !utf8.ValidString(r.Resource) {
			return nil, fmt.Errorf("rules: degrade rule #%d: resource names must be valid UTF-8", i)
		}
	}
	if err := checkFamiliesUTF8(s); err != nil {
		return nil, err
	}
	switch f {
	case FormatAuto, FormatTOML:
		return encodeTOML(s), nil
	case FormatJSON:
		return encodeJSON(s)
	}
	return nil, fmt.Errorf("rules: cannot encode format %v", f)
}

// tomlWriter writes key = value lines.
type tomlWriter struct{ bytes.Buffer }

func (w *tomlWriter) kv(key, val string) { fmt.Fprintf(w, "%s = %s\n", key, val) }

// startRule opens a [[kind]] table, after a blank line unless it is the
// first, with the keys every rule has: resource, grade unless it is the
// default def, and count.
func (w *tomlWriter) startRule(kind Kind, resource string, grades enum, grade, def int64, count float64) {
	if w.Len() > 0 {
		w.WriteByte('\n')
	}
	w.WriteString("[[" + tomlTable(kind) + "]]\n")
	w.kv("resource", tomlString(resource))
	if grade != def {
		w.kv("grade", tomlEnum(grades, grade))
	}
	w.kv("count", tomlFloat(count))
}

func encodeTOML(s Set) []byte {
	var w tomlWriter
	df, dd := NormalizeFlow(defaultFlowRule()), NormalizeDegrade(defaultDegradeRule())
	for _, r := range s.Flow {
		n := NormalizeFlow(r)
		w.startRule(KindFlow, n.Resource, flowGradeEnum, flowGradeEnum.sentinel(int64(n.Grade)), flowGradeEnum.sentinel(int64(df.Grade)), n.Count)
		if n.LimitApp != df.LimitApp {
			w.kv("limitApp", tomlString(n.LimitApp))
		}
		if n.Strategy != df.Strategy {
			w.kv("strategy", tomlEnum(strategyEnum, int64(n.Strategy)))
		}
		if n.RefResource != "" {
			w.kv("refResource", tomlString(n.RefResource))
		}
		if n.ControlBehavior != df.ControlBehavior {
			w.kv("controlBehavior", tomlEnum(controlBehaviorEnum, int64(n.ControlBehavior)))
		}
		tomlInt(&w, "warmUpPeriodSec", n.WarmUpPeriodSec, df.WarmUpPeriodSec)
		tomlInt(&w, "coldFactor", n.ColdFactor, df.ColdFactor)
		tomlInt(&w, "maxQueueingTimeMs", n.MaxQueueingTimeMs, df.MaxQueueingTimeMs)
		tomlInt(&w, "statIntervalMs", n.StatIntervalMs, df.StatIntervalMs)
		if n.ClusterMode {
			w.kv("clusterMode", "true")
		}
		if c := tomlCluster(n.ClusterConfig, df.ClusterConfig); c != "" {
			w.kv("clusterConfig", c)
		}
	}
	for _, r := range s.Degrade {
		n := NormalizeDegrade(r)
		w.startRule(KindDegrade, n.Resource, degradeGradeEnum, int64(n.Grade), int64(dd.Grade), n.Count)
		if n.SlowRatioThreshold != dd.SlowRatioThreshold || math.Signbit(n.SlowRatioThreshold) {
			w.kv("slowRatioThreshold", tomlFloat(n.SlowRatioThreshold))
		}
		tomlInt(&w, "timeWindow", n.TimeWindowSec, dd.TimeWindowSec)
		tomlInt(&w, "minRequestAmount", n.MinRequestAmount, dd.MinRequestAmount)
		tomlInt(&w, "statIntervalMs", n.StatIntervalMs, dd.StatIntervalMs)
	}
	encodeTOMLFamilies(&w, s)
	return w.Bytes()
}

func tomlInt(w *tomlWriter, key string, v, def int) {
	if v != def {
		w.kv(key, strconv.Itoa(v))
	}
}

// tomlEnum writes an enum's word, or its number when it has no word (an
// invalid rule built in code: encoding it keeps the value for the reader's
// error message).
func tomlEnum(e enum, n int64) string {
	w := e.word(n)
	if _, err := strconv.Atoi(w); err == nil {
		return w
	}
	return tomlString(w)
}

// tomlCluster writes the non-default fields of c as an inline table, "" when
// there are none.
func tomlCluster(c, def runtime.ClusterConfig) string {
	var b bytes.Buffer
	add := func(key, val string) {
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(key + " = " + val)
	}
	if c.FlowID != def.FlowID {
		add("flowId", strconv.FormatInt(c.FlowID, 10))
	}
	if c.ThresholdType != def.ThresholdType {
		add("thresholdType", tomlEnum(thresholdTypeEnum, int64(c.ThresholdType)))
	}
	if c.FallbackToLocalWhenFail != def.FallbackToLocalWhenFail {
		add("fallbackToLocalWhenFail", strconv.FormatBool(c.FallbackToLocalWhenFail))
	}
	if c.WindowIntervalMs != def.WindowIntervalMs {
		add("windowIntervalMs", strconv.Itoa(c.WindowIntervalMs))
	}
	if b.Len() == 0 {
		return ""
	}
	return "{ " + b.String() + " }"
}

// tomlFloat writes f in the shortest form that reads back as f; whole
// numbers look like integers, which the reader accepts for numbers.
func tomlFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case f == 0 && math.Signbit(f):
		return "-0.0"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// tomlString quotes s as a TOML basic string: printable text as is, the
// rest escaped.
func tomlString(s string) string {
	var b bytes.Buffer
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// Sentinel's JSON shapes, fields in the order Sentinel's dashboard writes
// them.
type (
	sentinelFlowJSON struct {
		Resource          string               `json:"resource"`
		LimitApp          string               `json:"limitApp"`
		Grade             int32                `json:"grade"`
		Count             float64              `json:"count"`
		Strategy          int32                `json:"strategy"`
		RefResource       string               `json:"refResource,omitempty"`
		ControlBehavior   int32                `json:"controlBehavior"`
		WarmUpPeriodSec   int                  `json:"warmUpPeriodSec"`
		MaxQueueingTimeMs int                  `json:"maxQueueingTimeMs"`
		ClusterMode       bool                 `json:"clusterMode"`
		ClusterConfig     *sentinelClusterJSON `json:"clusterConfig,omitempty"`
		ColdFactor        int                  `json:"coldFactor,omitempty"`
		StatIntervalMs    int                  `json:"statIntervalMs,omitempty"`
	}
	sentinelClusterJSON struct {
		FlowID                  int64 `json:"flowId"`
		ThresholdType           int32 `json:"thresholdType"`
		FallbackToLocalWhenFail bool  `json:"fallbackToLocalWhenFail"`
		WindowIntervalMs        int   `json:"windowIntervalMs"`
	}
	sentinelDegradeJSON struct {
		Resource           string  `json:"resource"`
		LimitApp           string  `json:"limitApp"`
		Grade              int32   `json:"grade"`
		Count              float64 `json:"count"`
		TimeWindow         int     `json:"timeWindow"`
		MinRequestAmount   int     `json:"minRequestAmount"`
		SlowRatioThreshold float64 `json:"slowRatioThreshold"`
		StatIntervalMs     int     `json:"statIntervalMs"`
	}
)

func encodeJSON(s Set) ([]byte, error) {
	flow := make([]sentinelFlowJSON, len(s.Flow))
	df := NormalizeFlow(defaultFlowRule())
	for i, r := range s.Flow {
		n := NormalizeFlow(r)
		j := sentinelFlowJSON{
			Resource: n.Resource, LimitApp: n.LimitApp, Grade: int32(flowGradeEnum.sentinel(int64(n.Grade))), Count: n.Count,
			Strategy: int32(n.Strategy), RefResource: n.RefResource, ControlBehavior: int32(n.ControlBehavior),
			WarmUpPeriodSec: n.WarmUpPeriodSec, MaxQueueingTimeMs: n.MaxQueueingTimeMs, ClusterMode: n.ClusterMode,
		}
		if n.ColdFactor != df.ColdFactor {
			j.ColdFactor = n.ColdFactor
		}
		if n.StatIntervalMs != df.StatIntervalMs {
			j.StatIntervalMs = n.StatIntervalMs
		}
		if n.ClusterMode || n.ClusterConfig != df.ClusterConfig {
			c := n.ClusterConfig
			j.ClusterConfig = &sentinelClusterJSON{FlowID: c.FlowID, ThresholdType: int32(c.ThresholdType),
				FallbackToLocalWhenFail: c.FallbackToLocalWhenFail, WindowIntervalMs: c.WindowIntervalMs}
		}
		flow[i] = j
	}
	degrade := make([]sentinelDegradeJSON, len(s.Degrade))
	for i, r := range s.Degrade {
		n := NormalizeDegrade(r)
		degrade[i] = sentinelDegradeJSON{
			Resource: n.Resource, LimitApp: "default", Grade: int32(n.Grade), Count: n.Count,
			TimeWindow: n.TimeWindowSec, MinRequestAmount: n.MinRequestAmount,
			SlowRatioThreshold: n.SlowRatioThreshold, StatIntervalMs: n.StatIntervalMs,
		}
	}
	doc, err := jsonDocument(s, flow, degrade)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("rules: Sentinel JSON cannot hold this set: %w", err)
	}
	return b.Bytes(), nil
}
