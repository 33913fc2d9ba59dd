package rules

import (
	"math"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Sentinel's SystemRule leaves every threshold at -1 (unset); a document
// sets the ones it means.
func defaultSystemRule() runtime.SystemRule {
	return runtime.SystemRule{HighestSystemLoad: -1, HighestCPUUsage: -1, QPS: -1, AvgRT: -1, MaxThread: -1}
}

// int64Field reads a Java long (avgRt, maxThread): any integer, or a
// float without a fraction.
func int64Field[R any](key, goName string, dst func(*R) *int64) field[R] {
	return readField(key, goName, func(v value) (int64, string) {
		switch {
		case v.kind == valInt:
			return v.i, ""
		case v.kind != valFloat:
			return 0, wrongType("an integer", v)
		case v.f != math.Trunc(v.f) || math.IsInf(v.f, 0):
			return 0, v.describe() + " is not a whole number"
		case math.Abs(v.f) >= 1<<63:
			return 0, v.describe() + " is out of range"
		}
		return int64(v.f), ""
	}, dst)
}

// systemFields are a system rule's keys, in Sentinel's order.
var systemFields = []field[runtime.SystemRule]{
	floatField("highestSystemLoad", "HighestSystemLoad", func(r *runtime.SystemRule) *float64 { return &r.HighestSystemLoad }),
	floatField("highestCpuUsage", "HighestCPUUsage", func(r *runtime.SystemRule) *float64 { return &r.HighestCPUUsage }),
	floatField("qps", "QPS", func(r *runtime.SystemRule) *float64 { return &r.QPS }),
	int64Field("avgRt", "AvgRT", func(r *runtime.SystemRule) *int64 { return &r.AvgRT }),
	int64Field("maxThread", "MaxThread", func(r *runtime.SystemRule) *int64 { return &r.MaxThread }),
}

// decodeSystem reads one system rule from rec. A rule that sets no
// threshold does nothing (Sentinel's dashboard never writes one); it is
// kept, with a warning, since Sentinel reads it too.
func (d *decoder) decodeSystem(rec *record) (runtime.SystemRule, ruleSites) {
	r := defaultSystemRule()
	d.startRule()
	d.decode(rec, "", "", systemExtra, func(e entry) string { return decodeField(d, systemFields, e, &r) })
	if NormalizeSystem(r) == defaultSystemRule() && len(d.failed) == 0 {
		d.warn(rec.pos, "", "sets no threshold (highestSystemLoad, highestCpuUsage, qps, avgRt, maxThread): the rule has no effect")
	}
	return r, d.sites
}

// authorityStrategyEnum is an authority rule's strategy, Sentinel's
// numbers.
var authorityStrategyEnum = enum{what: "valid authority strategy", words: []string{"white", "black"}}

// authorityFields are an authority rule's keys, in Sentinel's order.
var authorityFields = []field[runtime.AuthorityRule]{
	stringField("resource", "Resource", func(r *runtime.AuthorityRule) *string { return &r.Resource }),
	stringField("limitApp", "LimitApp", func(r *runtime.AuthorityRule) *string { return &r.LimitApp }),
	enumField("strategy", "Strategy", authorityStrategyEnum, func(r *runtime.AuthorityRule) *runtime.AuthorityStrategy { return &r.Strategy }),
}

// decodeAuthority reads one authority rule from rec; strategy defaults to
// white, as in Sentinel.
func (d *decoder) decodeAuthority(rec *record) (runtime.AuthorityRule, ruleSites) {
	r := runtime.AuthorityRule{Strategy: runtime.AuthorityWhite}
	d.startRule()
	d.decode(rec, "", "", authorityExtra, func(e entry) string { return decodeField(d, authorityFields, e, &r) })
	return r, d.sites
}
