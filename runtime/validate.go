package runtime

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/sentinelgen/sentinelgen/internal/rulecheck"
)

// RuleError says which rule of a load was invalid and why. Loads return it
// (possibly joined with others by errors.Join); use errors.As to inspect it.
type RuleError struct {
	// Kind is "flow", "degrade", "param-flow", "system" or "authority".
	Kind string
	// Index is the rule's position in the slice passed to the load.
	Index int
	// Resource is the rule's Resource field.
	Resource string
	// Field is the offending field's name.
	Field string
	// Reason says what is wrong with it.
	Reason string
}

// Error names the rule by index and resource, then the field.
func (e *RuleError) Error() string {
	return e.Kind + " rule #" + strconv.Itoa(e.Index) + " (resource " + strconv.Quote(e.Resource) + "): " +
		e.Field + " " + e.Reason
}

// goNames spells the fields rulecheck's shared checks report as the rule
// types name them.
var goNames = rulecheck.Names{Resource: "Resource", Grade: "Grade", Count: "Count"}

// Limits of what a window can be split into; see bucketsFor.
const (
	maxStatIntervalMs = 3_600_000
	maxBuckets        = 600
)

// Widest buckets wanted in a rule's own window. Flow rules want the 250 ms
// the runtime advises for flow control; breakers judge ratios over the whole
// interval and use Sentinel's 500 ms second-level width, which lets their
// window share time arithmetic with the resource's statistics.
const (
	flowBucketMs    = 250
	breakerBucketMs = 500
)

// bucketsFor picks how many buckets a window of intervalMs gets: the fewest
// that make buckets no wider than widthMs, or than intervalMs/60 for long
// intervals, rounded up to a divisor of intervalMs. It returns an error when
// no divisor up to maxBuckets exists (e.g. a large prime interval).
func bucketsFor(intervalMs, widthMs int) (int, error) {
	width := max(widthMs, intervalMs/60)
	n := max(2, (intervalMs+width-1)/width)
	if intervalMs < 2 {
		n = 1
	}
	for ; n <= min(intervalMs, maxBuckets); n++ {
		if intervalMs%n == 0 {
			return n, nil
		}
	}
	return 0, fmt.Errorf("cannot be split into at most %d equal buckets; use a rounder number", maxBuckets)
}

// validateEach runs one family's check on every rule and joins the
// problems found; nil means the family's load would accept the slice.
func validateEach[R any](rules []R, check func(errs []error, i int, r *R) []error) error {
	var errs []error
	for i := range rules {
		errs = check(errs, i, &rules[i])
	}
	return errors.Join(errs...)
}

// validateAt is validateEach for the rules at the positions at
// (ascending). A load checks only the positions that differ from the rules
// in force: a rule's validity depends on the rule alone, and the others
// passed when they were loaded.
func validateAt[R any](rules []R, at []int32, check func(errs []error, i int, r *R) []error) error {
	var errs []error
	for _, p := range at {
		if int(p) < len(rules) {
			errs = check(errs, int(p), &rules[p])
		}
	}
	return errors.Join(errs...)
}
