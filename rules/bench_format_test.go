package rules

import (
	"os"
	"testing"
)

func benchmarkParse(b *testing.B, files ...string) {
	var docs []Document
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, Document{Name: f, Data: data})
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range docs {
			if _, err := Parse(d); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// Parsing is done once per rule change, not per call; these keep an eye on
// it staying cheap enough for large rule files pushed often.
func BenchmarkParseTOML(b *testing.B) { benchmarkParse(b, "testdata/orders.toml") }

func BenchmarkParseSentinelJSON(b *testing.B) {
	benchmarkParse(b, "testdata/orders-flow.json", "testdata/orders-degrade.json")
}
