package main

// The test is in package main, not main_test, so that the go command's
// test cache sees the analyzer's code as a dependency: the test runs the
// tool as a subprocess, which the cache cannot see.

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// sampleSource is a user's package with a misspelt blockHandler and a
// fallback that does not exist yet; fixedSource is it after the fixes.
const sampleSource = `// Package sample is a user's package.
package sample

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Service is guarded.
type Service struct{}

// Get is guarded.
//
//sentinel:resource blockHandler=getBlokced fallback=getFallback
func (s *Service) Get(ctx context.Context, id string) (string, error) {
	return id, nil
}

func (s *Service) getBlocked(ctx context.Context, id string, blockErr *runtime.BlockError) (string, error) {
	return "", blockErr
}
`

const fixedSource = `// Package sample is a user's package.
package sample

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Service is guarded.
type Service struct{}

// Get is guarded.
//
//sentinel:resource blockHandler=getBlocked fallback=getFallback
func (s *Service) Get(ctx context.Context, id string) (string, error) {
	return id, nil
}

// getFallback is the fallback of Get.
func (s *Service) getFallback(ctx context.Context, id string, err error) (string, error) {
	return "", err
}

func (s *Service) getBlocked(ctx context.Context, id string, blockErr *runtime.BlockError) (string, error) {
	return "", blockErr
}
`

const (
	wantMisspelt = "svc.go:15:34: blockHandler getBlokced not found in the method set of Service or package sample; did you mean getBlocked?"
	wantMissing  = "svc.go:15:54: fallback getFallback not found in the method set of Service or package sample"
	wantNoFile   = "svc.go:15:1: sentinel_gen.go is missing; run go generate"
)

// TestDrivers makes a module that uses sentinelvet through the tool
// directive, as a user would, and runs each way of driving it: standalone,
// go vet -vettool=$(go tool -n sentinelvet), go fix -diff and go fix
// -fixtool. It checks the diagnostics, the fixed file, and that after
// the fixes only the missing generated file is left to report.
func TestDrivers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module and runs the go command")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "go.sum"), string(sum))
	write(t, filepath.Join(dir, "go.mod"), "module example.com/sample\n\ngo 1.26.0\n\n"+
		"require github.com/sentinelgen/sentinelgen v0.0.0\n\n"+
		"replace github.com/sentinelgen/sentinelgen => "+root+"\n\n"+
		"tool github.com/sentinelgen/sentinelgen/cmd/sentinelvet\n")
	write(t, filepath.Join(dir, "svc.go"), sampleSource)
	// Modules come the way a user's do: from the module cache when they are
	// there, else from GOPROXY. go mod tidy needs more of them than this
	// module's own build (the tests of its dependencies' packages), so
	// nothing here may assume that the cache already holds them.
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	run := func(wantCode int, name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		code := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatalf("%s %v: %v", name, args, err)
		}
		if code != wantCode {
			t.Fatalf("%s %s: exit code %d, want %d\n%s", name, strings.Join(args, " "), code, wantCode, out.String())
		}
		return out.String()
	}
	run(0, "go", "mod", "tidy")
	tool := strings.TrimSpace(run(0, "go", "tool", "-n", "sentinelvet"))

	// Standalone: positions are absolute; exit code 3 means diagnostics.
	out := run(3, tool, "./...")
	contains(t, "sentinelvet", out, filepath.Join(dir, wantMisspelt), filepath.Join(dir, wantMissing))

	out = run(1, "go", "vet", "-vettool="+tool, "./...")
	contains(t, "go vet", out, wantMisspelt, wantMissing)

	out = run(1, "go", "fix", "-fixtool="+tool, "-diff", "./...")
	contains(t, "go fix -diff", out, "-//sentinel:resource blockHandler=getBlokced fallback=getFallback",
		"+//sentinel:resource blockHandler=getBlocked fallback=getFallback", "+func (s *Service) getFallback(")
	if got := read(t, filepath.Join(dir, "svc.go")); got != sampleSource {
		t.Fatalf("go fix -diff changed the file:\n%s", got)
	}

	run(0, "go", "fix", "-fixtool="+tool, "./...")
	if got := read(t, filepath.Join(dir, "svc.go")); got != fixedSource {
		t.Fatalf("fixed file:\n%s\nwant:\n%s", got, fixedSource)
	}
	run(0, "go", "build", "./...")
	out = run(1, "go", "vet", "-vettool="+tool, "./...")
	contains(t, "go vet after the fixes", out, wantNoFile)
	if strings.Contains(out, "not found") {
		t.Errorf("go vet after the fixes still reports a handler:\n%s", out)
	}
}

func contains(t *testing.T, what, out string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("%s output lacks %q:\n%s", what, w, out)
		}
	}
}

func write(t *testing.T, file, content string) {
	t.Helper()
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
