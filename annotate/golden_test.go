package annotate

import (
	"flag"
	"fmt"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/sentinelgen/sentinelgen/annotate/internal/loader"
)

var update = flag.Bool("update", false, "rewrite the diagnostics.golden and model.golden files of testdata/golden")

// goldenRoot is the testdata module holding one case per directory.
var goldenRoot = filepath.Join("..", "testdata", "golden")

// goldenModule is the testdata module's path; each case is one directory.
const goldenModule = "example.com/golden/"

// goldenCases lists the case directories of testdata/golden.
func goldenCases(t *testing.T) (root string, cases []string) {
	t.Helper()
	root, err := filepath.Abs(goldenRoot)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			cases = append(cases, e.Name())
		}
	}
	return root, cases
}

// TestGolden loads every case of testdata/golden on its own, in parallel,
// run in the case's directory as cmd/sentinelgen runs Load, and compares
// its diagnostics with diagnostics.golden (absent: none wanted). Cases
// named ok_* also compare a dump of the model with model.golden, so that
// what annotate resolves (handler kinds, matchers, names) is pinned down.
//
// Each case is loaded on the go/packages route too, which must give the
// same models and diagnostics, positions included. The fast route declines
// exactly the cases whose code does not compile as it stands; every other
// case compares the two routes.
func TestGolden(t *testing.T) {
	t.Parallel()
	root, cases := goldenCases(t)
	var mu sync.Mutex
	var declined []string
	t.Run("cases", func(t *testing.T) {
		for _, name := range cases {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				dir := filepath.Join(root, name)
				pkgs, diags, route, err := loadAndCheck(loader.Config{Dir: dir, Patterns: []string{"./..."}})
				if err != nil {
					t.Fatalf("load: %v", err)
				}
				for _, d := range diags {
					if !inDir(d.Pos.Filename, dir) {
						t.Errorf("diagnostic outside the case directory: %s", d.Format(root))
					}
				}
				checkCase(t, name, dir, pkgs, diags)
				if route != loader.RouteFast {
					mu.Lock()
					declined = append(declined, name)
					mu.Unlock()
					return
				}
				slowPkgs, slowDiags, _, err := loadAndCheck(loader.Config{Dir: dir, Patterns: []string{"./..."}, Route: loader.RoutePackages})
				if err != nil {
					t.Fatalf("load with go/packages: %v", err)
				}
				assert.Equal(t, modelFacts(slowPkgs, dir), modelFacts(pkgs, dir))
				assert.Equal(t, slowDiags, diags)
			})
		}
	})
	slices.Sort(declined)
	assert.Equal(t, []string{"err_import_unused", "err_syntax_backquote", "err_syntax_brace", "err_type_error", "ok_stale_generated", "ok_truncated_generated"}, declined)
	assert.Greater(t, len(cases)-len(declined), 40, "cases compared")
}

func inDir(file, dir string) bool {
	return strings.HasPrefix(file, dir+string(filepath.Separator))
}

// checkCase compares one case's results with its golden files.
func checkCase(t *testing.T, name, dir string, pkgs []*Package, diags []Diagnostic) {
	t.Helper()
	var b strings.Builder
	for _, d := range diags {
		b.WriteString(d.Format(dir))
		b.WriteByte('\n')
	}
	compareGolden(t, filepath.Join(dir, "diagnostics.golden"), b.String())
	if strings.HasPrefix(name, "ok_") {
		compareGolden(t, filepath.Join(dir, "model.golden"), dumpModels(pkgs, dir))
	}
	if strings.HasPrefix(name, "err_") && len(diags) == 0 {
		t.Errorf("error case %s produced no diagnostics", name)
	}
}

// compareGolden compares got with the file's content, or rewrites the file
// under -update. An absent file stands for empty content, and empty content
// is written by removing the file.
func compareGolden(t *testing.T, file, got string) {
	t.Helper()
	if *update {
		if got == "" {
			if err := os.Remove(file); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			return
		}
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run go test ./annotate -run TestGolden -update to accept):\n--- got\n%s--- want\n%s", filepath.Base(file), got, want)
	}
}

// dumpModels renders the parts of the models that annotate decides, one
// line per fact, with positions relative to dir.
func dumpModels(pkgs []*Package, dir string) string {
	var b strings.Builder
	for _, p := range pkgs {
		qf := types.RelativeTo(p.Types)
		fmt.Fprintf(&b, "package %s (%s)\n", p.Name, p.Path)
		for _, w := range p.Wrappers {
			fmt.Fprintf(&b, "  wrapper %s %s for %s%s pointer=%v methods=%d\n", w.TypeName, w.Constructor, w.Recv.TypeName, typeParamText(w.Recv.TypeParams, qf), w.Recv.Pointer, len(w.Methods))
		}
		for _, r := range p.Resources {
			f := r.Func
			fmt.Fprintf(&b, "  resource %q %s at %s\n", r.Name, r.GeneratedName, strings.TrimSuffix(formatPos(r.Pos, dir), ": "))
			recv := ""
			if f.Recv != nil {
				recv = fmt.Sprintf("(%s%s pointer=%v) ", f.Recv.TypeName, typeParamText(f.Recv.TypeParams, qf), f.Recv.Pointer)
			}
			fmt.Fprintf(&b, "    func %s%s%s params=%s results=%s variadic=%v context=%v errorResult=%d\n",
				recv, f.Name, typeParamText(f.TypeParams, qf), varsText(f.Params, qf), varsText(f.Results, qf), f.Variadic, f.HasContext, f.ErrorResult)
			fmt.Fprintf(&b, "    entryType=%d resourceType=%d\n", r.EntryType, r.ResourceType)
			for _, h := range []*Handler{r.BlockHandler, r.Fallback, r.DefaultFallback} {
				if h == nil {
					continue
				}
				kind := "method"
				if h.Kind == HandlerFunc {
					kind = "func " + h.PkgPath
				}
				fmt.Fprintf(&b, "    %s %s -> %s %s takesError=%v type=%s\n", roleKeys[h.Role], h.Written, kind, h.Name, h.TakesError, types.TypeString(h.Type, qf))
			}
			for _, m := range r.Ignore {
				fmt.Fprintf(&b, "    ignore %s\n", matcherText(m, qf))
			}
			for _, m := range r.Trace {
				fmt.Fprintf(&b, "    trace %s\n", matcherText(m, qf))
			}
		}
	}
	return b.String()
}

func typeParamText(tps []TypeParam, qf types.Qualifier) string {
	if len(tps) == 0 {
		return ""
	}
	var parts []string
	for _, tp := range tps {
		parts = append(parts, tp.Name+" "+types.TypeString(tp.Constraint, qf))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func varsText(vs []Var, qf types.Qualifier) string {
	var parts []string
	for _, v := range vs {
		parts = append(parts, strings.TrimSpace(v.Name+" "+types.TypeString(v.Type, qf)))
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func matcherText(m ErrorMatcher, qf types.Qualifier) string {
	kind := "errors.Is"
	if m.Kind == MatchType {
		kind = "errors.As"
	}
	return fmt.Sprintf("%s -> %s %s.%s type=%s", m.Written, kind, m.PkgPath, m.Name, types.TypeString(m.Type, qf))
}

// An unexported handler of another package gets one message whether that
// package is checked from source (TestGolden loads it as a target) or read
// from export data, as here, where only the svc package is a target, and
// as a go/analysis pass sees every import.
func TestUnexportedHandlerFromExportData(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs(filepath.Join(goldenRoot, "err_handler_unexported"))
	if err != nil {
		t.Fatal(err)
	}
	for _, route := range []loader.Route{loader.RouteFast, loader.RoutePackages} {
		pkgs, diags, _, err := loadAndCheck(loader.Config{Dir: dir, Route: route})
		if err != nil {
			t.Fatalf("load: %v", err)
		}
		checkCase(t, "err_handler_unexported", dir, pkgs, diags)
	}
}
