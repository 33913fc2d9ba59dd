package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Sentinel JSON rule types of this package, as the transport's gateway
// commands and Sentinel's data sources name them.
const (
	KindFlow     = "gw-flow"
	KindAPIGroup = "gw-api-group"
)

// jsonParamItem is ParamItem as Sentinel writes it: "index" is assigned by
// Sentinel at load and ignored here.
type jsonParamItem struct {
	ParamItem
	Index *int `json:"index,omitempty"`
}

type jsonFlowRule struct {
	FlowRule
	// Grade shadows FlowRule.Grade: Sentinel's numbers (1 QPS, 0 thread)
	// are not runtime.FlowGrade's (0 QPS, 1 concurrency).
	Grade     *int32         `json:"grade,omitempty"`
	ParamItem *jsonParamItem `json:"paramItem,omitempty"`
}

// ParseFlowRules reads a Sentinel JSON array of GatewayFlowRule objects
// (rule type gw-flow). Fields a rule leaves out take Sentinel's defaults:
// grade 1 (QPS), intervalSec 1, maxQueueingTimeoutMs 500. An unknown field
// is an error, not ignored: a misspelt field would otherwise silently
// change nothing. Errors name the document and the line of the rule; the
// rules are also validated as Load validates them.
func ParseFlowRules(name string, data []byte) ([]FlowRule, error) {
	out, _, err := ParseFlowRulesLines(name, data)
	return out, err
}

// ParseFlowRulesLines is ParseFlowRules also returning, beside each rule,
// the 1-based line its object starts on (package rules keeps them as the
// rules' positions).
func ParseFlowRulesLines(name string, data []byte) ([]FlowRule, []int, error) {
	var out []FlowRule
	var lines []int
	err := eachElement(name, data, func(i, line int, raw json.RawMessage) error {
		r := jsonFlowRule{FlowRule: FlowRule{
			Grade: runtime.FlowGradeQPS, IntervalSec: DefaultIntervalSec, MaxQueueingTimeoutMs: DefaultMaxQueueingTimeoutMs,
		}}
		if err := strictUnmarshal(raw, &r); err != nil {
			return fmt.Errorf("%s:%d: %s rule #%d: %v", name, line, KindFlow, i, err)
		}
		if r.ParamItem != nil {
			r.FlowRule.ParamItem = &r.ParamItem.ParamItem
		}
		if r.Grade != nil {
			g, ok := runtime.FlowGradeOfSentinel(int64(*r.Grade))
			if !ok {
				return fmt.Errorf("%s:%d: %s rule #%d (%q): grade: %d is not 0 (thread count) or 1 (QPS)", name, line, KindFlow, i, r.Resource, *r.Grade)
			}
			r.FlowRule.Grade = g
		}
		if errs := validateRule(i, r.FlowRule); len(errs) != 0 {
			return fmt.Errorf("%s:%d: %w", name, line, errors.Join(errs...))
		}
		out, lines = append(out, r.FlowRule), append(lines, line)
		return nil
	})
	return out, lines, err
}

// ParseAPIDefinitions reads a Sentinel JSON array of ApiDefinition objects
// (rule type gw-api-group) with path predicate items.
func ParseAPIDefinitions(name string, data []byte) ([]APIDefinition, error) {
	out, _, err := ParseAPIDefinitionsLines(name, data)
	return out, err
}

// ParseAPIDefinitionsLines is ParseAPIDefinitions also returning the line
// each definition starts on.
func ParseAPIDefinitionsLines(name string, data []byte) ([]APIDefinition, []int, error) {
	var out []APIDefinition
	var lines []int
	err := eachElement(name, data, func(i, line int, raw json.RawMessage) error {
		var a APIDefinition
		if err := strictUnmarshal(raw, &a); err != nil {
			return fmt.Errorf("%s:%d: %s definition #%d: %v", name, line, KindAPIGroup, i, err)
		}
		out, lines = append(out, a), append(lines, line)
		return nil
	})
	return out, lines, err
}

func strictUnmarshal(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// eachElement calls fn with each element of the JSON array in data, its
// index and the line it starts on; it joins every element's error, so one
// run reports all problems.
func eachElement(name string, data []byte, fn func(i, line int, raw json.RawMessage) error) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return fmt.Errorf("%s:%d: want a JSON array of rules", name, lineAt(data, dec.InputOffset()))
	}
	var errs []error
	for i := 0; dec.More(); i++ {
		var raw json.RawMessage
		start := dec.InputOffset()
		if err := dec.Decode(&raw); err != nil {
			return errors.Join(append(errs, fmt.Errorf("%s:%d: %v", name, lineAt(data, dec.InputOffset()), err))...)
		}
		// InputOffset before Decode is at the separator: skip to the value.
		for start < int64(len(data)) && bytes.IndexByte([]byte(" \t\r\n,"), data[start]) >= 0 {
			start++
		}
		line := lineAt(data, start)
		if err := fn(i, line, raw); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// lineAt is the 1-based line of byte offset off.
func lineAt(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return 1 + bytes.Count(data[:off], []byte("\n"))
}

// EncodeFlowRules writes rules as the Sentinel JSON array ParseFlowRules
// reads (rule type gw-flow), every field present with Sentinel's numbers,
// for a data source's write-back.
func EncodeFlowRules(rules []FlowRule) ([]byte, error) {
	if rules == nil {
		rules = []FlowRule{}
	}
	return json.MarshalIndent(rules, "", "  ")
}

// MarshalJSON writes r as Sentinel's GatewayFlowRule: the grade in
// Sentinel's numbers (1 QPS, 0 thread count), so json.Marshal(Rules()) is
// what a Java dashboard or ParseFlowRules reads.
func (r FlowRule) MarshalJSON() ([]byte, error) {
	type plain FlowRule // no methods: no recursion
	return json.Marshal(struct {
		plain
		Grade int32 `json:"grade"`
	}{plain(r), r.Grade.SentinelNumber()})
}

// EncodeAPIDefinitions writes apis as the Sentinel JSON array
// ParseAPIDefinitions reads (rule type gw-api-group).
func EncodeAPIDefinitions(apis []APIDefinition) ([]byte, error) {
	if apis == nil {
		apis = []APIDefinition{}
	}
	return json.MarshalIndent(apis, "", "  ")
}
