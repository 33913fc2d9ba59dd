package rules

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/sentinelgen/sentinelgen/gateway"
)

// The native format's tables of the gateway kinds. Their keys are
// Sentinel's JSON fields with Sentinel's numbers (grade 1 is QPS), as in
// gw-flow.json; a paramItem is a sub-table, an API's predicateItems an
// array of tables:
//
//	[[gatewayFlow]]
//	resource = "orders-api"
//	resourceMode = 1
//	count = 5
//	[gatewayFlow.paramItem]
//	parseStrategy = 2
//	fieldName = "X-Tenant"
//
//	[[apiGroup]]
//	apiName = "orders-api"
//	[[apiGroup.predicateItems]]
//	pattern = "/orders/**"
//	matchStrategy = 1
const (
	tomlGatewayFlow = "gatewayFlow"
	tomlAPIGroup    = "apiGroup"
)

// gatewayTableKind is the gateway kind of a native table, KindAuto for none.
func gatewayTableKind(table string) Kind {
	switch table {
	case tomlGatewayFlow:
		return KindGatewayFlow
	case tomlAPIGroup:
		return KindAPIGroup
	}
	return KindAuto
}

// parseGatewayTOML reads one gateway table array through package gateway's
// JSON parser, so both formats take the same fields, defaults and checks.
// Each table becomes one element of a JSON array placed on the table's own
// line, so the parser's errors name the file, the table's line and its
// index.
func parseGatewayTOML(name string, k Kind, e entry, raw any) (Set, error) {
	tables, ok := raw.([]map[string]any)
	if !ok || e.val.kind != valArray {
		return Set{}, &Error{Pos: e.pos, Field: e.key, Msg: fmt.Sprintf("must be an array of tables: write [[%s]] above each one", e.key)}
	}
	var b bytes.Buffer
	b.WriteByte('[')
	line := 1
	for i, t := range tables {
		if i < len(e.val.items) {
			for ; line < e.val.items[i].pos.Line; line++ {
				b.WriteByte('\n')
			}
		}
		if i > 0 {
			b.WriteByte(',')
		}
		data, err := json.Marshal(t)
		if err != nil {
			return Set{}, &Error{Pos: e.pos, Field: e.key, Msg: err.Error()}
		}
		b.Write(data)
	}
	b.WriteByte(']')
	s := Set{HasGateway: true}
	var lines []int
	var err error
	if k == KindGatewayFlow {
		s.GatewayFlow, lines, err = gateway.ParseFlowRulesLines(name, b.Bytes())
	} else {
		s.APIGroups, lines, err = gateway.ParseAPIDefinitionsLines(name, b.Bytes())
	}
	if err != nil {
		return Set{}, err
	}
	at := make([]Position, len(lines))
	for i, l := range lines {
		at[i] = Position{File: name, Line: l}
	}
	if k == KindGatewayFlow {
		s.GatewayFlowAt = at
	} else {
		s.APIGroupsAt = at
	}
	return s, nil
}
