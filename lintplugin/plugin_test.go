package lintplugin

import (
	"testing"

	"github.com/golangci/plugin-module-register/register"

	"github.com/sentinelgen/sentinelgen/annotate"
)

// TestRegistered checks what golangci-lint finds under the linter's name:
// the sentinelgen Analyzer, with type information requested, and that an
// unknown setting is refused.
func TestRegistered(t *testing.T) {
	newPlugin, err := register.GetPlugin(Name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(nil)
	if err != nil {
		t.Fatal(err)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	if len(as) != 1 || as[0] != annotate.Analyzer {
		t.Errorf("analyzers = %v, want annotate.Analyzer alone", as)
	}
	if m := p.GetLoadMode(); m != register.LoadModeTypesInfo {
		t.Errorf("load mode = %q, want %q", m, register.LoadModeTypesInfo)
	}
	if _, err := newPlugin(map[string]any{"colour": "red"}); err == nil {
		t.Error("an unknown setting was accepted")
	}
}
