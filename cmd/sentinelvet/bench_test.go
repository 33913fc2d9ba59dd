package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkGoVet times the whole go command: go vet ./... (vet's own
// analyzers) against go vet -vettool=sentinelvet ./... (the sentinel
// Analyzer alone), interleaved, on examples/orders and, when
// SENTINEL_BENCH_SYNTH names it, the synthetic module of scripts/genspeed.
//
// go vet caches its results per package, so each iteration first rewrites
// a small _test.go file in every package with content never used before: that invalidates the vet result
// of each package's test variant, which go vet checks, without forcing a
// compile of anything (no build depends on a _test.go file). The files are
// removed at the end.
func BenchmarkGoVet(b *testing.B) {
	tool := filepath.Join(b.TempDir(), "sentinelvet")
	if out, err := exec.Command("go", "build", "-o", tool, ".").CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	mods := [][2]string{{"orders", filepath.Join("..", "..", "examples", "orders")}}
	if dir := os.Getenv("SENTINEL_BENCH_SYNTH"); dir != "" {
		mods = append(mods, [2]string{"synthetic", dir})
	}
	for _, m := range mods {
		dir := m[1]
		pkgs := packageDirs(b, dir)
		bust := func() {
			// The content must never repeat, not even across runs of the
			// benchmark, or go vet answers from its cache.
			nonce := time.Now().UnixNano()
			for pkgDir, name := range pkgs {
				src := fmt.Sprintf("package %s\n\n// Rewritten by BenchmarkGoVet (%d) to defeat go vet's cache.\n", name, nonce)
				if err := os.WriteFile(filepath.Join(pkgDir, "zz_vetbench_test.go"), []byte(src), 0o644); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.Cleanup(func() {
			for pkgDir := range pkgs {
				os.Remove(filepath.Join(pkgDir, "zz_vetbench_test.go"))
			}
		})
		for _, variant := range []struct{ name, flag string }{{"govet", ""}, {"sentinelvet", "-vettool=" + tool}} {
			args := []string{"vet"}
			if variant.flag != "" {
				args = append(args, variant.flag)
			}
			args = append(args, "./...")
			vet := func() {
				cmd := exec.Command("go", args...)
				cmd.Dir = dir
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
				}
			}
			// Warm-up: the facts of every dependency (go vet runs the tool
			// on each, once per tool version) are computed here, as they
			// are once on a developer's machine.
			bust()
			vet()
			b.Run(m[0]+"/"+variant.name, func(b *testing.B) {
				for b.Loop() {
					b.StopTimer()
					bust()
					b.StartTimer()
					vet()
				}
			})
		}
	}
}

// packageDirs maps each package directory of the module in dir to its
// package name.
func packageDirs(b *testing.B, dir string) map[string]string {
	cmd := exec.Command("go", "list", "-f", "{{.Dir}} {{.Name}}", "./...")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("go list: %v", err)
	}
	pkgs := map[string]string{}
	for line := range strings.Lines(string(out)) {
		if d, name, ok := strings.Cut(strings.TrimSpace(line), " "); ok {
			pkgs[d] = name
		}
	}
	return pkgs
}
