package rules

import (
	"os"
	"strings"
	"testing"
)

// Deeply nested TOML is refused before BurntSushi/toml decodes it: its time
// grows with the square of the nesting, so a small document of nested
// inline tables could take seconds. The error names the line where the bound is
// crossed.
func TestTOMLNestingIsRefusedBeforeDecoding(t *testing.T) {
	deep := "[[flow]]\nresource = 'a'\ncount = 1\nx = " + strings.Repeat("{b = ", 2000) + "1" + strings.Repeat("}", 2000) + "\n"
	_, err := parseText("deep.toml", deep)
	checkTexts(t, "nested inline tables", errorTexts(err), []string{
		"deep.toml:4: TOML nests arrays and inline tables more than 32 levels deep; a rule document needs 3 (refused before decoding)",
	})
	arrays := "\n\nx = " + strings.Repeat("[", 33) + strings.Repeat("]", 33) + "\n"
	_, err = parseText("arrays.toml", arrays)
	checkTexts(t, "nested arrays", errorTexts(err), []string{
		"arrays.toml:3: TOML nests arrays and inline tables more than 32 levels deep; a rule document needs 3 (refused before decoding)",
	})
	dotted := strings.Repeat("a.", 2000) + "a = 1\n"
	_, err = parseText("dotted.toml", dotted)
	checkTexts(t, "dotted key", errorTexts(err), []string{
		"dotted.toml:1: TOML dotted key has more than 32 parts; a rule document needs 2 (refused before decoding)",
	})
}

// Brackets and dots inside strings and comments are not nesting, and line
// numbers after multi-line strings stay right.
func TestTOMLDepthScanSkipsStringsAndComments(t *testing.T) {
	many := strings.Repeat("{[.", 100)
	text := "# " + many + "\n" +
		"[[flow]]\n" +
		"resource = \"" + many + "\\\"" + many + "\"\n" +
		"refResource = '" + many + "'\n" +
		"count = 1\n" +
		"[[flow]]\n" +
		"resource = \"\"\"\n" + many + "\n\\\"\"\"" + many + "\"\"\"\"\n" +
		"count = 2\n" +
		"[[flow]]\n" +
		"resource = '''" + many + "\n" + many + "''''\n" +
		"count = 3\n" +
		"[[degrade]]\n" +
		"resource = 'd'\ntimeWindow = 1\ncount = 0.5\n"
	s, err := parseText("strings.toml", text)
	// refResource on a direct rule is refused by validation, at its line:
	// the scan let the document through and kept the line count.
	checkTexts(t, "errors", errorTexts(err), []string{
		`strings.toml:4: refResource: must be empty for strategy "direct"`,
	})
	if err == nil {
		t.Fatalf("parsed %+v", s)
	}
	s = mustParseText(t, "strings.toml", strings.Replace(text, "refResource = '"+many+"'\n", "\n", 1))
	want := []int{2, 6, 11}
	for i, at := range s.FlowAt {
		if at.Line != want[i] {
			t.Errorf("flow[%d] at line %d, want %d", i, at.Line, want[i])
		}
	}
	if len(s.DegradeAt) != 1 || s.DegradeAt[0].Line != 15 {
		t.Errorf("degrade at %v, want line 15", s.DegradeAt)
	}
}

// BenchmarkParseDeepTOML parses the 12 KB document of 2,000 nested inline
// tables that BurntSushi/toml needs seconds for.
func BenchmarkParseDeepTOML(b *testing.B) {
	deep := []byte("x = " + strings.Repeat("{b = ", 2000) + "1" + strings.Repeat("}", 2000) + "\n")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(Document{Name: "deep.toml", Data: deep}); err == nil {
			b.Fatal("deep document accepted")
		}
	}
}

// BenchmarkCheckTOMLDepth is the pre-scan's share of parsing an ordinary
// rule file (BenchmarkParseTOML parses the same file).
func BenchmarkCheckTOMLDepth(b *testing.B) {
	data, err := os.ReadFile("testdata/orders.toml")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := checkTOMLDepth("orders.toml", data); err != nil {
			b.Fatal(err)
		}
	}
}
