package annotate_test

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/sentinelgen/sentinelgen/annotate"
)

// vetMode is what go vet gives an analysis: the target packages' syntax
// and types (tests included), their dependencies from export data.
const vetMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
	packages.NeedTypes | packages.NeedTypesSizes | packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule

// BenchmarkAnalyzer measures, per module, what any driver pays before an
// analyzer runs (load: go list, parsing, type-checking against export
// data, tests included as go vet has them) and the sentinel Analyzer's
// own pass on those packages (sentinel: the checks and the rendering and
// comparison of every sentinel_gen.go). go vet's analyzers use facts from
// every dependency, so they are compared in BenchmarkGoVet of
// cmd/sentinelvet, by running the go command. The modules are
// examples/orders and, when SENTINEL_BENCH_SYNTH names it, the synthetic
// module of scripts/genspeed (go run ./scripts/genspeed -dir DIR).
func BenchmarkAnalyzer(b *testing.B) {
	mods := map[string]string{"orders": filepath.Join("..", "examples", "orders")}
	if dir := os.Getenv("SENTINEL_BENCH_SYNTH"); dir != "" {
		mods["synthetic"] = dir
	}
	for _, name := range []string{"orders", "synthetic"} {
		dir, ok := mods[name]
		if !ok {
			continue
		}
		cfg := &packages.Config{Mode: vetMode, Dir: dir, Tests: true}
		b.Run(name+"/load", func(b *testing.B) {
			for b.Loop() {
				if _, err := packages.Load(cfg, "./..."); err != nil {
					b.Fatal(err)
				}
			}
		})
		pkgs, err := packages.Load(cfg, "./...")
		if err != nil {
			b.Fatal(err)
		}
		if packages.PrintErrors(pkgs) > 0 {
			b.Fatal("packages have errors")
		}
		b.Run(name+"/sentinel", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				g, err := checker.Analyze([]*analysis.Analyzer{annotate.Analyzer}, pkgs, nil)
				if err != nil {
					b.Fatal(err)
				}
				for act := range g.All() {
					if act.Err != nil {
						b.Fatal(act.Err)
					}
					if act.Analyzer == annotate.Analyzer && len(act.Diagnostics) > 0 {
						b.Fatalf("%s: %s", act.Package.PkgPath, act.Diagnostics[0].Message)
					}
				}
			}
		})
	}
}
