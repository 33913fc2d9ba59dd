package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/gen"
)

// runCacheModule writes a module with a guarded method in svc whose block
// handler's result type comes from package dep, makes it the working
// directory, with a cache of its own, and returns it.
func runCacheModule(t *testing.T) string {
	t.Helper()
	tmp := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/runcache\n\ngo 1.26.0\n\nrequire github.com/sentinelgen/sentinelgen v0.0.0\n\nreplace github.com/sentinelgen/sentinelgen => " + repoRoot + "\n",
		"dep/dep.go": `// Package dep holds the types the handlers use.
package dep

// Order is what the service returns.
type Order struct{ ID string }

// Reply is what the block handler returns.
type Reply = *Order
`,
		"svc/svc.go": `// Package svc is guarded.
package svc

import (
	"context"

	"example.com/runcache/dep"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// S serves orders.
type S struct{}

// Get returns an order.
//
//sentinel:resource name=svc.get blockHandler=getBlocked
func (s *S) Get(ctx context.Context, id string) (*dep.Order, error) { return &dep.Order{ID: id}, nil }

func (s *S) getBlocked(ctx context.Context, id string, blockErr *runtime.BlockError) (dep.Reply, error) {
	var r dep.Reply
	return r, blockErr
}
`,
	}
	for name, content := range files {
		writeFile(t, filepath.Join(tmp, name), content)
	}
	t.Chdir(tmp)
	t.Setenv(gen.CacheEnv, t.TempDir())
	return tmp
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// replaceIn edits a file of the module, failing when old is not in it.
func replaceIn(t *testing.T, path, old, new string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s does not contain %q", path, old)
	}
	writeFile(t, path, strings.Replace(string(data), old, new, 1))
}

// unchangedLine is what -v says when a run stops after go list.
const unchangedLine = "inputs unchanged since a run that found nothing to do"

// generateV runs sentinelgen -v [args] ./... and reports its exit code,
// stderr, and whether it stopped after go list.
func generateV(t *testing.T, args ...string) (code int, stderr string, skipped bool) {
	t.Helper()
	code, _, stderr = invoke(append(append([]string{"-v"}, args...), "./...")...)
	return code, stderr, strings.Contains(stderr, unchangedLine)
}

// settle runs the generator until it writes nothing (the first run
// writes, the second records that nothing was needed) and checks that the
// next run stops after go list.
func settle(t *testing.T, args ...string) {
	t.Helper()
	for range 2 {
		if code, stderr, _ := generateV(t, args...); code != exitOK {
			t.Fatalf("generate %v: exit %d, stderr:\n%s", args, code, stderr)
		}
	}
	if code, stderr, skipped := generateV(t, args...); code != exitOK || !skipped {
		t.Fatalf("unchanged run %v: exit %d, skipped %v; stderr:\n%s", args, code, skipped, stderr)
	}
}

// An unchanged module stops after go list; editing a handler's signature
// is seen, reported, and once reverted the earlier record holds again.
func TestRunCacheSeesAHandlerEdit(t *testing.T) {
	dir := runCacheModule(t)
	settle(t)
	svc := filepath.Join(dir, "svc", "svc.go")
	replaceIn(t, svc, "getBlocked(ctx context.Context, id string,", "getBlocked(ctx context.Context, id int,")
	code, stderr, skipped := generateV(t)
	if skipped || code != exitProblems || !strings.Contains(stderr, "getBlocked") {
		t.Fatalf("after the handler edit: exit %d, skipped %v; want the handler reported, stderr:\n%s", code, skipped, stderr)
	}
	if code, stderr, skipped := generateV(t); skipped || code != exitProblems {
		t.Fatalf("a run with diagnostics is never recorded: exit %d, skipped %v, stderr:\n%s", code, skipped, stderr)
	}
	replaceIn(t, svc, "getBlocked(ctx context.Context, id int,", "getBlocked(ctx context.Context, id string,")
	if code, stderr, skipped := generateV(t); code != exitOK || !skipped {
		t.Fatalf("after the revert: exit %d, skipped %v, stderr:\n%s", code, skipped, stderr)
	}
}

// A dependency's exported type used by a handler changes while svc's own
// files stay the same: svc is checked again and the mismatch reported.
func TestRunCacheSeesADependencyEdit(t *testing.T) {
	dir := runCacheModule(t)
	settle(t)
	replaceIn(t, filepath.Join(dir, "dep", "dep.go"), "type Reply = *Order", "type Reply = Order")
	code, stderr, skipped := generateV(t)
	if skipped || code != exitProblems || !strings.Contains(stderr, "getBlocked") {
		t.Fatalf("after the dependency edit: exit %d, skipped %v; want getBlocked's result reported, stderr:\n%s", code, skipped, stderr)
	}
}

// The same edit in a form that still compiles, the generated file
// included (a defined pointer type is assignable to its underlying type),
// with only svc named: nothing fails to build and dep's files are no
// target's, so only export data in the inputs key (dep's, and svc's own,
// which the go command rebuilds) can send svc to be checked again, and it
// must.
func TestRunCacheSeesADependencyEditThatCompiles(t *testing.T) {
	dir := runCacheModule(t)
	svcOnly := func() (int, string, bool) {
		code, _, stderr := invoke("-v", "./svc")
		return code, stderr, strings.Contains(stderr, unchangedLine)
	}
	for run := range 3 {
		code, stderr, skipped := svcOnly()
		if code != exitOK || skipped != (run == 2) {
			t.Fatalf("settling run %d: exit %d, skipped %v, stderr:\n%s", run, code, skipped, stderr)
		}
	}
	replaceIn(t, filepath.Join(dir, "dep", "dep.go"), "type Reply = *Order", "type Reply *Order")
	code, stderr, skipped := svcOnly()
	if skipped || code != exitProblems || !strings.Contains(stderr, "getBlocked") {
		t.Fatalf("after the dependency edit: exit %d, skipped %v; want getBlocked's result reported, stderr:\n%s", code, skipped, stderr)
	}
}

// Build tags are part of the inputs, and so is a file the build leaves
// out: a new directive in a constrained file is generated for its
// platforms, and such a package, loaded for other configurations too, is
// never skipped.
func TestRunCacheSeesTagsAndConstrainedFiles(t *testing.T) {
	dir := runCacheModule(t)
	settle(t)
	writeFile(t, filepath.Join(dir, "svc", "broken.go"), "//go:build sentinelgen_broken\n\npackage svc\n\nvar _ int = \"not an int\"\n")
	code, stderr, skipped := generateV(t, "-tags", "sentinelgen_broken")
	if skipped || code != exitProblems || !strings.Contains(stderr, "broken.go") {
		t.Fatalf("with -tags: exit %d, skipped %v; want broken.go's error, stderr:\n%s", code, skipped, stderr)
	}
	if code, stderr, skipped := generateV(t); code != exitOK || skipped {
		// broken.go is a new file of svc's directory: the inputs changed.
		t.Fatalf("without -tags after adding broken.go: exit %d, skipped %v, stderr:\n%s", code, skipped, stderr)
	}
	writeFile(t, filepath.Join(dir, "svc", "special.go"), `//go:build special

package svc

import "context"

// Special is guarded where the special tag is set.
//
//sentinel:resource name=svc.special
func (s *S) Special(ctx context.Context) error { return nil }
`)
	for run := range 3 {
		code, stderr, skipped := generateV(t)
		if code != exitOK || skipped {
			t.Fatalf("run %d with a constrained directive: exit %d, skipped %v, stderr:\n%s", run, code, skipped, stderr)
		}
	}
	matches, err := filepath.Glob(filepath.Join(dir, "svc", "sentinel_gen*.go"))
	if err != nil || len(matches) < 2 {
		t.Fatalf("generated files %v (%v); want one for the special variant too", matches, err)
	}
}

// A run that reports diagnostics is never recorded, even when the code
// compiles and loads on the fast route: the next run reports them again.
func TestRunCacheNeverRecordsDiagnostics(t *testing.T) {
	dir := runCacheModule(t)
	settle(t)
	replaceIn(t, filepath.Join(dir, "svc", "svc.go"), "\nfunc (s *S) getBlocked", `
// Again has the same resource name as Get.
//
//sentinel:resource name=svc.get
func (s *S) Again(ctx context.Context) error { return nil }

func (s *S) getBlocked`)
	for run := range 2 {
		code, stderr, skipped := generateV(t)
		if skipped || code != exitProblems || !strings.Contains(stderr, "svc.get") {
			t.Fatalf("run %d with a duplicate name: exit %d, skipped %v; want it reported, stderr:\n%s", run, code, skipped, stderr)
		}
	}
}

// A generated file edited by hand changes the inputs: -check reports it
// stale rather than trusting the record of the run that wrote it, and the
// next run writes it back as it was, after which the record holds again.
func TestRunCacheSeesAGeneratedFileEdited(t *testing.T) {
	dir := runCacheModule(t)
	settle(t)
	generated := filepath.Join(dir, "svc", "sentinel_gen.go")
	want, err := os.ReadFile(generated)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, generated, string(want)+"\n// a line added by hand\n")
	code, stdout, stderr := invoke("-check", "-v", "./...")
	if code != exitProblems || strings.Contains(stderr, unchangedLine) || !strings.Contains(stdout, "sentinel_gen.go: stale") {
		t.Fatalf("-check after a hand edit: exit %d, want 1 and the file stale; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if code, stderr, skipped := generateV(t); code != exitOK || skipped {
		t.Fatalf("generate after a hand edit: exit %d, skipped %v, stderr:\n%s", code, skipped, stderr)
	}
	if got, err := os.ReadFile(generated); err != nil || string(got) != string(want) {
		t.Fatalf("the generated file was not written back (%v):\n%s", err, got)
	}
	if code, stderr, skipped := generateV(t); code != exitOK || !skipped {
		t.Fatalf("once written back: exit %d, skipped %v, stderr:\n%s", code, skipped, stderr)
	}
}

// A generated file deleted changes the inputs: -check reports it missing
// and the next run writes it again.
func TestRunCacheSeesAGeneratedFileDeleted(t *testing.T) {
	dir := runCacheModule(t)
	settle(t)
	generated := filepath.Join(dir, "svc", "sentinel_gen.go")
	want, err := os.ReadFile(generated)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(generated); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := invoke("-check", "-v", "./...")
	if code != exitProblems || strings.Contains(stderr, unchangedLine) || !strings.Contains(stdout, "sentinel_gen.go: missing") {
		t.Fatalf("-check after deleting the file: exit %d, want 1 and the file missing; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if code, stderr, skipped := generateV(t); code != exitOK || skipped {
		t.Fatalf("generate after deleting the file: exit %d, skipped %v, stderr:\n%s", code, skipped, stderr)
	}
	if got, err := os.ReadFile(generated); err != nil || string(got) != string(want) {
		t.Fatalf("the generated file was not written again (%v):\n%s", err, got)
	}
}

// Build tags set in the go command's own configuration (go env -w
// GOFLAGS=-tags=..., which lands in the GOENV file, not in the process's
// environment) are seen too: here the tag picks another definition of the
// dependency's type that the block handler returns, a defined type rather
// than an alias, so that the package and its generated file still compile
// (the two are assignable) but the handler no longer has the method's
// result types.
func TestRunCacheSeesTagsFromGoEnv(t *testing.T) {
	dir := runCacheModule(t)
	// The go command's own settings (GOTOOLCHAIN, GOPROXY, ...) are kept:
	// the test only adds to them.
	var settings string
	if out, err := exec.Command("go", "env", "GOENV").Output(); err == nil {
		if data, err := os.ReadFile(strings.TrimSpace(string(out))); err == nil {
			settings = string(data)
			if settings != "" && !strings.HasSuffix(settings, "\n") {
				settings += "\n"
			}
		}
	}
	goenv := filepath.Join(t.TempDir(), "env")
	writeFile(t, goenv, settings)
	t.Setenv("GOENV", goenv)
	replaceIn(t, filepath.Join(dir, "dep", "dep.go"), "type Reply = *Order", "")
	writeFile(t, filepath.Join(dir, "dep", "reply.go"), "//go:build !sentinelgen_alt\n\npackage dep\n\n// Reply is what the block handler returns.\ntype Reply = *Order\n")
	writeFile(t, filepath.Join(dir, "dep", "reply_alt.go"), "//go:build sentinelgen_alt\n\npackage dep\n\n// Reply is what the block handler returns.\ntype Reply *Order\n")
	settle(t)
	// A GOFLAGS line of the user's own would come first; the last one
	// counts.
	writeFile(t, goenv, settings+"GOFLAGS=-tags=sentinelgen_alt\n")
	code, stderr, skipped := generateV(t)
	if skipped || code != exitProblems || !strings.Contains(stderr, "getBlocked") {
		t.Fatalf("with the tag set by go env: exit %d, skipped %v; want getBlocked's result reported, stderr:\n%s", code, skipped, stderr)
	}
}
