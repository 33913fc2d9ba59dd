package annotate_test

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/sentinelgen/sentinelgen/annotate"
)

// notVisible lists the error cases of testdata/golden that a go/analysis
// pass cannot report as the generator does, with the reason.
var notVisible = map[string]string{
	// A pass sees one package: resource names are compared across the
	// packages the generator loads, not across passes.
	"err_dup_name": "resource names shared by two packages",
}

// driverReports lists the cases whose errors the driver reports itself
// (go vet, the compiler and golangci-lint print syntax errors); the
// analyzer must stay quiet on them rather than judge a partial tree.
var driverReports = map[string]bool{
	"err_syntax_backquote": true,
	"err_syntax_brace":     true,
}

// TestGoldenErrorCases runs the analyzer on every err_* case of
// testdata/golden, the generator's corpus, and wants the diagnostics of
// its diagnostics.golden: same messages, same positions (line and
// column), same related lines. One corpus, two drivers.
func TestGoldenErrorCases(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs(filepath.Join("..", "testdata", "golden"))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || !strings.HasPrefix(name, "err_") {
			continue
		}
		if why, ok := notVisible[name]; ok {
			t.Logf("%s: not an analyzer case: %s", name, why)
			continue
		}
		ran++
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(root, name)
			want, err := os.ReadFile(filepath.Join(dir, "diagnostics.golden"))
			if err != nil {
				t.Fatal(err)
			}
			if driverReports[name] {
				want = nil
			}
			if got := analyze(t, dir); got != string(want) {
				t.Errorf("analyzer diagnostics differ from diagnostics.golden:\n--- analyzer\n%s--- generator\n%s", got, want)
			}
		})
	}
	if ran < 25 {
		t.Errorf("only %d error cases ran", ran)
	}
}

// analyze runs the Analyzer on the packages below dir, as a driver
// (go/packages and the checker) does, and formats what it reports like
// annotate.Diagnostic.Format: one line per diagnostic, one tab-indented
// line per related position, sorted, with file names relative to dir.
func analyze(t *testing.T, dir string) string {
	t.Helper()
	return analyzeFor(t, dir, nil, "./...")
}

// analyzeFor is analyze of the packages matching patterns, with the
// environment of the go command set, for GOOS and GOARCH: a pass then
// holds that platform's files.
func analyzeFor(t *testing.T, dir string, env []string, patterns ...string) string {
	t.Helper()
	// The packages' own syntax and types, their dependencies from export
	// data, as go vet provides them.
	mode := packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
		packages.NeedTypes | packages.NeedTypesSizes | packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule
	cfg := &packages.Config{Mode: mode, Dir: dir, Tests: true, Env: env}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	graph, err := checker.Analyze(slices.Clone(analyzerList), pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	type line struct {
		file      string
		line, col int
		text      string
	}
	var out []line
	seen := map[string]bool{}
	// go vet checks a package's test variant instead of the package
	// when it has test files, and golangci-lint reports one of the two.
	ids := map[string]bool{}
	for _, p := range pkgs {
		ids[p.ID] = true
	}
	for _, act := range graph.Roots {
		if ids[act.Package.ID+" ["+act.Package.PkgPath+".test]"] {
			continue
		}
		if act.Err != nil {
			t.Fatalf("%s: %v", act.Package.PkgPath, act.Err)
		}
		fset := act.Package.Fset
		rel := func(file string) string {
			if r, err := filepath.Rel(dir, file); err == nil {
				return filepath.ToSlash(r)
			}
			return file
		}
		for _, d := range act.Diagnostics {
			p := fset.Position(d.Pos)
			var b strings.Builder
			fmt.Fprintf(&b, "%s:%d:%d: %s", rel(p.Filename), p.Line, p.Column, d.Message)
			for _, r := range d.Related {
				rp := fset.Position(r.Pos)
				fmt.Fprintf(&b, "\n\t%s:%d:%d: %s", rel(rp.Filename), rp.Line, rp.Column, r.Message)
			}
			if s := b.String(); !seen[s] {
				seen[s] = true
				out = append(out, line{rel(p.Filename), p.Line, p.Column, s})
			}
		}
	}
	// annotate's order: file, line, column, message.
	slices.SortFunc(out, func(a, b line) int {
		return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.line, b.line), cmp.Compare(a.col, b.col), cmp.Compare(a.text, b.text))
	})
	var b strings.Builder
	for _, l := range out {
		b.WriteString(l.text + "\n")
	}
	return b.String()
}

var analyzerList = []*analysis.Analyzer{annotate.Analyzer}
