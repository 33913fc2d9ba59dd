package rules

import "testing"

func TestInferFormat(t *testing.T) {
	cases := []struct {
		name string
		doc  Document
		want Format
	}{
		{"explicit wins over name", Document{Name: "a.json", Data: []byte("[[flow]]"), Format: FormatTOML}, FormatTOML},
		{"toml extension", Document{Name: "rules.toml", Data: []byte(`[{"resource":"a"}]`)}, FormatTOML},
		{"json extension any case", Document{Name: "RULES.JSON", Data: []byte("[[flow]]")}, FormatJSON},
		{"object content", Document{Name: "nacos:orders", Data: []byte(` {"flow":[]}`)}, FormatJSON},
		{"array of objects", Document{Name: "x", Data: []byte("\n[\n  {\"resource\":\"a\"}]")}, FormatJSON},
		{"empty array", Document{Name: "x", Data: []byte("[ ]")}, FormatJSON},
		{"array of tables header", Document{Name: "x", Data: []byte("[[flow]]\nresource='a'")}, FormatTOML},
		{"table header", Document{Name: "x", Data: []byte("[ flow ]")}, FormatTOML},
		{"comment first", Document{Name: "x", Data: []byte("# rules\n[[flow]]")}, FormatTOML},
		{"byte order mark then json", Document{Name: "x", Data: []byte("\ufeff[]")}, FormatJSON},
		{"empty", Document{Name: "x"}, FormatTOML},
	}
	for _, c := range cases {
		if got := inferFormat(c.doc); got != c.want {
			t.Errorf("%s: inferFormat = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestKindFromName(t *testing.T) {
	cases := map[string]Kind{
		"orders-flow.json":                        KindFlow,
		"/etc/sentinel/orders-degrade-rules.json": KindDegrade,
		"etcd:/sentinel/orders/flow":              KindFlow,
		"nacos:orders-FLOW-rules":                 KindFlow,
		`C:\rules\degrade.json`:                   KindDegrade,
		"/flow/rules.json":                        KindAuto, // only the last element counts
		"flow-and-degrade.json":                   KindAuto, // both: decided by the content
		"rules.json":                              KindAuto,
	}
	for name, want := range cases {
		if got := kindFromName(name); got != want {
			t.Errorf("kindFromName(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestFormatString(t *testing.T) {
	for f, want := range map[Format]string{FormatAuto: "auto", FormatTOML: "toml", FormatJSON: "json", Format(9): "Format(9)"} {
		if got := f.String(); got != want {
			t.Errorf("Format(%d).String() = %q, want %q", int(f), got, want)
		}
	}
}

func TestParseUnknownFormat(t *testing.T) {
	_, err := Parse(Document{Name: "x", Format: Format(7)})
	if err == nil || err.Error() != "x: unknown format Format(7)" {
		t.Fatalf("err = %v", err)
	}
}
