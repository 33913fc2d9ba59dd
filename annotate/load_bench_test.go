package annotate

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The speed goal: checking a module of 100 packages with 10 guarded methods
// each stays within 1.5x of `go list -export -deps ./...` on it, the least
// any type-correct tool must pay. Compare BenchmarkLoad with
// BenchmarkGoListExport (both with a warm build cache).

const (
	benchPackages = 100
	benchMethods  = 10
)

// writeBenchModule writes the module to dir: package pNN imports pNN-1, so
// export data must flow along a chain, as in real services.
func writeBenchModule(b *testing.B, dir string) {
	b.Helper()
	repo, err := filepath.Abs("..")
	if err != nil {
		b.Fatal(err)
	}
	mod := "module example.com/bench\n\ngo 1.26.0\n\nrequire github.com/sentinelgen/sentinelgen v0.0.0\n\nreplace github.com/sentinelgen/sentinelgen => " + repo + "\n"
	write(b, filepath.Join(dir, "go.mod"), mod)
	for p := range benchPackages {
		var src strings.Builder
		fmt.Fprintf(&src, "package p%02d\n\nimport (\n\t\"context\"\n\t\"errors\"\n\n\t\"github.com/sentinelgen/sentinelgen/runtime\"\n", p)
		if p > 0 {
			fmt.Fprintf(&src, "\n\tprev \"example.com/bench/p%02d\"\n", p-1)
		}
		src.WriteString(")\n\nvar ErrGone = errors.New(\"gone\")\n\ntype Req struct{ ID int }\n\ntype Service struct{}\n")
		if p > 0 {
			src.WriteString("\nvar _ = prev.ErrGone\n")
		}
		for m := range benchMethods {
			fmt.Fprintf(&src, `
// M%[1]d is guarded.
//
//sentinel:resource blockHandler=m%[1]dBlocked fallback=m%[1]dFallback ignore=ErrGone
func (s *Service) M%[1]d(ctx context.Context, req *Req) (string, error) { return "", nil }

func (s *Service) m%[1]dBlocked(ctx context.Context, req *Req, be *runtime.BlockError) (string, error) { return "", be }

func (s *Service) m%[1]dFallback(ctx context.Context, req *Req, err error) (string, error) { return "", err }
`, m)
		}
		write(b, filepath.Join(dir, fmt.Sprintf("p%02d", p), "svc.go"), src.String())
	}
	goListExport(b, dir) // warm the build cache: both benchmarks measure the warm case
}

func goListExport(b *testing.B, dir string) {
	cmd := exec.Command("go", "list", "-export", "-deps", "./...")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go list: %v\n%s", err, out)
	}
}

func write(b *testing.B, path, content string) {
	b.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkLoad(b *testing.B) {
	dir := b.TempDir()
	writeBenchModule(b, dir)
	b.ResetTimer()
	for b.Loop() {
		pkgs, diags, err := Load(dir, []string{"./..."}, Options{})
		if err != nil || len(diags) > 0 || len(pkgs) != benchPackages {
			b.Fatalf("Load: %d packages, %v, %v", len(pkgs), diags, err)
		}
	}
}

func BenchmarkGoListExport(b *testing.B) {
	dir := b.TempDir()
	writeBenchModule(b, dir)
	b.ResetTimer()
	for b.Loop() {
		goListExport(b, dir)
	}
}
