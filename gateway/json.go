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
	ParamItem *jsonParamItem `json:"paramItem,omitempty"`
}

// ParseFlowRules reads a Sentinel JSON array of GatewayFlowRule objects
// (rule type gw-flow). Fields a rule leaves out take Sentinel's defaults:
// grade 1 (QPS), intervalSec 1, maxQueueingTimeoutMs 500. An unknown field
// is an error, not ignored: a misspelt field would otherwise silently
// change nothing. Errors name the document and the line of the rule; the
// rules are also validated as Load validates them.
func ParseFlowRules(name string, data []byte) ([]FlowRule, error) {
	var out []FlowRule
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
		if errs := validateRule(i, r.FlowRule); len(errs) != 0 {
			return fmt.Errorf("%s:%d: %w", name, line, errors.Join(errs...))
		}
		out = append(out, r.FlowRule)
		return nil
	})
	return out, err
}

// ParseAPIDefinitions reads a Sentinel JSON array of ApiDefinition objects
// (rule type gw-api-group) with path predicate items.
func ParseAPIDefinitions(name string, data []byte) ([]APIDefinition, error) {
	var out []APIDefinition
	err := eachElement(name, data, func(i, line int, raw json.RawMessage) error {
		var a APIDefinition
		if err := strictUnmarshal(raw, &a); err != nil {
			return fmt.Errorf("%s:%d: %s definition #%d: %v", name, line, KindAPIGroup, i, err)
		}
		out = append(out, a)
		return nil
	})
	return out, err
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
