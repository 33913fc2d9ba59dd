package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// copyWithDirectives copies the module in plain (for example the etcd copy
// that etcd.sh makes) to dst, makes it use a snapshot of the repository's
// runtime, and adds directives to it (addDirectives, in constrained files
// too when withConstrained). The plain copy is
// left as it is, so that both can be measured. It returns the number of
// directives added; the generated files are written by the first
// sentinelgen run, as for the synthetic module.
func copyWithDirectives(ctx context.Context, repo, plain, dst string, withConstrained bool) (int, error) {
	if err := os.RemoveAll(dst); err != nil {
		return 0, err
	}
	if err := copyTree(plain, filepath.Join(dst, "module")); err != nil {
		return 0, fmt.Errorf("copying %s: %w", plain, err)
	}
	snapshot, err := snapshotRuntime(repo, filepath.Join(dst, "sentinelgen"))
	if err != nil {
		return 0, fmt.Errorf("copying the runtime: %w", err)
	}
	// The runtime needs only the standard library: a go.mod without the
	// repository's requirements keeps the module's own dependency versions
	// as they were, so that the copy measures the same build as the plain
	// module plus the generated code.
	if err := os.WriteFile(filepath.Join(snapshot, "go.mod"), []byte("module "+sentinelModule+"\n\ngo 1.26.0\n"), 0o644); err != nil {
		return 0, err
	}
	if err := os.Remove(filepath.Join(snapshot, "go.sum")); err != nil {
		return 0, err
	}
	mod := filepath.Join(dst, "module")
	// The runtime's go line is 1.26.0, which the main module's must reach.
	edit := command{label: "go mod edit", argv: []string{"go", "mod", "edit", "-go=1.26.0", "-toolchain=none",
		"-require=" + sentinelModule + "@v0.0.0", "-replace=" + sentinelModule + "=" + snapshot}}
	if _, err := edit.run(ctx, mod); err != nil {
		return 0, err
	}
	n, err := addDirectives(mod, withConstrained)
	if err != nil {
		return n, fmt.Errorf("adding directives: %w", err)
	}
	return n, nil
}

// copyTree copies the regular files under src to dst, keeping the layout.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !d.Type().IsRegular() {
			return nil // symbolic links and the like: not part of a module
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		return copyFile(path, filepath.Join(dst, rel))
	})
}

// countDirectives counts the //sentinel:resource lines in the .go files
// under dir.
func countDirectives(dir string) (int, error) {
	n := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), directiveLine) {
				n++
			}
		}
		return nil
	})
	return n, err
}

// goModTidyEnough makes the go command settle the copy's go.sum (the
// replaced module has none of its own) without touching the network more
// than the plain module's listing did.
func goModTidyEnough(ctx context.Context, dir string) error {
	cmd := exec.CommandContext(ctx, "go", "list", "-deps", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go list -mod=mod in %s: %v\n%s", dir, err, lastLines(string(out), 20))
	}
	return nil
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
