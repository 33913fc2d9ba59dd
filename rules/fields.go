package rules

import (
	"fmt"
	"maps"
	"math"
	"slices"
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
	flowGradeEnum       = enum{what: "flow grade", words: []string{"concurrency", "qps"}}
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
		return E(n), msg
	}, dst)
}

// flowFields are a flow rule's keys, in Sentinel's order.
var flowFields = []field[runtime.FlowRule]{
	stringField("resource", "Resource", func(r *runtime.FlowRule) *string { return &r.Resource }),
	enumField("grade", "Grade", flowGradeEnum, func(r *runtime.FlowRule) *runtime.FlowGrade { return &r.Grade }),
	floatField("count", "Count", func(r *runtime.FlowRule) *float64 { return &r.Count }),
	enumField("strategy", "Strategy", strategyEnum, func(r *runtime.FlowRule) *runtime.FlowStrategy { return &r.Strategy }),
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
		d.decode(v.table, "clusterConfig.", "ClusterConfig.", func(e entry) string {
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

var sentinelRuleFields = []sentinelField{
	{"limitApp", func(v value) string {
		if v.kind == valNull || (v.kind == valString && (v.s == "" || v.s == "default")) {
			return ""
		}
		return fmt.Sprintf("limitApp %s is not supported: the rule is applied to every caller, as limitApp \"default\"", v.describe())
	}},
	{"regex", func(v value) string {
		if v.kind == valNull || (v.kind == valBool && !v.b) {
			return ""
		}
		return fmt.Sprintf("regex %s is not supported: the resource is matched by its exact name", v.describe())
	}},
}

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
	extra := sentinelRuleFields
	if d.prefix != "" {
		extra = sentinelClusterFields
	}
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
	if s := suggest(e.key, knownKeys(d, fields, extra)); s != "" {
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

// decoder reads records into rules, collecting errors and warnings.
type decoder struct {
	// native is true for the TOML format: its duration spellings are
	// known and unknown keys are errors, not warnings.
	native bool
	errs   []error
	warns  []*Error
	// prefix and goPrefix qualify the keys of the record being decoded
	// ("clusterConfig.", "ClusterConfig.").
	prefix, goPrefix string
	sites            ruleSites
	// failed holds the runtime fields of the current rule whose value was
	// refused; validation does not report them again.
	failed map[string]bool

	// set holds the rules read so far, flowSites and degradeSites their
	// sites by index, for validation once the document is read.
	set                     Set
	flowSites, degradeSites []ruleSites
	// badFlow and badDegrade hold the indexes of the rules that failed to
	// decode, left out of the partial set result returns.
	badFlow, badDegrade map[int]bool
}

func (d *decoder) fail(pos Position, field, msg string) {
	d.errs = append(d.errs, &Error{Pos: pos, Field: field, Msg: msg})
}

func (d *decoder) warn(pos Position, field, msg string) {
	d.warns = append(d.warns, &Error{Pos: pos, Field: field, Msg: msg})
}

// decode runs one over every entry of rec (JSON nulls are skipped, as
// Sentinel leaves the field at its default), recording sites and refusing a
// second spelling of a field already set.
func (d *decoder) decode(rec *record, prefix, goPrefix string, one func(entry) string) {
	oldPrefix, oldGo := d.prefix, d.goPrefix
	d.prefix, d.goPrefix = prefix, goPrefix
	defer func() { d.prefix, d.goPrefix = oldPrefix, oldGo }()
	for _, e := range rec.entries {
		if e.val.kind == valNull {
			continue
		}
		nErrs := len(d.errs)
		goName := one(e)
		if goName == "" {
			continue
		}
		goName = goPrefix + goName
		if prev, ok := d.sites[goName]; ok {
			d.errs = append(d.errs[:nErrs], &Error{Pos: e.pos, Field: prefix + e.key,
				Msg: fmt.Sprintf("sets the same field as %s (%s); keep one of them", prev.key, prev.pos)})
			continue
		}
		d.sites[goName] = site{key: prefix + e.key, pos: e.pos, failed: d.failed[goName]}
	}
}

// decodeFlow reads one flow rule from rec.
func (d *decoder) decodeFlow(rec *record) (runtime.FlowRule, ruleSites) {
	r := defaultFlowRule()
	d.sites, d.failed = ruleSites{}, map[string]bool{}
	d.decode(rec, "", "", func(e entry) string { return decodeField(d, flowFields, e, &r) })
	d.requireCount(rec, "blocks every call")
	return r, d.sites
}

// decodeDegrade reads one degrade rule from rec.
func (d *decoder) decodeDegrade(rec *record) (runtime.DegradeRule, ruleSites) {
	r := defaultDegradeRule()
	d.sites, d.failed = ruleSites{}, map[string]bool{}
	d.decode(rec, "", "", func(e entry) string { return decodeField(d, degradeFields, e, &r) })
	if s, ok := d.sites["Count"]; ok && s.key == "slowCall" && r.Grade != runtime.DegradeSlowRatio {
		d.fail(s.pos, s.key, fmt.Sprintf("applies to grade %q only; for grade %q use count",
			degradeGradeEnum.word(int64(runtime.DegradeSlowRatio)), degradeGradeEnum.word(int64(r.Grade))))
	}
	d.requireCount(rec, "opens the breaker on the first slow call or error")
	return r, d.sites
}

// requireCount refuses a native rule that leaves out its threshold. A rule
// read while its file is half written ([[flow]] and resource, count not yet
// there) must not go into force as count 0, and nobody means 0 by leaving
// the field out: 0 has to be written. Sentinel JSON keeps Sentinel's reading
// (a missing count is 0, as Jackson leaves the double), with a warning, so a
// document a Java service reads the same way still loads. effect says what 0
// does to the rule's kind.
func (d *decoder) requireCount(rec *record, effect string) {
	if _, ok := d.sites["Count"]; ok {
		return
	}
	if d.native {
		d.fail(fieldPosition(rec.pos, "count"), "count", "missing; every rule needs its threshold (write count = 0 if you mean one that "+effect+")")
		return
	}
	d.warn(fieldPosition(rec.pos, "count"), "count", "missing; read as 0, as Sentinel does: the rule "+effect)
}

// addRule reads item, a rule of kind k, into the set with its position and
// sites.
func (d *decoder) addRule(k Kind, item value) {
	s := &d.set
	nErrs := len(d.errs)
	if k == KindFlow {
		r, st := d.decodeFlow(item.table)
		if len(d.errs) > nErrs {
			d.badFlow = markBad(d.badFlow, len(s.Flow))
		}
		s.Flow, s.FlowAt, d.flowSites = append(s.Flow, r), append(s.FlowAt, item.pos), append(d.flowSites, st)
		return
	}
	r, st := d.decodeDegrade(item.table)
	if len(d.errs) > nErrs {
		d.badDegrade = markBad(d.badDegrade, len(s.Degrade))
	}
	s.Degrade, s.DegradeAt, d.degradeSites = append(s.Degrade, r), append(s.DegradeAt, item.pos), append(d.degradeSites, st)
}

func markBad(m map[int]bool, i int) map[int]bool {
	if m == nil {
		m = map[int]bool{}
	}
	m[i] = true
	return m
}

// result validates the rules read and returns them with the warnings, or,
// when anything is wrong, every error, joined in line order, beside the
// rules that have no problem of their own (Parse drops those; LoadAll
// keeps them for the linter).
func (d *decoder) result() (Set, error) {
	s := d.set
	s.Warnings = sortByLine(d.warns)
	if err := joinByLine(append(d.errs, validate(d.set, d.flowSites, d.degradeSites))); err != nil {
		return d.validPart(s), err
	}
	return s, nil
}

// validPart is s without the rules that failed to decode or to validate.
func (d *decoder) validPart(s Set) Set {
	badFlow, badDegrade := maps.Clone(d.badFlow), maps.Clone(d.badDegrade)
	for _, err := range []error{runtime.ValidateFlowRules(s.Flow), runtime.ValidateDegradeRules(s.Degrade)} {
		for _, re := range ruleErrors(err) {
			if re.Kind == "flow" {
				badFlow = markBad(badFlow, re.Index)
			} else {
				badDegrade = markBad(badDegrade, re.Index)
			}
		}
	}
	if badFlow[-1] || badDegrade[-1] { // a problem that names no rule
		return Set{Warnings: s.Warnings}
	}
	part := Set{Warnings: s.Warnings}
	for i := range s.Flow {
		if !badFlow[i] {
			part.Flow, part.FlowAt = append(part.Flow, s.Flow[i]), append(part.FlowAt, s.FlowAt[i])
		}
	}
	for i := range s.Degrade {
		if !badDegrade[i] {
			part.Degrade, part.DegradeAt = append(part.Degrade, s.Degrade[i]), append(part.DegradeAt, s.DegradeAt[i])
		}
	}
	return part
}

// Keys that only one kind of rule has, for telling a Sentinel JSON
// document's kind from its elements.
var (
	flowOnlyKeys    = []string{"strategy", "refResource", "controlBehavior", "warmUpPeriodSec", "maxQueueingTimeMs", "clusterMode", "clusterConfig", "coldFactor"}
	degradeOnlyKeys = []string{"timeWindow", "slowRatioThreshold", "minRequestAmount"}
)

// kindOfRecord says which kind rec's keys belong to: KindAuto when it has
// keys of neither kind or of both.
func kindOfRecord(rec *record) Kind {
	flow, degrade := false, false
	for _, e := range rec.entries {
		flow = flow || slices.Contains(flowOnlyKeys, e.key)
		degrade = degrade || slices.Contains(degradeOnlyKeys, e.key)
	}
	return onlyKind(flow, degrade)
}
