package gen

import "testing"

func TestGroupImportsPutsTheStandardLibraryFirst(t *testing.T) {
	src := "package p\n\nimport (\n\t\"context\"\n\tfb \"example.com/x/fallbacks\"\n\t\"github.com/sentinelgen/sentinelgen/runtime\"\n\ttime2 \"time\"\n)\n\nvar _ = 1\n"
	want := "package p\n\nimport (\n\t\"context\"\n\ttime2 \"time\"\n\n\tfb \"example.com/x/fallbacks\"\n\t\"github.com/sentinelgen/sentinelgen/runtime\"\n)\n\nvar _ = 1\n"
	got, err := groupImports([]byte(src))
	if err != nil || string(got) != want {
		t.Fatalf("got %q, %v\nwant %q", got, err, want)
	}
	// Nothing to split: unchanged.
	single := "package p\n\nimport (\n\t\"context\"\n\t\"errors\"\n)\n"
	if got, _ := groupImports([]byte(single)); string(got) != single {
		t.Fatalf("got %q; want the input unchanged", got)
	}
}
