package annotate_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/sentinelgen/sentinelgen/annotate"
	"github.com/sentinelgen/sentinelgen/gen"
)

// testdata is a module of its own (example.com/analyzertest) that
// replaces sentinelgen with this repository.
func testdata(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "analyzer"))
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
// method of a generic type stubbed (zero value *new(V)), two stubs for
// one directive with the one import they need, and
// no fix when the leading parameters differ too.
func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, testdata(t), annotate.Analyzer, "./fixes", "./noimport", "./imported/...", "./bare", "./generic", "./twostubs")
}

// TestGeneratedFile checks the comparison with sentinel_gen.go: an up to
// date file (with a test variant whose files declare names the generated
// code also uses), a stale one, a missing one and a left-over one. The
// generated files are written by the generator itself, in a copy of the
// testdata module, from an earlier state of each package's source (the
// directive before its edit, or before its removal), so that the test
// follows gen's output as it changes.
func TestGeneratedFile(t *testing.T) {
	dir := copyModule(t, testdata(t))
	earlier := map[string][2]string{
		"fresh":    {"", ""},
		"stale":    {"name=stale.fetch", "name=stale.get"},
		"leftover": {"// Get is no longer guarded.\n", "// Get is no longer guarded.\n//\n//sentinel:resource name=leftover.get blockHandler=getBlocked\n"},
	}
	for pkg, edit := range earlier {
		file := filepath.Join(dir, pkg, "svc.go")
		final := readFile(t, file)
		if !strings.Contains(final, edit[0]) {
			t.Fatalf("%s lacks %q", file, edit[0])
		}
		writeFile(t, file, strings.Replace(final, edit[0], edit[1], 1))
		pkgs, diags, err := annotate.Load(dir, []string{"./" + pkg}, annotate.Options{})
		if err != nil || len(diags) > 0 {
			t.Fatalf("load %s: %v %v", pkg, err, diags)
		}
		if _, err := gen.Sync(pkgs, gen.SyncOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(dir, pkg, annotate.GeneratedFileName)); err != nil {
			t.Fatalf("the generator wrote no file for %s: %v", pkg, err)
		}
		writeFile(t, file, final)
	}
	analysistest.Run(t, dir, annotate.Analyzer, "./fresh", "./stale", "./missing", "./leftover", "./policy")
}

// copyModule copies the testdata module to a temporary directory, with
// its replace directive made absolute.
func copyModule(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	root, err := filepath.Abs(filepath.Join(src, "..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if rel == "go.mod" {
			b = []byte(strings.Replace(string(b), "=> ../../../", "=> "+root, 1))
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func readFile(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t *testing.T, file, content string) {
	t.Helper()
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
