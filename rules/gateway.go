package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/sentinelgen/sentinelgen/gateway"
)

// The gateway's rule kinds, Sentinel's rule types gw-flow
// (GatewayFlowRule) and gw-api-group (ApiDefinition). Package gateway reads
// and enforces them; this package carries them in a Set so that a rules
// file or a data source key holding them is applied like the other kinds.
// Sentinel JSON only: a document holds one of them as an array (its kind
// from Document.Kind, its name, e.g. "gw-flow.json", or its fields), or
// both beside the other kinds in the object form {"flow": [...],
// "gw-flow": [...], "gw-api-group": [...]}.
//
// The import goes one way: rules imports gateway (which imports runtime
// only), gateway never imports rules.
const (
	KindGatewayFlow Kind = gateway.KindFlow
	KindAPIGroup    Kind = gateway.KindAPIGroup
)

// gatewayKinds lists the gateway kinds in the order Set holds them.
var gatewayKinds = []Kind{KindGatewayFlow, KindAPIGroup}

// gatewayKindFromName finds a gateway kind the last element of name
// mentions: "gw-flow", "gateway-flow" (any of - _ or none) for gw-flow,
// "gw-api", "api-group", "api-definition" for gw-api-group.
func gatewayKindFromName(name string) Kind {
	if i := strings.LastIndexAny(name, `/\:`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.NewReplacer("-", "", "_", "", ".", "").Replace(strings.ToLower(name))
	var found []Kind
	for _, w := range []string{"gwflow", "gatewayflow"} {
		if strings.Contains(name, w) {
			found = append(found, KindGatewayFlow)
		}
	}
	for _, w := range []string{"gwapi", "apigroup", "apidefinition", "gatewayapi"} {
		if strings.Contains(name, w) {
			found = append(found, KindAPIGroup)
		}
	}
	return onlyKind(found)
}

// Keys only a gateway kind's objects have, for a document whose name
// tells nothing: other kinds' rules never carry them.
var (
	gatewayFlowKeys = []string{"resourceMode", "paramItem", "intervalSec", "burst", "maxQueueingTimeoutMs"}
	apiGroupKeys    = []string{"apiName", "predicateItems"}
)

// gatewayKindOf decides whether a JSON document is of a gateway kind: as
// given, else by name, else by the keys of its objects (every object with
// any key of one gateway kind's). KindAuto when it is not.
func gatewayKindOf(name string, kind Kind, data []byte) Kind {
	if slices.Contains(gatewayKinds, kind) {
		return kind
	}
	if kind != KindAuto {
		return KindAuto
	}
	if k := gatewayKindFromName(name); k != KindAuto {
		return k
	}
	var objs []map[string]json.RawMessage
	if json.Unmarshal(data, &objs) != nil || len(objs) == 0 {
		return KindAuto
	}
	var found []Kind
	for _, o := range objs {
		has := func(keys []string) bool {
			return slices.ContainsFunc(keys, func(k string) bool { _, ok := o[k]; return ok })
		}
		switch {
		case has(apiGroupKeys):
			found = append(found, KindAPIGroup)
		case has(gatewayFlowKeys):
			found = append(found, KindGatewayFlow)
		default:
			return KindAuto
		}
	}
	return onlyKind(found)
}

// parseGatewayJSON reads an array of one gateway kind with package
// gateway's parser (unknown fields are errors, Sentinel's defaults), each
// rule's position its file and line.
func parseGatewayJSON(name string, data []byte, k Kind) (Set, error) {
	s := Set{HasGateway: true}
	var lines []int
	var err error
	if k == KindGatewayFlow {
		s.GatewayFlow, lines, err = gateway.ParseFlowRulesLines(name, data)
	} else {
		s.APIGroups, lines, err = gateway.ParseAPIDefinitionsLines(name, data)
	}
	if err != nil {
		return Set{}, err
	}
	at := make([]Position, len(lines))
	for i, l := range lines {
		at[i] = Position{File: name, Line: l, Path: fmt.Sprintf("[%d]", i)}
	}
	if k == KindGatewayFlow {
		s.GatewayFlowAt = at
	} else {
		s.APIGroupsAt = at
	}
	return s, nil
}

// splitGatewayObject takes the gateway kinds out of a JSON object form:
// it returns them parsed, and data with their values replaced by null (so
// the other kinds are read from it with their lines unchanged). ok is false when
// data is not an object or holds no gateway key.
func splitGatewayObject(name string, data []byte) (gw Set, rest []byte, ok bool, err error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, terr := dec.Token(); terr != nil || tok != json.Delim('{') {
		return Set{}, data, false, nil
	}
	rest = slices.Clone(data)
	var errs []error
	for dec.More() {
		tok, terr := dec.Token()
		if terr != nil {
			return Set{}, data, false, nil // the object reader reports it
		}
		key, _ := tok.(string)
		start := dec.InputOffset()
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			return Set{}, data, false, nil
		}
		end := dec.InputOffset()
		seg := data[start:end] // ": [...]": from the key's end to the value's
		start += int64(len(seg) - len(bytes.TrimLeft(seg, " \t\r\n:")))
		k := Kind(key)
		if !slices.Contains(gatewayKinds, k) {
			continue
		}
		ok = true
		// Keep the value at its offset, so lines in errors and positions
		// are the document's: blank everything before it but newlines.
		padded := bytes.Map(func(r rune) rune {
			if r == '\n' {
				return r
			}
			return ' '
		}, data[:start])
		part, perr := parseGatewayJSON(name, append(padded, data[start:end]...), k)
		if perr != nil {
			errs = append(errs, perr)
			continue
		}
		gw = gw.Merge(part)
		// null in place of the value, spaces after it, newlines kept.
		for i := start; i < end; i++ {
			if rest[i] != '\n' {
				rest[i] = ' '
			}
		}
		copy(rest[start:], "null")
	}
	return gw, rest, ok, errors.Join(errs...)
}

// validateGateway is what package gateway says about s's gateway kinds,
// each problem at its rule's position.
func validateGateway(s Set) []error {
	if !s.HasGateway && len(s.GatewayFlow)+len(s.APIGroups) == 0 {
		return nil
	}
	var out []error
	for _, e := range unjoin(gateway.Validate(s.GatewayFlow, s.APIGroups)) {
		var re *gateway.RuleError
		if !errors.As(e, &re) {
			out = append(out, e)
			continue
		}
		at, k := s.GatewayFlowAt, KindGatewayFlow
		if re.Kind == gateway.KindAPIGroup {
			at, k = s.APIGroupsAt, KindAPIGroup
		}
		pos := fieldPosition(positionAt(at, re.Index, string(k)), re.Field)
		out = append(out, &Error{Pos: pos, Field: re.Field, Msg: re.Reason})
	}
	return out
}

// unjoin flattens a joined error into its parts.
func unjoin(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, unjoin(e)...)
		}
		return out
	}
	return []error{err}
}

// equalGateway compares the gateway kinds of s and o as package gateway
// enforces them (IntervalSec 0 is 1). HasGateway is not compared: it says
// what a document stated, not what is in force.
func equalGateway(s, o Set) bool {
	return slices.EqualFunc(s.GatewayFlow, o.GatewayFlow, func(a, b gateway.FlowRule) bool {
		a, b = gateway.Normalize(a), gateway.Normalize(b)
		pa, pb := a.ParamItem, b.ParamItem
		a.ParamItem, b.ParamItem = nil, nil
		return a == b && (pa == nil) == (pb == nil) && (pa == nil || *pa == *pb)
	}) && slices.EqualFunc(s.APIGroups, o.APIGroups, func(a, b gateway.APIDefinition) bool {
		return a.Name == b.Name && slices.Equal(a.Predicates, b.Predicates)
	})
}

// paramOnGateway reports s's param-flow rules on a resource a gateway rule
// of gw names, each at its line: the gateway passes its own arguments to
// its resources, which a user's rule would misread (gateway.Load refuses
// the same).
func paramOnGateway(s Set, gw []gateway.FlowRule) error {
	routes := map[string]bool{}
	for _, r := range gw {
		routes[r.Resource] = true
	}
	var errs []error
	for i, r := range s.ParamFlow {
		if routes[r.Resource] {
			errs = append(errs, &Error{Pos: fieldPosition(positionAt(s.ParamFlowAt, i, tomlTable(KindParamFlow)), "resource"), Field: "resource",
				Msg: fmt.Sprintf("%q is a gateway resource (a gw-flow rule names it); it takes gateway rules only", r.Resource)})
		}
	}
	return errors.Join(errs...)
}

// applyWithGateway is Apply for a set that carries the gateway kinds: the
// runtime's kinds and the gateway's go in force together or not at all.
// A user's hot-parameter rule on a gateway resource, which gateway.Load
// refuses, is found before anything is loaded; should gateway.Load still
// fail (a concurrent load), the runtime's kinds are put back as they were.
func applyWithGateway(s Set) error {
	if err := paramOnGateway(s, s.GatewayFlow); err != nil {
		return err
	}
	prev := Current()
	if err := loadRuntime(s); err != nil {
		return err
	}
	if err := gateway.Load(s.GatewayFlow, s.APIGroups); err != nil {
		if rerr := loadRuntime(prev); rerr != nil {
			return errors.Join(err, fmt.Errorf("rules: restoring the rules in force: %w", rerr))
		}
		return err
	}
	return nil
}
