package rules

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// This file is the one table of rule fields: document key, runtime field,
// type, enum words and defaults. Both decoders read through it, validation
// maps runtime field names back to keys with it, and the encoder takes its
// enum words and defaults from it.

// Enums, with the words the native format writes and Sentinel's numbers as
// the index.
var (
	// Sentinel's flow grades are 0 thread (concurrency), 1 QPS; Go's
	// FlowGrade has QPS as its zero value, so the numbers are mapped.
	flowGradeEnum = enum{what: "flow grade", words: []string{"concurrency", "qps"},
		goOf: []int64{int64(runtime.FlowGradeConcurrency), int64(runtime.FlowGradeQPS)}}
	strategyEnum        = enum{what: "strategy", words: []string{"direct", "relate", "chain"}}
	controlBehaviorEnum = enum{what: "control behavior", words: []string{"reject", "warmUp", "rateLimiter", "warmUpRateLimiter"}}
	thresholdTypeEnum   = enum{what: "threshold type", words: []string{"avgLocal", "global"}}
	degradeGradeEnum    = enum{what: "degrade grade", words: []string{"slowRatio", "errorRatio", "errorCount"}}
)

// Sentinel 1.8's defaults for fields a document leaves out. Both formats use
// them, so a TOML rule and its Sentinel JSON twin mean the same thing. Fields
// whose runtime zero already means the default (ColdFactor, StatIntervalMs of
// flow rules, WindowIntervalMs) stay zero.
func defaultFlowRule() runtime.FlowRule {
	return runtime.FlowRule{
		Grade:             runtime.FlowGradeQPS,
		WarmUpPeriodSec:   10,
		MaxQueueingTimeMs: 500,
		ClusterConfig:     runtime.ClusterConfig{FallbackToLocalWhenFail: true},
	}
}

func defaultDegradeRule() runtime.DegradeRule {
	return runtime.DegradeRule{
		Grade:              runtime.DegradeSlowRatio,
		SlowRatioThreshold: 1,
		MinRequestAmount:   runtime.DefaultMinRequestAmount,
		StatIntervalMs:     runtime.DefaultStatIntervalMs,
	}
}

// field is one key a rule document may set.
type field[R any] struct {
	key    string // document key, lowerCamel
	goName string // runtime field it sets, as RuleError.Field names it
	// native marks the native format's extra spellings (durations): Sentinel
	// JSON does not know them.
	native bool
	// set stores v into r, or leaves r alone and returns what is wrong with
	// v. Leaving the default in place keeps one bad value from causing
	// follow-up errors in fields that depend on it.
	set func(d *decoder, r *R, v value) string
}

// readField builds the field whose value read converts; the rule is set
// only when read finds nothing wrong.
func readField[R, T any](key, goName string, read func(value) (T, string), dst func(*R) *T) field[R] {
	return field[R]{key: key, goName: goName, set: func(_ *decoder, r *R, v value) string {
		x, msg := read(v)
		if msg == "" {
			*dst(r) = x
		}
		return msg
	}}
}

func intField[R any](key, goName string, dst func(*R) *int) field[R] {
	return readField(key, goName, func(v value) (int, string) {
		n, msg := asInt(v)
		return int(n), msg
	}, dst)
}

// durationField is the native spelling, as a duration string, of the
// number field numericKey.
func durationField[R any, N int | float64](key, goName, numericKey string, unit time.Duration, dst func(*R) *N) field[R] {
	f := readField(key, goName, func(v value) (N, string) {
		n, msg := asDuration(v, unit, numericKey)
		return N(n), msg
	}, dst)
	f.native = true
	return f
}

func floatField[R any](key, goName string, dst func(*R) *float64) field[R] {
	return readField(key, goName, asFloat, dst)
}

func stringField[R any](key, goName string, dst func(*R) *string) field[R] {
	return readField(key, goName, asString, dst)
}

func boolField[R any](key, goName string, dst func(*R) *bool) field[R] {
	return readField(key, goName, asBool, dst)
}

func enumField[R any, E ~int32](key, goName string, e enum, dst func(*R) *E) field[R] {
	return readField(key, goName, func(v value) (E, string) {
		n, msg := e.read(v)
		return E(e.toGo(n)), msg
	}, dst)
}

// flowFields are a flow rule's keys, in Sentinel's order.
var flowFields = []field[runtime.FlowRule]{
	stringField("resource", "Resource", func(r *runtime.FlowRule) *string { return &r.Resource }),
	enumField("grade", "Grade", flowGradeEnum, func(r *runtime.FlowRule) *runtime.FlowGrade { return &r.Grade }),
	floatField("count", "Count", func(r *runtime.FlowRule) *float64 { return &r.Count }),
	enumField("strategy", "Strategy", strategyEnum, func(r *runtime.FlowRule) *runtime.FlowStrategy { return &r.Strategy }),
	stringField("limitApp", "LimitApp", func(r *runtime.FlowRule) *string { return &r.LimitApp }),
	stringField("refResource", "RefResource", func(r *runtime.FlowRule) *string { return &r.RefResource }),
	enumField("controlBehavior", "ControlBehavior", controlBehaviorEnum, func(r *runtime.FlowRule) *runtime.ControlBehavior { return &r.ControlBehavior }),
	intField("warmUpPeriodSec", "WarmUpPeriodSec", func(r *runtime.FlowRule) *int { return &r.WarmUpPeriodSec }),
	durationField("warmUpPeriod", "WarmUpPeriodSec", "warmUpPeriodSec", time.Second, func(r *runtime.FlowRule) *int { return &r.WarmUpPeriodSec }),
	intField("coldFactor", "ColdFactor", func(r *runtime.FlowRule) *int { return &r.ColdFactor }),
	intField("maxQueueingTimeMs", "MaxQueueingTimeMs", func(r *runtime.FlowRule) *int { return &r.MaxQueueingTimeMs }),
	durationField("maxQueueingTime", "MaxQueueingTimeMs", "maxQueueingTimeMs", time.Millisecond, func(r *runtime.FlowRule) *int { return &r.MaxQueueingTimeMs }),
	intField("statIntervalMs", "StatIntervalMs", func(r *runtime.FlowRule) *int { return &r.StatIntervalMs }),
	durationField("statInterval", "StatIntervalMs", "statIntervalMs", time.Millisecond, func(r *runtime.FlowRule) *int { return &r.StatIntervalMs }),
	boolField("clusterMode", "ClusterMode", func(r *runtime.FlowRule) *bool { return &r.ClusterMode }),
	{key: "clusterConfig", goName: "ClusterConfig", set: func(d *decoder, r *runtime.FlowRule, v value) string {
		if v.kind != valTable {
			return wrongType("a table of "+strings.Join(knownKeys(d, clusterFields, nil), ", "), v)
		}
		d.decode(v.table, "clusterConfig.", "ClusterConfig.", sentinelClusterFields, func(e entry) string {
			return decodeField(d, clusterFields, e, &r.ClusterConfig)
		})
		return ""
	}},
}

// clusterFields are the keys of a flow rule's clusterConfig.
var clusterFields = []field[runtime.ClusterConfig]{
	field[runtime.ClusterConfig]{key: "flowId", goName: "FlowID", set: func(_ *decoder, c *runtime.ClusterConfig, v value) string {
		// Flow IDs are Java longs: the only integer field wider than int32.
		switch {
		case v.kind == valInt:
			c.FlowID = v.i
		case v.kind != valFloat:
			return wrongType("an integer", v)
		case v.f != math.Trunc(v.f) || math.IsInf(v.f, 0):
			return v.describe() + " is not a whole number"
		case math.Abs(v.f) >= 1<<63:
			return v.describe() + " is out of range"
		default:
			c.FlowID = int64(v.f)
		}
		return ""
	}},
	enumField("thresholdType", "ThresholdType", thresholdTypeEnum, func(c *runtime.ClusterConfig) *runtime.ThresholdType { return &c.ThresholdType }),
	boolField("fallbackToLocalWhenFail", "FallbackToLocalWhenFail", func(c *runtime.ClusterConfig) *bool { return &c.FallbackToLocalWhenFail }),
	intField("windowIntervalMs", "WindowIntervalMs", func(c *runtime.ClusterConfig) *int { return &c.WindowIntervalMs }),
	durationField("windowInterval", "WindowIntervalMs", "windowIntervalMs", time.Millisecond, func(c *runtime.ClusterConfig) *int { return &c.WindowIntervalMs }),
}

// degradeFields are a degrade rule's keys, in Sentinel's order.
var degradeFields = []field[runtime.DegradeRule]{
	stringField("resource", "Resource", func(r *runtime.DegradeRule) *string { return &r.Resource }),
	enumField("grade", "Grade", degradeGradeEnum, func(r *runtime.DegradeRule) *runtime.DegradeGrade { return &r.Grade }),
	floatField("count", "Count", func(r *runtime.DegradeRule) *float64 { return &r.Count }),
	// slowCall is count for the slow-ratio grade, written as a duration;
	// decodeDegrade checks the grade once the whole rule is read.
	durationField("slowCall", "Count", "count", time.Millisecond, func(r *runtime.DegradeRule) *float64 { return &r.Count }),
	floatField("slowRatioThreshold", "SlowRatioThreshold", func(r *runtime.DegradeRule) *float64 { return &r.SlowRatioThreshold }),
	intField("timeWindow", "TimeWindowSec", func(r *runtime.DegradeRule) *int { return &r.TimeWindowSec }),
	durationField("timeWindowDuration", "TimeWindowSec", "timeWindow", time.Second, func(r *runtime.DegradeRule) *int { return &r.TimeWindowSec }),
	intField("minRequestAmount", "MinRequestAmount", func(r *runtime.DegradeRule) *int { return &r.MinRequestAmount }),
	intField("statIntervalMs", "StatIntervalMs", func(r *runtime.DegradeRule) *int { return &r.StatIntervalMs }),
	durationField("statInterval", "StatIntervalMs", "statIntervalMs", time.Millisecond, func(r *runtime.DegradeRule) *int { return &r.StatIntervalMs }),
}

// Sentinel fields with no runtime counterpart. Sentinel JSON may carry them:
// check returns a warning when the value changes what the rule means (and so
// cannot be honoured), "" when ignoring it loses nothing. The native format
// does not accept them.
type sentinelField struct {
	key   string
	check func(v value) string
}

var (
	// regexField: Sentinel may match resources by regular expression; the
	// runtime matches exact names.
	regexField = sentinelField{"regex", func(v value) string {
		if v.kind == valNull || (v.kind == valBool && !v.b) {
			return ""
		}
		return fmt.Sprintf("regex %s is not supported: the resource is matched by its exact name", v.describe())
	}}
	// degradeLimitApp: Sentinel's breakers count every caller whatever
	// limitApp says; a value other than "default" suggests the writer
	// thinks otherwise.
	degradeLimitApp = sentinelField{"limitApp", func(v value) string {
		if v.kind == valNull || (v.kind == valString && (v.s == "" || v.s == limitAppDefault)) {
			return ""
		}
		return fmt.Sprintf("limitApp %s is not supported: the rule is applied to every caller, as limitApp \"default\"", v.describe())
	}}
	// ignored is a field Sentinel's class has (from AbstractRule) but never
	// consults for the kind, so dropping it changes nothing.
	ignored = func(key string) sentinelField { return sentinelField{key, func(value) string { return "" }} }

	flowExtra      = []sentinelField{regexField}
	degradeExtra   = []sentinelField{degradeLimitApp, regexField}
	paramFlowExtra = []sentinelField{ignored("limitApp"), regexField}
	systemExtra    = []sentinelField{ignored("resource"), ignored("limitApp"), ignored("regex")}
	authorityExtra = []sentinelField{regexField}
)

var sentinelClusterFields = []sentinelField{
	{"strategy", func(v value) string {
		if v.kind == valNull || (v.kind == valInt && v.i == 0) || (v.kind == valFloat && v.f == 0) {
			return ""
		}
		return fmt.Sprintf("clusterConfig strategy %s is not supported: only 0 (by threshold type) is", v.describe())
	}},
}

// goToKey maps a runtime field name (RuleError.Field) to the native key.
func goToKey[R any](fields []field[R], goName string) string {
	for _, f := range fields {
		if f.goName == goName && !f.native {
			return f.key
		}
	}
	return ""
}

// knownKeys are the keys a document in the decoder's format may use at one
// level, for "did you mean" suggestions.
func knownKeys[R any](d *decoder, fields []field[R], extra []sentinelField) []string {
	var keys []string
	for _, f := range fields {
		if d.native || !f.native {
			keys = append(keys, f.key)
		}
	}
	if !d.native {
		for _, x := range extra {
			keys = append(keys, x.key)
		}
	}
	return keys
}

// decodeField sets the field e names on r, or reports e as unknown (an
// error in the native format, a warning in Sentinel JSON). It returns the
// runtime field set, "" for none.
func decodeField[R any](d *decoder, fields []field[R], e entry, r *R) string {
	for _, f := range fields {
		if f.key != e.key || (f.native && !d.native) {
			continue
		}
		if msg := f.set(d, r, e.val); msg != "" {
			d.fail(e.pos, d.prefix+e.key, msg)
			d.failed[d.goPrefix+f.goName] = true
		}
		return f.goName
	}
	extra := d.extra
	if !d.native {
		for _, x := range extra {
			if x.key == e.key {
				if msg := x.check(e.val); msg != "" {
					d.warn(e.pos, d.prefix+e.key, msg)
				}
				return ""
			}
		}
	}
	hint := ""
	if s := suggestKey(e.key, knownKeys(d, fields, extra)); s != "" {
		hint = fmt.Sprintf("; did you mean %q?", s)
	}
	if d.native {
		d.fail(e.pos, d.prefix+e.key, "unknown field"+hint)
	} else {
		d.warn(e.pos, d.prefix+e.key, "unknown field, ignored"+hint)
	}
	return ""
}

// site is where a document set one runtime field: the key it used (full,
// e.g. "clusterConfig.flowId") and the key's position.
type site struct {
	key string
	pos Position
	// failed is set when the value was refused (and the default kept).
	failed bool
}

// ruleSites maps runtime field paths ("Count", "ClusterConfig.FlowID") to
// where a rule set them; validation errors point there.
type ruleSites map[string]site
