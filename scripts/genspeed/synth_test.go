package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// repoRoot is the repository holding this package (two levels up).
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// TestSynthModuleBuilds writes a small module and compiles it: the
// templates must produce valid Go that uses the real runtime package.
func TestSynthModuleBuilds(t *testing.T) {
	dir := t.TempDir()
	snapshot, err := snapshotRuntime(repoRoot(t), filepath.Join(t.TempDir(), "sentinelgen"))
	if err != nil {
		t.Fatal(err)
	}
	m := synthModule{Path: "example.com/genspeed", Packages: 4, Methods: 3, Repo: snapshot}
	if err := m.write(dir); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "vet", "./...")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet on the synthetic module: %v\n%s", err, out)
	}

	// Package 3 sits under package 1 in the tree and must import it.
	src, err := os.ReadFile(filepath.Join(dir, "svc", "p003", "service.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), `"example.com/genspeed/svc/p001"`) {
		t.Errorf("p003 does not import its parent p001:\n%s", src)
	}
	if got := strings.Count(string(src), "//sentinel:resource "); got != 3 {
		t.Errorf("p003 has %d directives, want 3", got)
	}
}

func TestParentOfFormsATree(t *testing.T) {
	for i := 1; i < 100; i++ {
		if p := parentOf(i); p < 0 || p >= i {
			t.Fatalf("parentOf(%d) = %d, want an earlier package", i, p)
		}
	}
}
