package rules

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/encoded")

// The golden TOML example and its Sentinel JSON twin are the same rules.
func TestGoldenTOMLEqualsSentinelJSON(t *testing.T) {
	native, err := Load("testdata/orders.toml")
	if err != nil {
		t.Fatal(err)
	}
	sentinel, err := LoadAll("testdata/orders-flow.json", "testdata/orders-degrade.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(native.Flow) != 6 || len(native.Degrade) != 3 {
		t.Fatalf("orders.toml has %d flow and %d degrade rules, want 6 and 3", len(native.Flow), len(native.Degrade))
	}
	if !native.Equal(sentinel) {
		for i := range native.Flow {
			if i < len(sentinel.Flow) && NormalizeFlow(native.Flow[i]) != NormalizeFlow(sentinel.Flow[i]) {
				t.Errorf("flow %d:\n toml %+v\n json %+v", i, native.Flow[i], sentinel.Flow[i])
			}
		}
		for i := range native.Degrade {
			if i < len(sentinel.Degrade) && NormalizeDegrade(native.Degrade[i]) != NormalizeDegrade(sentinel.Degrade[i]) {
				t.Errorf("degrade %d:\n toml %+v\n json %+v", i, native.Degrade[i], sentinel.Degrade[i])
			}
		}
		t.Fatal("orders.toml and its Sentinel JSON twin differ")
	}
	if len(native.Warnings) != 0 {
		t.Errorf("orders.toml warnings: %v", native.Warnings)
	}
	// The dashboard's bookkeeping fields in orders-flow.json are reported.
	if len(sentinel.Warnings) != 6 {
		t.Errorf("Sentinel JSON warnings = %v, want the 5 dashboard fields and sampleCount", warningTexts(sentinel))
	}
}

// Encoding is deterministic: the golden files are what Encode writes for
// orders.toml, byte for byte, and they read back as the same rules.
func TestEncodeGolden(t *testing.T) {
	s, err := Load("testdata/orders.toml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		format Format
		file   string
	}{{FormatTOML, "orders.toml"}, {FormatJSON, "orders.json"}} {
		got, err := Encode(s, c.format)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", "encoded", c.file)
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("Encode(%v) differs from %s (run go test -update to accept):\n%s", c.format, path, got)
		}
		back, err := Load(path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if !back.Equal(s) {
			t.Errorf("%s does not read back as orders.toml", path)
		}
	}
}

// families.toml and its Sentinel JSON twins (one kind per document, as a
// Java service keeps them) are the same rules, and encode deterministically.
func TestGoldenFamilies(t *testing.T) {
	native, err := Load("testdata/families.toml")
	if err != nil {
		t.Fatal(err)
	}
	sentinel, err := LoadAll("testdata/families-param-flow.json", "testdata/families-system.json", "testdata/families-authority.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(native.ParamFlow) != 2 || len(native.System) != 2 || len(native.Authority) != 1 || len(native.Flow) != 1 {
		t.Fatalf("families.toml: %+v", native)
	}
	sentinel.Flow = native.Flow // the flow rule is in orders-flow.json's format already
	if !native.Equal(sentinel) {
		t.Fatalf("families.toml and its Sentinel JSON twins differ:\n toml %+v\n json %+v", native, sentinel)
	}
	for _, c := range []struct {
		format Format
		file   string
	}{{FormatTOML, "families.toml"}, {FormatJSON, "families.json"}} {
		got, err := Encode(native, c.format)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", "encoded", c.file)
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("Encode(%v) differs from %s (run go test -update to accept):\n%s", c.format, path, got)
		}
		if back, err := Load(path); err != nil || !back.Equal(native) {
			t.Errorf("%s does not read back as families.toml: %v", path, err)
		}
	}
}
