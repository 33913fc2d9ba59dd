package analyzer_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/sentinelgen/sentinelgen/analyzer"
)

// testdata is a module of its own (example.com/analyzertest) that
// replaces sentinelgen with this repository.
func testdata(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestFixes checks each kind of suggested fix against the .golden file
// beside the source: the misspelt name replaced (bare and quoted), the
// missing handler stubbed after the annotated method or function (with
// the runtime import added when the file lacks it), the signature
// rewritten when only the trailing parameter or the results differ, a
// handler of another package renamed, a defaultFallback stubbed, a
// method of a generic type stubbed (zero value *new(V)), and
// no fix when the leading parameters differ too.
func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata(t), analyzer.Analyzer, "./fixes", "./noimport", "./imported/...", "./bare", "./generic")
}

// TestGeneratedFile checks the comparison with sentinel_gen.go: an up to
// date file (with a test variant whose files declare names the generated
// code also uses), a stale one, a missing one and a left-over one.
func TestGeneratedFile(t *testing.T) {
	analysistest.Run(t, testdata(t), analyzer.Analyzer, "./fresh", "./stale", "./missing", "./leftover")
}
