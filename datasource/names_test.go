package datasource

import (
	"testing"

	"github.com/sentinelgen/sentinelgen/rules"
)

func TestDocumentNames(t *testing.T) {
	want := map[rules.Kind]string{
		rules.KindFlow: "orders-flow-rules", rules.KindDegrade: "orders-degrade-rules",
		rules.KindParamFlow: "orders-param-rules", rules.KindSystem: "orders-system-rules",
		rules.KindAuthority: "orders-authority-rules", rules.KindGatewayFlow: "orders-gw-flow-rules",
		rules.KindAPIGroup: "orders-gw-api-group-rules",
	}
	if len(DocumentKinds()) != len(want) {
		t.Fatalf("DocumentKinds() = %v, want the %d kinds with names", DocumentKinds(), len(want))
	}
	for _, k := range DocumentKinds() {
		name := DocumentName("orders", k)
		if name != want[k] {
			t.Errorf("DocumentName(orders, %s) = %q, want %q", k, name, want[k])
		}
		if got, ok := DocumentKind(name); !ok || got != k {
			t.Errorf("DocumentKind(%q) = %q, %v; want %q", name, got, ok, k)
		}
	}
	if got := DocumentName("orders", rules.KindAuto); got != "" {
		t.Errorf("DocumentName of no kind = %q, want empty", got)
	}
	if got, ok := DocumentKind("rules.json"); ok {
		t.Errorf("DocumentKind(rules.json) = %q, true; want false", got)
	}
}
