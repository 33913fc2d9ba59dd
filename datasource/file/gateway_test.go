package file_test

import (
	"path/filepath"
	"testing"

	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
	"github.com/sentinelgen/sentinelgen/gateway"
	sentinel "github.com/sentinelgen/sentinelgen/runtime"
)

func gatewayTOML(count string) string {
	return st.FlowTOML("gwfile.a", 5) + `
[[gatewayFlow]]
resource = "GET /gw"
count = ` + count + "\n"
}

// A watched rules file holding gateway rules puts them in force with the
// other kinds, and an edit replaces them: the gateway kinds travel like
// the others.
func TestWatchCarriesGatewayKinds(t *testing.T) {
	st.ResetRules(t)
	t.Cleanup(func() { _ = gateway.Load(nil, nil) })
	path := filepath.Join(t.TempDir(), "rules.toml")
	st.WriteFile(t, path, gatewayTOML("3"))
	startWatch(t, path)
	if got := gateway.Rules(); len(got) != 1 || got[0].Count != 3 || len(sentinel.FlowRules()) != 1 {
		t.Fatalf("at start: gateway %+v flow %+v", got, sentinel.FlowRules())
	}
	st.ReplaceFile(t, path, gatewayTOML("4"))
	st.WaitUntil(t, "the edit applies", func() bool {
		r := sentinel.GatewayParamFlowRules()
		return len(r) == 1 && r[0].Count == 4
	})
}
