package rules

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Sentinel 1.8.9's ParamFlowRule defaults: grade QPS, reject, no queueing
// (unlike FlowRule's 500 ms), one-second duration, and a cluster rule that
// does not fall back to local counting (ParamFlowClusterConfig's
// fallbackToLocalWhenFail is false, FlowRule's true).
func defaultParamFlowRule() runtime.ParamFlowRule {
	return runtime.ParamFlowRule{
		Grade:           runtime.FlowGradeQPS,
		ControlBehavior: runtime.BehaviorReject,
		DurationInSec:   1,
	}
}

// paramFlowFields are a param-flow rule's keys, in Sentinel's order. The
// native format may name the argument (param = "sku") instead of giving its
// index; both set ParamIdx, so a rule giving both is refused.
var paramFlowFields = []field[runtime.ParamFlowRule]{
	stringField("resource", "Resource", func(r *runtime.ParamFlowRule) *string { return &r.Resource }),
	enumField("grade", "Grade", flowGradeEnum, func(r *runtime.ParamFlowRule) *runtime.FlowGrade { return &r.Grade }),
	intField("paramIdx", "ParamIdx", func(r *runtime.ParamFlowRule) *int { return &r.ParamIdx }),
	{key: "param", goName: "ParamIdx", native: true, set: func(d *decoder, r *runtime.ParamFlowRule, v value) string {
		name, msg := asString(v)
		switch {
		case msg != "":
			return msg
		case name == "":
			return "is empty; name a parameter of the method, or give paramIdx"
		}
		d.paramName = name
		return ""
	}},
	floatField("count", "Count", func(r *runtime.ParamFlowRule) *float64 { return &r.Count }),
	enumField("controlBehavior", "ControlBehavior", controlBehaviorEnum, func(r *runtime.ParamFlowRule) *runtime.ControlBehavior { return &r.ControlBehavior }),
	intField("maxQueueingTimeMs", "MaxQueueingTimeMs", func(r *runtime.ParamFlowRule) *int { return &r.MaxQueueingTimeMs }),
	durationField("maxQueueingTime", "MaxQueueingTimeMs", "maxQueueingTimeMs", time.Millisecond, func(r *runtime.ParamFlowRule) *int { return &r.MaxQueueingTimeMs }),
	intField("burstCount", "BurstCount", func(r *runtime.ParamFlowRule) *int { return &r.BurstCount }),
	intField("durationInSec", "DurationInSec", func(r *runtime.ParamFlowRule) *int { return &r.DurationInSec }),
	durationField("duration", "DurationInSec", "durationInSec", time.Second, func(r *runtime.ParamFlowRule) *int { return &r.DurationInSec }),
	{key: "paramFlowItemList", goName: "Items", set: func(d *decoder, r *runtime.ParamFlowRule, v value) string {
		if v.kind != valArray {
			return wrongType("an array of items {object, classType, count}", v)
		}
		items := make([]runtime.ParamFlowItem, 0, len(v.items))
		for i, it := range v.items {
			prefix := "paramFlowItemList[" + strconv.Itoa(i) + "]"
			if it.kind != valTable {
				d.fail(it.pos, prefix, wrongType("an item {object, classType, count}", it))
				continue
			}
			var item runtime.ParamFlowItem
			d.decode(it.table, prefix+".", "Items["+strconv.Itoa(i)+"].", nil, func(e entry) string {
				return decodeField(d, paramItemFields, e, &item)
			})
			d.requireItemField(it.pos, prefix, "Items["+strconv.Itoa(i)+"].", "object", "Object", "missing; an item gives the value it limits")
			d.requireItemField(it.pos, prefix, "Items["+strconv.Itoa(i)+"].", "count", "Count", "missing; an item gives the value's threshold")
			items = append(items, item)
		}
		r.Items = items
		return ""
	}},
	boolField("clusterMode", "ClusterMode", func(r *runtime.ParamFlowRule) *bool { return &r.ClusterMode }),
	{key: "clusterConfig", goName: "ClusterConfig", set: func(d *decoder, r *runtime.ParamFlowRule, v value) string {
		if v.kind != valTable {
			return wrongType("a table of "+strings.Join(knownKeys(d, clusterFields, nil), ", "), v)
		}
		d.decode(v.table, "clusterConfig.", "ClusterConfig.", paramClusterExtra, func(e entry) string {
			return decodeField(d, clusterFields, e, &r.ClusterConfig)
		})
		return ""
	}},
}

// paramClusterExtra: ParamFlowClusterConfig's sampleCount has no runtime
// counterpart (the token service's window is its own); the default 10 loses
// nothing.
var paramClusterExtra = []sentinelField{{"sampleCount", func(v value) string {
	if v.kind == valNull || (v.kind == valInt && v.i == 10) {
		return ""
	}
	return fmt.Sprintf("clusterConfig sampleCount %s is not supported: the token service's window is used", v.describe())
}}}

// paramItemFields are the keys of one paramFlowItemList element.
var paramItemFields = []field[runtime.ParamFlowItem]{
	{key: "object", goName: "Object", set: func(_ *decoder, it *runtime.ParamFlowItem, v value) string {
		// Sentinel keeps the value as text (ParamFlowItem.object is a
		// String); a number or boolean written by hand means its text.
		switch v.kind {
		case valString:
			it.Object = v.s
		case valInt, valBool:
			it.Object = v.describe()
		default:
			return wrongType("the value as a string", v)
		}
		return ""
	}},
	stringField("classType", "ClassType", func(it *runtime.ParamFlowItem) *string { return &it.ClassType }),
	intField("count", "Count", func(it *runtime.ParamFlowItem) *int { return &it.Count }),
}

// decodeParamFlow reads one param-flow rule from rec. The argument is
// required, as Sentinel refuses a rule whose paramIdx is null.
func (d *decoder) decodeParamFlow(rec *record) (runtime.ParamFlowRule, ruleSites) {
	r := defaultParamFlowRule()
	d.startRule()
	d.decode(rec, "", "", paramFlowExtra, func(e entry) string { return decodeField(d, paramFlowFields, e, &r) })
	if _, ok := d.sites["ParamIdx"]; !ok {
		hint := "paramIdx (the argument's index, after a leading context.Context)"
		if d.native {
			hint += " or param (the parameter's name)"
		}
		d.fail(fieldPosition(rec.pos, "paramIdx"), "paramIdx", "missing; say which argument the rule limits with "+hint)
	}
	d.requireCount(rec, "blocks every value")
	d.refuseZeroDuration(r)
	return r, d.sites
}

// refuseZeroDuration refuses a rule that writes its duration as 0.
// Sentinel's ParamFlowRuleUtil.isValidRule refuses durationInSec 0, so a
// document a Java service would refuse is refused here too; only the Go
// zero value of a rule built in code means the default (see
// NormalizeParamFlow). A negative duration is left to validation.
func (d *decoder) refuseZeroDuration(r runtime.ParamFlowRule) {
	s, ok := d.sites["DurationInSec"]
	if !ok || s.failed || r.DurationInSec != 0 {
		return
	}
	d.fail(s.pos, s.key, "is 0; a hot-parameter rule counts over 1 second or more, and Sentinel refuses 0 (leave the field out for the default, 1 second)")
	s.failed = true
	d.sites["DurationInSec"] = s
}

// requireItemField reports an item field left out, and records it as
// refused, so that what validation says about its zero value is not
// reported again.
func (d *decoder) requireItemField(at Position, prefix, goPrefix, key, goName, msg string) {
	if _, ok := d.sites[goPrefix+goName]; ok {
		return
	}
	pos := fieldPosition(at, key)
	d.fail(pos, prefix+"."+key, msg)
	d.sites[goPrefix+goName] = site{key: prefix + "." + key, pos: pos, failed: true}
}
