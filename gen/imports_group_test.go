package gen

import "testing"

func TestGroupImportsPutsTheStandardLibraryFirst(t *testing.T) {
	// As jennifer renders without formatting: no indentation.
	src := "package p\n\nimport (\n\"context\"\nfb \"example.com/x/fallbacks\"\n\"github.com/sentinelgen/sentinelgen/runtime\"\ntime2 \"time\"\n)\n\nvar _ = 1\n"
	want := "package p\n\nimport (\n\t\"context\"\n\ttime2 \"time\"\n\n\tfb \"example.com/x/fallbacks\"\n\t\"github.com/sentinelgen/sentinelgen/runtime\"\n)\n\nvar _ = 1\n"
	got, err := formatGrouped([]byte(src))
	if err != nil || string(got) != want {
		t.Fatalf("got %q, %v\nwant %q", got, err, want)
	}
	// Nothing to split: only formatted.
	single := "package p\n\nimport (\n\"context\"\n\"errors\"\n)\n"
	wantSingle := "package p\n\nimport (\n\t\"context\"\n\t\"errors\"\n)\n"
	if got, err := formatGrouped([]byte(single)); err != nil || string(got) != wantSingle {
		t.Fatalf("got %q, %v; want %q", got, err, wantSingle)
	}
}
