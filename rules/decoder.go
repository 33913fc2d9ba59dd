package rules

import (
	"fmt"
	"maps"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// decoder reads records into rules, collecting errors and warnings.
type decoder struct {
	// native is true for the TOML format: its duration spellings are
	// known and unknown keys are errors, not warnings.
	native bool
	errs   []error
	warns  []*Error
	// prefix and goPrefix qualify the keys of the record being decoded
	// ("clusterConfig.", "ClusterConfig."); extra is the Sentinel fields
	// without a runtime counterpart that its kind may carry.
	prefix, goPrefix string
	extra            []sentinelField
	sites            ruleSites
	// failed holds the runtime fields of the current rule whose value was
	// refused; validation does not report them again.
	failed map[string]bool
	// paramName is the parameter the param-flow rule being read named
	// (param = "sku"), "" when it gave paramIdx.
	paramName string

	// set holds the rules read so far, kindSites their sites by kind and
	// index, for validation once the document is read.
	set       Set
	kindSites map[Kind][]ruleSites
	// bad holds, per kind, the indexes of the rules that failed to decode,
	// left out of the partial set result returns.
	bad map[Kind]map[int]bool
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
func (d *decoder) decode(rec *record, prefix, goPrefix string, extra []sentinelField, one func(entry) string) {
	oldPrefix, oldGo, oldExtra := d.prefix, d.goPrefix, d.extra
	d.prefix, d.goPrefix, d.extra = prefix, goPrefix, extra
	defer func() { d.prefix, d.goPrefix, d.extra = oldPrefix, oldGo, oldExtra }()
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

// startRule resets the per-rule state.
func (d *decoder) startRule() {
	d.sites, d.failed, d.paramName = ruleSites{}, map[string]bool{}, ""
}

// decodeFlow reads one flow rule from rec.
func (d *decoder) decodeFlow(rec *record) (runtime.FlowRule, ruleSites) {
	r := defaultFlowRule()
	d.startRule()
	d.decode(rec, "", "", flowExtra, func(e entry) string { return decodeField(d, flowFields, e, &r) })
	d.requireCount(rec, "blocks every call")
	return r, d.sites
}

// decodeDegrade reads one degrade rule from rec.
func (d *decoder) decodeDegrade(rec *record) (runtime.DegradeRule, ruleSites) {
	r := defaultDegradeRule()
	d.startRule()
	d.decode(rec, "", "", degradeExtra, func(e entry) string { return decodeField(d, degradeFields, e, &r) })
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
// sites; a rule that fails to decode is marked bad.
func (d *decoder) addRule(k Kind, item value) {
	s := &d.set
	nErrs := len(d.errs)
	var (
		st ruleSites
		n  int // index of the new rule
	)
	switch k {
	case KindFlow:
		var r runtime.FlowRule
		r, st = d.decodeFlow(item.table)
		n, s.Flow, s.FlowAt = len(s.Flow), append(s.Flow, r), append(s.FlowAt, item.pos)
	case KindDegrade:
		var r runtime.DegradeRule
		r, st = d.decodeDegrade(item.table)
		n, s.Degrade, s.DegradeAt = len(s.Degrade), append(s.Degrade, r), append(s.DegradeAt, item.pos)
	case KindParamFlow:
		var r runtime.ParamFlowRule
		r, st = d.decodeParamFlow(item.table)
		n, s.ParamFlow, s.ParamFlowAt = len(s.ParamFlow), append(s.ParamFlow, r), append(s.ParamFlowAt, item.pos)
		if d.paramName != "" || s.ParamFlowParam != nil {
			s.ParamFlowParam = append(padTo(s.ParamFlowParam, n), d.paramName)
		}
	case KindSystem:
		var r runtime.SystemRule
		r, st = d.decodeSystem(item.table)
		n, s.System, s.SystemAt = len(s.System), append(s.System, r), append(s.SystemAt, item.pos)
	case KindAuthority:
		var r runtime.AuthorityRule
		r, st = d.decodeAuthority(item.table)
		n, s.Authority, s.AuthorityAt = len(s.Authority), append(s.Authority, r), append(s.AuthorityAt, item.pos)
	default:
		d.fail(item.pos, "", fmt.Sprintf("rule kind %q is not supported", k))
		return
	}
	if d.kindSites == nil {
		d.kindSites = map[Kind][]ruleSites{}
	}
	d.kindSites[k] = append(d.kindSites[k], st)
	if len(d.errs) > nErrs {
		d.markBad(k, n)
	}
}

func (d *decoder) markBad(k Kind, i int) {
	d.bad = markBad(d.bad, k, i)
}

func markBad(m map[Kind]map[int]bool, k Kind, i int) map[Kind]map[int]bool {
	if m == nil {
		m = map[Kind]map[int]bool{}
	}
	if m[k] == nil {
		m[k] = map[int]bool{}
	}
	m[k][i] = true
	return m
}

// result validates the rules read and returns them with the warnings, or,
// when anything is wrong, every error, joined in line order, beside the
// rules that have no problem of their own (Parse drops those; LoadAll
// keeps them for the linter).
func (d *decoder) result() (Set, error) {
	s := d.set
	s.Warnings = sortByLine(d.warns)
	if err := joinByLine(append(d.errs, validate(d.set, d.kindSites))); err != nil {
		return d.validPart(s), err
	}
	return s, nil
}

// validPart is s without the rules that failed to decode or to validate.
func (d *decoder) validPart(s Set) Set {
	bad := map[Kind]map[int]bool{}
	for k, m := range d.bad {
		bad[k] = maps.Clone(m)
	}
	for _, re := range runtimeErrors(s) {
		bad = markBad(bad, ruleKind(re.Kind), re.Index)
	}
	for _, k := range allKinds {
		if bad[k][-1] { // a problem that names no rule
			return Set{Warnings: s.Warnings}
		}
	}
	part := Set{Warnings: s.Warnings}
	keep := func(k Kind, i int) bool { return !bad[k][i] }
	part.Flow, part.FlowAt = keepGood(s.Flow, s.FlowAt, KindFlow, keep)
	part.Degrade, part.DegradeAt = keepGood(s.Degrade, s.DegradeAt, KindDegrade, keep)
	part.ParamFlow, part.ParamFlowAt = keepGood(s.ParamFlow, s.ParamFlowAt, KindParamFlow, keep)
	if s.ParamFlowParam != nil {
		part.ParamFlowParam, _ = keepGood(padTo(s.ParamFlowParam, len(s.ParamFlow)), s.ParamFlowAt, KindParamFlow, keep)
	}
	part.System, part.SystemAt = keepGood(s.System, s.SystemAt, KindSystem, keep)
	part.Authority, part.AuthorityAt = keepGood(s.Authority, s.AuthorityAt, KindAuthority, keep)
	return part
}

// keepGood returns the rules (and their positions) that keep admits.
func keepGood[R any](rules []R, at []Position, k Kind, keep func(Kind, int) bool) ([]R, []Position) {
	var (
		out   []R
		outAt []Position
	)
	for i := range rules {
		if keep(k, i) {
			out, outAt = append(out, rules[i]), append(outAt, at[i])
		}
	}
	return out, outAt
}
