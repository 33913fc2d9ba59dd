package runtime

import (
	"slices"
	"testing"
)

// TestParamKeysDeclared: the kinds WithParamKeys declares are read back as
// a copy, an empty list still declares (a method without parameters), and
// a resource declared without them reports none.
func TestParamKeysDeclared(t *testing.T) {
	r := NewResource("paramkeys.two", WithParamNames("sku", "req"), WithParamKeys(ParamKeyString, ParamNoKey))
	kinds, ok := r.ParamKeys()
	if !ok || !slices.Equal(kinds, []ParamKeyKind{ParamKeyString, ParamNoKey}) {
		t.Fatalf("ParamKeys = %v, %v", kinds, ok)
	}
	kinds[0] = ParamKeyBool
	if again, _ := r.ParamKeys(); again[0] != ParamKeyString {
		t.Error("ParamKeys returned the resource's own slice")
	}
	if kinds, ok := NewResource("paramkeys.none", WithParamKeys()).ParamKeys(); !ok || len(kinds) != 0 {
		t.Errorf("an empty declaration: ParamKeys = %v, %v; want declared and empty", kinds, ok)
	}
	if _, ok := NewResource("paramkeys.undeclared", WithParamNames("sku")).ParamKeys(); ok {
		t.Error("a resource declared without kinds reports some")
	}
	if got := ParamNoKey.String(); got != "cannot be a key" {
		t.Errorf("ParamNoKey.String() = %q", got)
	}
}
