package runtime

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/sentinelgen/sentinelgen/internal/rulecheck"
)

// DegradeGrade is what a circuit breaker watches. Values are Sentinel's.
type DegradeGrade int32

const (
	// DegradeSlowRatio opens when the share of calls slower than Count ms
	// exceeds SlowRatioThreshold.
	DegradeSlowRatio DegradeGrade = 0
	// DegradeErrorRatio opens when the share of calls with a traced error
	// exceeds Count (0..1).
	DegradeErrorRatio DegradeGrade = 1
	// DegradeErrorCount opens when the number of traced errors in the
	// interval exceeds Count.
	DegradeErrorCount DegradeGrade = 2
)

// DegradeRule is Sentinel's DegradeRule (circuit breaker rule).
type DegradeRule struct {
	// Resource names the guarded resource (required).
	Resource string
	// Grade selects the breaker strategy.
	Grade DegradeGrade
	// Count is the slow-call threshold in ms (DegradeSlowRatio), the error
	// ratio 0..1 (DegradeErrorRatio) or the error count (DegradeErrorCount).
	Count float64
	// SlowRatioThreshold is the slow-call share (0..1) that opens a
	// DegradeSlowRatio breaker; other grades ignore it.
	SlowRatioThreshold float64
	// TimeWindowSec is how long the breaker stays OPEN before it lets one
	// probe through (> 0).
	TimeWindowSec int
	// MinRequestAmount is the number of completed calls in the interval
	// below which the breaker does not judge (0 means DefaultMinRequestAmount).
	MinRequestAmount int
	// StatIntervalMs is the span of the statistics the breaker judges (0
	// means DefaultStatIntervalMs).
	StatIntervalMs int
}

func (r DegradeRule) normalized() DegradeRule {
	if r.MinRequestAmount == 0 {
		r.MinRequestAmount = DefaultMinRequestAmount
	}
	if r.StatIntervalMs == 0 {
		r.StatIntervalMs = DefaultStatIntervalMs
	}
	return r
}

// describe is the text BlockError.Rule carries for a degrade rule, built
// in one buffer as FlowRule.describe.
func (r DegradeRule) describe(index int) string {
	var buf [96]byte
	return string(r.appendDescribe(buf[:0], index))
}

// blockResource and appendBlockRule make a degrade rule a blockSource: a
// breaker's error is formatted from its rule when first read.
func (r *DegradeRule) blockResource() string { return r.Resource }

func (r *DegradeRule) appendBlockRule(b []byte, index int) []byte { return r.appendDescribe(b, index) }

// appendDescribe appends describe's text to b.
func (r DegradeRule) appendDescribe(b []byte, index int) []byte {
	b = strconv.AppendInt(append(b, "degrade rule #"...), int64(index), 10)
	b = append(b, " ("...)
	switch r.Grade {
	case DegradeSlowRatio:
		b = strconv.AppendFloat(append(b, "slow ratio > "...), r.SlowRatioThreshold, 'g', -1, 64)
		b = strconv.AppendFloat(append(b, " of calls over "...), r.Count, 'g', -1, 64)
		b = append(b, " ms"...)
	case DegradeErrorRatio:
		b = strconv.AppendFloat(append(b, "error ratio > "...), r.Count, 'g', -1, 64)
	case DegradeErrorCount:
		b = strconv.AppendFloat(append(b, "error count > "...), r.Count, 'g', -1, 64)
	}
	b = strconv.AppendInt(append(b, ", open "...), int64(r.TimeWindowSec), 10)
	return append(b, " s)"...)
}

// maxDegradeRulesPerResource bounds breakers per resource: an Entry records
// which breakers it probes in a 64-bit mask.
const maxDegradeRulesPerResource = 64

// ValidateDegradeRules checks every rule and returns all problems found,
// joined; nil means LoadDegradeRules would accept the slice.
func ValidateDegradeRules(rules []DegradeRule) error { return validateDegradeRules(rules, nil) }

// validateDegradeRules is ValidateDegradeRules counting rules per resource
// only for the resources in only, or for all when only is nil. A load
// passes the resources whose rules changed: every other resource has the
// rules of the last load, which passed the count.
//
// The rules' own fields are checked only at only's differing positions (all
// of them when only is nil): a rule's fields are valid or not whatever the
// other rules, and the rules in force passed when they were loaded.
func validateDegradeRules(rules []DegradeRule, only *ruleChanges) error {
	var errs []error
	var perResource map[string]int
	if len(rules) > maxDegradeRulesPerResource {
		perResource = map[string]int{}
	}
	var at []int32 // the positions to check, when only is not nil
	if only != nil {
		at = only.degradeAt.at
	}
	for i := 0; i < len(rules); i++ {
		if only != nil && perResource == nil { // nothing to count: visit the differing positions only
			if len(at) == 0 || int(at[0]) >= len(rules) {
				break
			}
			i = int(at[0])
		}
		fields := only == nil || (len(at) != 0 && int(at[0]) == i)
		if fields && only != nil {
			at = at[1:]
		}
		r := &rules[i]
		fail := rulecheck.Report(func(field, reason string) {
			errs = append(errs, &RuleError{Kind: "degrade", Index: i, Resource: r.Resource, Field: field, Reason: reason})
		})
		if fields {
			fail.Check("Resource", rulecheck.Resource(r.Resource))
		}
		// A differing position's resource is a changed one: no lookup.
		if perResource != nil && (fields || only.has(r.Resource)) {
			perResource[r.Resource]++
			if perResource[r.Resource] == maxDegradeRulesPerResource+1 {
				fail("Resource", fmt.Sprintf("has more than %d degrade rules", maxDegradeRulesPerResource))
			}
		}
		if !fields {
			continue
		}
		switch r.Grade {
		case DegradeSlowRatio, DegradeErrorCount:
			fail.Check("Count", rulecheck.Count(r.Count))
		case DegradeErrorRatio:
			if rulecheck.BadNumber(r.Count) || r.Count > 1 {
				fail("Count", fmt.Sprintf("%v must be an error ratio between 0 and 1", r.Count))
			}
		default:
			fail("Grade", fmt.Sprintf("%d is not a degrade grade (0 slow ratio, 1 error ratio, 2 error count)", r.Grade))
		}
		if rulecheck.BadNumber(r.SlowRatioThreshold) || r.SlowRatioThreshold > 1 {
			fail("SlowRatioThreshold", fmt.Sprintf("%v must be a ratio between 0 and 1", r.SlowRatioThreshold))
		}
		fail.Check("TimeWindowSec", rulecheck.Positive(int64(r.TimeWindowSec)))
		if r.MinRequestAmount < 0 {
			fail("MinRequestAmount", fmt.Sprintf("%d must be >= 0 (0 means %d)", r.MinRequestAmount, DefaultMinRequestAmount))
		}
		if why := rulecheck.IntervalMs(r.StatIntervalMs, maxStatIntervalMs, DefaultStatIntervalMs); why != "" {
			fail("StatIntervalMs", why)
		} else if r.StatIntervalMs != 0 {
			if _, err := bucketsFor(r.StatIntervalMs, breakerBucketMs); err != nil {
				fail("StatIntervalMs", err.Error())
			}
		}
	}
	return errors.Join(errs...)
}
