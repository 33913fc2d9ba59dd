package testscript

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// tree is the fake repository: a main module with a runtime package, two
// nested modules of which one fails, and modules the script must not test.
var tree = map[string]string{
	"scripts/servers.sh":           "#!/usr/bin/env bash\necho servers-stub-ran\n",
	"go.mod":                       "module example.com/fake\n\ngo 1.26\n",
	"runtime/r.go":                 "package runtime\n\n// One is one.\nfunc One() int { return 1 }\n",
	"runtime/r_test.go":            "package runtime\n\nimport \"testing\"\n\nfunc TestOne(t *testing.T) {\n\tif One() != 1 {\n\t\tt.Fatal(\"no\")\n\t}\n}\n",
	"a/go.mod":                     "module example.com/fake/a\n\ngo 1.26\n",
	"a/a_test.go":                  "package a\n\nimport \"testing\"\n\nfunc TestFails(t *testing.T) { t.Fatal(\"module a fails\") }\n",
	"b/nested/go.mod":              "module example.com/fake/b/nested\n\ngo 1.26\n",
	"b/nested/b_test.go":           "package nested\n\nimport \"testing\"\n\nfunc TestPasses(t *testing.T) {}\n",
	"testdata/golden/go.mod":       "module example.com/golden\n\ngo 1.26\n",
	"testdata/golden/g_test.go":    "package golden\n\nimport \"testing\"\n\nfunc TestNo(t *testing.T) { t.Fatal(\"testdata was tested\") }\n",
	"lint/testdata/go.mod":         "module example.com/linttestdata\n\ngo 1.26\n",
	"vendor/x/go.mod":              "module example.com/vendored\n\ngo 1.26\n",
	"third_party/y/go.mod":         "module example.com/thirdparty\n\ngo 1.26\n",
	".hidden/go.mod":               "module example.com/hidden\n\ngo 1.26\n",
	"_skipped/go.mod":              "module example.com/skipped\n\ngo 1.26\n",
	"a/testdata/broken/go.mod":     "module example.com/broken\n",
	"b/nested/vendor/z/go.mod":     "module example.com/z\n",
	"runtime/testdata/placeholder": "",
}

func TestScript(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test in four modules")
	}
	script, err := os.ReadFile("../../scripts/test.sh")
	if err != nil {
		t.Fatal(err)
	}
	report, err := os.ReadFile("../../scripts/testreport/main.go")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	files := map[string]string{"scripts/test.sh": string(script), "scripts/testreport/main.go": string(report)}
	for name, text := range tree {
		files[name] = text
	}
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}

	cmd := exec.Command(filepath.Join(root, "scripts", "test.sh"), "-count=1")
	cmd.Dir = t.TempDir() // the script finds the repository from its own path
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	text := string(out)
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("exit: %v, want status 1\n%s", err, text)
	}

	lines := strings.Split(strings.TrimSpace(text), "\n")
	if last := lines[len(lines)-1]; last != "modules: 2 passed, 1 failed" {
		t.Errorf("last line %q, want %q\n%s", last, "modules: 2 passed, 1 failed", text)
	}
	for _, want := range []string{
		"servers-stub-ran",
		"=== module . (example.com/fake)",
		"=== module ./a (example.com/fake/a)",
		"=== module ./b/nested (example.com/fake/b/nested)",
		"--- ok   .: go test -race -count=1 ./...",
		"--- ok   .: go test -race -tags sentinel_nolinkname -count=1 ./runtime/...",
		"--- ok   .: GOARCH=386 go test -count=1 ./runtime/...",
		"module a fails", // the failing test's output is shown
		"--- ok   ./b/nested: go test -race -count=1 ./...",
		"FAIL ./a: go test -race -count=1 ./...",
		"failing tests and packages:\n  example.com/fake/a: TestFails\n", // the summary names the test
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q\n%s", want, text)
		}
	}
	// The module that fails is tested before the one that passes, which is
	// still tested: one failure does not hide the rest.
	if strings.Index(text, "=== module ./a") > strings.Index(text, "=== module ./b/nested") {
		t.Errorf("modules not in path order\n%s", text)
	}
	for _, never := range []string{"golden", "linttestdata", "vendored", "thirdparty", "hidden", "skipped", "broken", "example.com/z", "testdata was tested"} {
		if strings.Contains(text, never) {
			t.Errorf("output mentions %q, which must not be tested\n%s", never, text)
		}
	}
	_, summary, _ := strings.Cut(text, "=== summary")
	if strings.Count(summary, "\nFAIL ") != 1 {
		t.Errorf("want exactly one failure in the summary\n%s", text)
	}
	if strings.Contains(text, "testreport does not build") {
		t.Errorf("the script fell back to plain go test output\n%s", text)
	}
}
