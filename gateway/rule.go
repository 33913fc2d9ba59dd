package gateway

import (
	"fmt"
	"regexp"

	"github.com/sentinelgen/sentinelgen/internal/rulecheck"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// ResourceMode says what a rule's Resource names. Values are Sentinel's.
type ResourceMode int32

const (
	// ModeRoute: Resource is a route (in Go, the route's resource name, such
	// as an httpguard pattern "GET /orders/{id}").
	ModeRoute ResourceMode = 0
	// ModeAPI: Resource is the name of an API definition (an API group).
	ModeAPI ResourceMode = 1
)

// ParseStrategy says which request attribute a parameter item reads.
type ParseStrategy int32

// Values are Sentinel's (SentinelGatewayConstants.PARAM_PARSE_STRATEGY_*).
const (
	ParseClientIP ParseStrategy = 0
	ParseHost     ParseStrategy = 1
	ParseHeader   ParseStrategy = 2
	ParseURLParam ParseStrategy = 3
	ParseCookie   ParseStrategy = 4
)

// MatchStrategy says how a pattern matches a value or a path. Values are
// Sentinel's; Contains is for parameter items only.
type MatchStrategy int32

const (
	MatchExact    MatchStrategy = 0 // MatchExact: equal.
	MatchPrefix   MatchStrategy = 1 // MatchPrefix: starts with (paths: Ant patterns when they have wildcards).
	MatchRegex    MatchStrategy = 2 // MatchRegex: the whole value matches the regular expression.
	MatchContains MatchStrategy = 3 // MatchContains: contains (parameter items only).
)

// FlowRule is Sentinel's GatewayFlowRule. In Go, zero fields are zero
// (Grade 0 is QPS, as in runtime.FlowRule) except IntervalSec (see
// Normalize); ParseFlowRules gives fields a document leaves out Sentinel's
// defaults (grade 1 QPS, intervalSec 1, maxQueueingTimeoutMs 500).
type FlowRule struct {
	// Resource is the route or API name the rule limits (required).
	Resource string `json:"resource"`
	// ResourceMode says whether Resource is a route or an API name.
	ResourceMode ResourceMode `json:"resourceMode"`
	// Grade is QPS or concurrency.
	Grade runtime.FlowGrade `json:"grade"`
	// Count is the threshold per IntervalSec (per value with a ParamItem).
	Count float64 `json:"count"`
	// IntervalSec is the counting period (0 means 1).
	IntervalSec int `json:"intervalSec"`
	// ControlBehavior is reject (0) or rate limiter (2).
	ControlBehavior runtime.ControlBehavior `json:"controlBehavior"`
	// Burst is the extra calls allowed at once beyond Count.
	Burst int `json:"burst"`
	// MaxQueueingTimeoutMs is how long the rate limiter lets a request wait.
	MaxQueueingTimeoutMs int `json:"maxQueueingTimeoutMs"`
	// ParamItem, when set, limits per value of a request attribute.
	ParamItem *ParamItem `json:"paramItem,omitempty"`
}

// ParamItem is Sentinel's GatewayParamFlowItem.
type ParamItem struct {
	// ParseStrategy selects the request attribute.
	ParseStrategy ParseStrategy `json:"parseStrategy"`
	// FieldName names the header, URL parameter or cookie (required for
	// those strategies).
	FieldName string `json:"fieldName,omitempty"`
	// Pattern, when set, limits only the values it matches, each value on
	// its own; the others are not limited.
	Pattern string `json:"pattern,omitempty"`
	// MatchStrategy is how Pattern matches.
	MatchStrategy MatchStrategy `json:"matchStrategy"`
}

// Defaults Sentinel gives a gateway rule.
const (
	DefaultIntervalSec          = 1
	DefaultMaxQueueingTimeoutMs = 500
)

// Normalize reads IntervalSec 0 as 1, the shortest period.
func Normalize(r FlowRule) FlowRule {
	if r.IntervalSec == 0 {
		r.IntervalSec = DefaultIntervalSec
	}
	return r
}

// RuleError is one problem of one rule or API definition.
type RuleError struct {
	// Kind is "gw-flow" or "gw-api-group".
	Kind string
	// Index is the position in the list given.
	Index int
	// Name is the rule's resource or the definition's API name.
	Name string
	// Field names the field in error, in JSON spelling.
	Field string
	// Reason says what is wrong.
	Reason string
}

// Error reads like "gw-flow rule #2 (resource GET /x): intervalSec: -1 must be > 0".
func (e *RuleError) Error() string {
	what := "rule"
	if e.Kind == "gw-api-group" {
		what = "definition"
	}
	return fmt.Sprintf("%s %s #%d (%q): %s: %s", e.Kind, what, e.Index, e.Name, e.Field, e.Reason)
}

// jsonNames spells the fields rulecheck's shared checks report as
// Sentinel's JSON does.
var jsonNames = rulecheck.Names{Resource: "resource", Grade: "grade", Count: "count"}

// validateRule returns the problems of one rule (after Normalize).
func validateRule(i int, r FlowRule) []error {
	var errs []error
	fail := rulecheck.Report(func(field, reason string) {
		errs = append(errs, &RuleError{Kind: "gw-flow", Index: i, Name: r.Resource, Field: field, Reason: reason})
	})
	fail.Counted(jsonNames, r.Resource, int32(r.Grade), r.Count)
	if r.ResourceMode != ModeRoute && r.ResourceMode != ModeAPI {
		fail("resourceMode", fmt.Sprintf("%d is not 0 (route) or 1 (API name)", r.ResourceMode))
	}
	fail.Check("intervalSec", rulecheck.Positive(int64(r.IntervalSec)))
	fail.Check("controlBehavior", rulecheck.PerValueBehavior(int32(r.ControlBehavior), int32(r.Grade)))
	fail.Check("burst", rulecheck.NonNegative(int64(r.Burst)))
	fail.Check("maxQueueingTimeoutMs", rulecheck.QueueingMs(r.MaxQueueingTimeoutMs, runtime.MaxQueueingTime().Milliseconds()))
	if p := r.ParamItem; p != nil {
		switch p.ParseStrategy {
		case ParseClientIP, ParseHost:
		case ParseHeader, ParseURLParam, ParseCookie:
			if p.FieldName == "" {
				fail("paramItem.fieldName", "is required for a header, URL parameter or cookie")
			}
		default:
			fail("paramItem.parseStrategy", fmt.Sprintf("%d is not 0..4 (client IP, host, header, URL parameter, cookie)", p.ParseStrategy))
		}
		switch p.MatchStrategy {
		case MatchExact, MatchPrefix, MatchContains:
		case MatchRegex:
			if _, err := regexp.Compile(p.Pattern); err != nil {
				fail("paramItem.pattern", err.Error())
			}
		default:
			fail("paramItem.matchStrategy", fmt.Sprintf("%d is not 0..3 (exact, prefix, regex, contains)", p.MatchStrategy))
		}
	}
	return errs
}
