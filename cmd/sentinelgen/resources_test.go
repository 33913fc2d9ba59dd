package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/sentinelgen/sentinelgen/annotate"
)

var updateResources = flag.Bool("update", false, "rewrite testdata/resources/*.golden")

// resourcesGolden compares got with testdata/resources/name, or rewrites it
// with -update.
func resourcesGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join(repoRoot, "cmd", "sentinelgen", "testdata", "resources", name)
	if *updateResources {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run with -update to accept):\ngot:\n%s\nwant:\n%s", name, got, want)
	}
}

func TestResourcesOfTheExample(t *testing.T) {
	t.Chdir(filepath.Join(repoRoot, "examples", "orders"))

	code, table, stderr := invoke("resources")
	if code != exitOK {
		t.Fatalf("table: exit %d, stderr:\n%s", code, stderr)
	}
	resourcesGolden(t, "orders.txt", table)

	code, js, stderr := invoke("resources", "-json", "./...")
	if code != exitOK {
		t.Fatalf("-json: exit %d, stderr:\n%s", code, stderr)
	}
	resourcesGolden(t, "orders.json", js)
	var entries []annotate.CatalogEntry
	if err := json.Unmarshal([]byte(js), &entries); err != nil {
		t.Fatalf("-json output does not decode: %v", err)
	}

	out := filepath.Join(t.TempDir(), "catalog.json")
	code, stdout, stderr := invoke("resources", "-json", "-o", out)
	if code != exitOK || stdout != "" {
		t.Fatalf("-o: exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
	written, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if string(written) != js {
		t.Errorf("-o wrote\n%s\nstdout had\n%s", written, js)
	}
}

func TestResourcesExitCodes(t *testing.T) {
	lintCase(t, "directive")
	if code, _, stderr := invoke("resources"); code != exitProblems || stderr == "" {
		t.Errorf("package with a bad directive: exit %d, stderr %q; want %d and the diagnostic", code, stderr, exitProblems)
	}
	if code, _, _ := invoke("resources", "-o", filepath.Join(t.TempDir(), "no", "such", "dir", "f")); code != exitUsage {
		t.Errorf("unwritable -o: exit %d, want %d", code, exitUsage)
	}
	if code, _, _ := invoke("resources", "-bogus"); code != exitUsage {
		t.Errorf("bad flag: exit %d, want %d", code, exitUsage)
	}
}
