package runtime

import "strconv"

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
