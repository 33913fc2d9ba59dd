package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// snapshotRuntime copies what the synthetic module needs of the repository
// (go.mod, go.sum and the runtime package tree, tests left out) to dst and
// returns dst. The synthetic module's replace directive points at the copy:
// other work in the repository that edits the runtime would otherwise
// invalidate the build cache in the middle of a measurement.
func snapshotRuntime(repo, dst string) (string, error) {
	for _, name := range []string{"go.mod", "go.sum"} {
		if err := copyFile(filepath.Join(repo, name), filepath.Join(dst, name)); err != nil {
			return "", err
		}
	}
	src := filepath.Join(repo, "runtime")
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(repo, path)
		if err != nil {
			return err
		}
		return copyFile(path, filepath.Join(dst, rel))
	})
	return dst, err
}

func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}
