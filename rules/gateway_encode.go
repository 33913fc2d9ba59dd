package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"github.com/BurntSushi/toml"
	"github.com/sentinelgen/sentinelgen/gateway"
)

// encodeWithGateway is Encode for a set holding gateway kinds. In JSON a
// set of one gateway kind alone is its Sentinel array; otherwise every kind
// goes in the object form under its name ("gw-flow", "gw-api-group"). In
// TOML the other kinds are written as Encode writes them, followed by
// [[gatewayFlow]] and [[apiGroup]] tables holding Sentinel's fields and
// numbers.
func encodeWithGateway(s Set, f Format) ([]byte, error) {
	rest := s
	rest.GatewayFlow, rest.APIGroups, rest.GatewayFlowAt, rest.APIGroupsAt, rest.HasGateway = nil, nil, nil, nil, false
	flow, err := gateway.EncodeFlowRules(s.GatewayFlow)
	if err != nil {
		return nil, err
	}
	apis, err := gateway.EncodeAPIDefinitions(s.APIGroups)
	if err != nil {
		return nil, err
	}
	switch f {
	case FormatAuto, FormatTOML:
		return encodeGatewayTOML(encodeTOML(rest), flow, apis, s)
	case FormatJSON:
	default:
		return nil, fmt.Errorf("rules: cannot encode format %v", f)
	}
	if rest.IsEmpty() && (len(s.GatewayFlow) == 0 || len(s.APIGroups) == 0) {
		if len(s.GatewayFlow) != 0 {
			return append(flow, '\n'), nil
		}
		return append(apis, '\n'), nil
	}
	obj := map[string]json.RawMessage{}
	if !rest.IsEmpty() {
		data, err := encodeJSON(rest)
		if err != nil {
			return nil, err
		}
		if bytes.HasPrefix(bytes.TrimSpace(data), []byte("[")) { // one kind: name it
			obj[string(onlyKindOf(rest))] = data
		} else if err := json.Unmarshal(data, &obj); err != nil {
			return nil, err
		}
	}
	if len(s.GatewayFlow) != 0 {
		obj[string(KindGatewayFlow)] = flow
	}
	if len(s.APIGroups) != 0 {
		obj[string(KindAPIGroup)] = apis
	}
	out, err := json.MarshalIndent(obj, "", "  ")
	return append(out, '\n'), err
}

// onlyKindOf is the one kind of the runtime's a non-empty set holds.
func onlyKindOf(s Set) Kind {
	for _, k := range allKinds {
		if !s.Only(k).IsEmpty() {
			return k
		}
	}
	return KindFlow
}

// encodeGatewayTOML appends the gateway kinds, given as Sentinel JSON
// arrays, to the native document head as [[gatewayFlow]] and [[apiGroup]]
// tables.
func encodeGatewayTOML(head, flow, apis []byte, s Set) ([]byte, error) {
	doc := map[string]any{}
	for _, part := range []struct {
		table string
		data  []byte
		n     int
	}{{tomlGatewayFlow, flow, len(s.GatewayFlow)}, {tomlAPIGroup, apis, len(s.APIGroups)}} {
		if part.n == 0 {
			continue
		}
		var v []any
		if err := json.Unmarshal(part.data, &v); err != nil {
			return nil, err
		}
		doc[part.table] = integers(v, "")
	}
	var b bytes.Buffer
	b.Write(head)
	if b.Len() > 0 {
		b.WriteByte('\n')
	}
	if err := toml.NewEncoder(&b).Encode(doc); err != nil {
		return nil, fmt.Errorf("rules: encoding gateway rules: %w", err)
	}
	return b.Bytes(), nil
}

// integers turns JSON's float64 numbers into int64 where the field is a
// whole number in Sentinel (all but count), so TOML writes 1, not 1.0.
func integers(v any, key string) any {
	switch t := v.(type) {
	case []any:
		for i := range t {
			t[i] = integers(t[i], key)
		}
	case map[string]any:
		for k, x := range t {
			t[k] = integers(x, k)
		}
	case float64:
		if key != "count" && t == math.Trunc(t) && math.Abs(t) < 1<<53 {
			return int64(t)
		}
	}
	return v
}
