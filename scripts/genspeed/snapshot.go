package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// snapshotRuntime copies what the synthetic module needs of the repository
// (go.mod, go.sum and the packages of this module that the runtime imports,
// the runtime itself included, tests left out) to dst and returns dst. The
// synthetic module's replace directive points at the copy: other work in
// the repository that edits the runtime would otherwise invalidate the
// build cache in the middle of a measurement. The packages come from
// go list, so that a new module-internal import of the runtime (such as
// internal/sysreadings) is copied too.
func snapshotRuntime(repo, dst string) (string, error) {
	for _, name := range []string{"go.mod", "go.sum"} {
		if err := copyFile(filepath.Join(repo, name), filepath.Join(dst, name)); err != nil {
			return "", err
		}
	}
	list := exec.Command("go", "list", "-deps", "-f", "{{if .Module}}{{if .Module.Main}}{{.Dir}}{{end}}{{end}}", "./runtime")
	list.Dir = repo
	out, err := list.Output()
	if err != nil {
		return "", fmt.Errorf("go list -deps ./runtime: %w", err)
	}
	for _, dir := range strings.Fields(string(out)) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return "", err
		}
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			rel, err := filepath.Rel(repo, filepath.Join(dir, name))
			if err != nil {
				return "", err
			}
			if err := copyFile(filepath.Join(dir, name), filepath.Join(dst, rel)); err != nil {
				return "", err
			}
		}
	}
	return dst, nil
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
