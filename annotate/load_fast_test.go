package annotate

import (
	"bytes"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLoadRoutesAgree runs every golden case through both loaders and
// requires the same models and diagnostics, positions included. The whole
// module is listed once; the fast path then checks each case's packages
// alone, as a run of sentinelgen in that case's directory would.
func TestLoadRoutesAgree(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs(goldenRoot)
	require.NoError(t, err)
	slowPkgs, slowDiags, taken, err := loadVia(routePackages, root, []string{"./..."}, Options{}, caseOf)
	require.NoError(t, err)
	require.Equal(t, routePackages, taken)

	list, err := goList(root, []string{"./..."}, Options{})
	require.NoError(t, err)
	byCase := map[string][]*listedPackage{}
	for _, p := range list.targets {
		name := caseOf(p.ImportPath)
		byCase[name] = append(byCase[name], p)
	}
	var names []string
	for name := range byCase {
		names = append(names, name)
	}
	slices.Sort(names)

	var declined []string
	for _, name := range names {
		c := list.check(token.NewFileSet(), nil, byCase[name], Options{})
		if c.why != "" {
			declined = append(declined, name)
			continue
		}
		fastPkgs, fastDiags := collect(c.results, caseOf)
		dir := filepath.Join(root, name)
		t.Run(name, func(t *testing.T) {
			var wantPkgs []*Package
			for _, p := range slowPkgs {
				if caseOf(p.Path) == name {
					wantPkgs = append(wantPkgs, p)
				}
			}
			var wantDiags []Diagnostic
			for _, d := range slowDiags {
				if inDir(d.Pos.Filename, dir) {
					wantDiags = append(wantDiags, d)
				}
			}
			assert.Equal(t, modelFacts(wantPkgs, dir), modelFacts(fastPkgs, dir))
			assert.Equal(t, wantDiags, fastDiags)
		})
	}
	// The fast path declines exactly the cases whose code does not compile
	// as it stands; every other case must have been compared above.
	assert.Equal(t, []string{"err_import_unused", "err_syntax_backquote", "err_syntax_brace", "err_type_error", "ok_stale_generated", "ok_truncated_generated"}, declined)
	assert.Greater(t, len(names)-len(declined), 40, "cases compared")
}

// modelFacts is dumpModels plus what it leaves out and gen relies on: the
// directory, the reserved names and the exact declaration positions.
func modelFacts(pkgs []*Package, dir string) string {
	var b strings.Builder
	b.WriteString(dumpModels(pkgs, dir))
	for _, p := range pkgs {
		var reserved []string
		for name := range p.Reserved {
			reserved = append(reserved, name)
		}
		slices.Sort(reserved)
		fmt.Fprintf(&b, "%s: dir %s, reserved %v\n", p.Path, relativeTo(p.Dir, dir), reserved)
		for _, r := range p.Resources {
			fmt.Fprintf(&b, "  %s declared at %s\n", r.Name, posFact(r.Func.Pos, dir))
			for _, h := range []*Handler{r.BlockHandler, r.Fallback, r.DefaultFallback} {
				if h != nil {
					fmt.Fprintf(&b, "    %s at %s, declared at %s\n", h.Written, posFact(h.Pos, dir), posFact(h.DeclPos, dir))
				}
			}
			for _, m := range append(slices.Clone(r.Ignore), r.Trace...) {
				fmt.Fprintf(&b, "    %s at %s\n", m.Written, posFact(m.Pos, dir))
			}
		}
	}
	return b.String()
}

func posFact(p token.Position, dir string) string {
	return strings.TrimPrefix(p.String(), dir+string(filepath.Separator))
}

// A stale previous output does not compile, so the fast path gives way to
// go/packages, which still loads the case as its goldens want.
func TestLoadFallsBackForStaleOutput(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs(filepath.Join(goldenRoot, "ok_stale_generated"))
	require.NoError(t, err)
	var verbose bytes.Buffer
	pkgs, diags, taken, err := loadVia(routeAuto, dir, []string{"./..."}, Options{Verbose: &verbose}, nil)
	require.NoError(t, err)
	assert.Equal(t, routePackages, taken)
	assert.Contains(t, verbose.String(), "fast path not taken: "+goldenModule+"ok_stale_generated: no required module provides package")
	checkCase(t, "ok_stale_generated", dir, pkgs, diags)
}

// A module that compiles takes the fast path, with its previous output
// left out (the names it declares tolerated where user code uses them) and
// handlers in another target package resolved from source, at the same
// positions as go/packages gives. A directory of test files only does not
// stand in its way.
func TestLoadFastPathTaken(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/clean\n\ngo 1.26.0\n\nrequire github.com/sentinelgen/sentinelgen v0.0.0\n\n" +
			"replace github.com/sentinelgen/sentinelgen => " + filepath.Join(must(filepath.Abs(goldenRoot)), "..", "..") + "\n",
		"svc/svc.go": `package svc

import (
	"context"

	"example.com/clean/handlers"
)

type Service struct{}

//sentinel:resource fallback=handlers.Fallback
func (s *Service) Get(ctx context.Context, id int) error { return nil }

var (
	_ = handlers.Fallback
	_ = NewGuardedService(&Service{})
)
`,
		"svc/" + GeneratedFileName: "// Code generated by sentinelgen. DO NOT EDIT.\n\npackage svc\n\n" +
			"type GuardedService struct{ *Service }\n\nfunc NewGuardedService(s *Service) *GuardedService { return &GuardedService{s} }\n",
		"e2e/e2e_test.go": "package e2e\n",
		"handlers/handlers.go": "package handlers\n\nimport \"context\"\n\n" +
			"// Fallback answers for Service.Get.\nfunc Fallback(ctx context.Context, id int, err error) error { return err }\n",
	})
	var verbose bytes.Buffer
	fastPkgs, fastDiags, taken, err := loadVia(routeAuto, dir, []string{"./..."}, Options{Verbose: &verbose}, nil)
	require.NoError(t, err)
	assert.Equal(t, routeFast, taken, verbose.String())
	assert.Empty(t, fastDiags)
	assert.Contains(t, verbose.String(), "leaving out 1 previous "+GeneratedFileName)
	require.Len(t, fastPkgs, 2)
	svc := fastPkgs[1]
	require.Len(t, svc.Resources, 1)
	fb := svc.Resources[0].Fallback
	require.NotNil(t, fb)
	assert.Equal(t, "example.com/clean/handlers", fb.PkgPath)
	assert.Equal(t, 6, fb.DeclPos.Line)
	assert.Equal(t, 6, fb.DeclPos.Column, "a column from source, not from export data")
	assert.False(t, svc.Reserved["GuardedService"], "names of the previous output are not reserved")

	slowPkgs, slowDiags, taken, err := loadVia(routePackages, dir, []string{"./..."}, Options{}, nil)
	require.NoError(t, err)
	assert.Equal(t, routePackages, taken)
	assert.Empty(t, slowDiags)
	assert.Equal(t, modelFacts(slowPkgs, dir), modelFacts(fastPkgs, dir))
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// The files parsed ahead of go list are those ./... would consider.
func TestWalkPattern(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.go":                 "",
		"a_test.go":            "",
		"notes.txt":            "",
		"sub/b.go":             "",
		"testdata/c.go":        "",
		"vendor/d.go":          "",
		"_skip/e.go":           "",
		".hidden/f.go":         "",
		"other/go.mod":         "",
		"other/g.go":           "",
		"sub/deeper/h.go":      "",
		"sub/deeper/h_x.go":    "",
		"sub/deeper/i_test.go": "",
	})
	walk := func(pattern string) []string {
		var got []string
		walkPattern(dir, pattern, func(name string) bool {
			rel, err := filepath.Rel(dir, name)
			require.NoError(t, err)
			got = append(got, filepath.ToSlash(rel))
			return true
		})
		slices.Sort(got)
		return got
	}
	assert.Equal(t, []string{"a.go", "sub/b.go", "sub/deeper/h.go", "sub/deeper/h_x.go"}, walk("./..."))
	assert.Equal(t, []string{"a.go"}, walk("."))
	assert.Equal(t, []string{"sub/deeper/h.go", "sub/deeper/h_x.go"}, walk("./sub/deeper"))
	assert.Equal(t, []string{"sub/b.go", "sub/deeper/h.go", "sub/deeper/h_x.go"}, walk(filepath.Join(dir, "sub")+"/..."))
	assert.Empty(t, walk("example.com/x/..."), "import paths are left to go list")

	var n int
	walkPattern(dir, "./...", func(string) bool { n++; return false })
	assert.Equal(t, 1, n, "the walk stops when asked to")
}

// The fast path gives way whenever a target might not be read faithfully.
func TestFastPathEligibility(t *testing.T) {
	t.Parallel()
	pkg := func(path string, imports ...string) *listedPackage {
		return &listedPackage{ImportPath: path, GoFiles: []string{"x.go"}, Export: "/cache/" + path, Imports: imports}
	}
	tests := []struct {
		name    string
		edit    func(a *listedPackage)
		extra   []*listedPackage // dependencies besides b
		aImport string           // a's second import, if any
		want    string
	}{
		{name: "clean"},
		{name: "list error", edit: func(a *listedPackage) { a.Error = &listError{Err: "# ex/a\nx.go:3:1: syntax error"} }, want: "ex/a: x.go:3:1: syntax error"},
		{name: "dependency error", edit: func(a *listedPackage) {
			a.DepsErrors = []*listError{{Err: "no required module provides package ex/gone"}}
		}, want: "ex/a: no required module provides package ex/gone"},
		{name: "cgo", edit: func(a *listedPackage) { a.CgoFiles = []string{"c.go"} }, want: "ex/a uses cgo"},
		{name: "not compiled", edit: func(a *listedPackage) { a.Export = "" }, want: "ex/a was not compiled"},
		{name: "test files only", edit: func(a *listedPackage) { a.Export, a.GoFiles = "", nil }},
		{name: "dependency importing a target", extra: []*listedPackage{pkg("ex/d", "ex/c")}, aImport: "ex/d", want: "dependency ex/d imports a target package"},
		{name: "dependency importing a target indirectly", extra: []*listedPackage{pkg("ex/d", "ex/e"), pkg("ex/e", "ex/c")}, aImport: "ex/d", want: "dependency ex/d imports a target package"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b, c := pkg("ex/a", "ex/b"), pkg("ex/b", "fmt"), pkg("ex/c")
			if tt.aImport != "" {
				a.Imports = append(a.Imports, tt.aImport)
			}
			if tt.edit != nil {
				tt.edit(a)
			}
			list := &packageList{byPath: map[string]*listedPackage{}}
			for _, p := range append([]*listedPackage{a, b, c, pkg("fmt")}, tt.extra...) {
				list.byPath[p.ImportPath] = p
			}
			assert.Equal(t, tt.want, list.ineligible([]*listedPackage{a, c}))
		})
	}
	assert.Equal(t, "no package matched", (&packageList{}).ineligible(nil))
}

// A second load checks the targets while go list runs, against the first
// load's listing; the result stands only when go list confirms that
// listing, and it always reflects the files as they are now.
func TestLoadSpeculation(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cacheFile := filepath.Join(t.TempDir(), "listing.json")
	svc := func(name string) string {
		return "package svc\n\nimport \"context\"\n\ntype Service struct{}\n\n" +
			"//sentinel:resource name=" + name + "\nfunc (s *Service) Get(ctx context.Context) error { return nil }\n"
	}
	writeFiles(t, dir, map[string]string{
		"go.mod":     "module example.com/spec\n\ngo 1.26.0\n",
		"svc/svc.go": svc("first"),
	})
	load := func() ([]*Package, string) {
		t.Helper()
		var verbose bytes.Buffer
		results, ok := loadFastCached(dir, []string{"./..."}, Options{Verbose: &verbose}, cacheFile)
		require.True(t, ok, verbose.String())
		pkgs, diags := collect(results, nil)
		require.Empty(t, diags)
		return pkgs, verbose.String()
	}
	const confirmed = "while go list ran, against the previous listing, which still holds"

	pkgs, verbose := load()
	assert.NotContains(t, verbose, confirmed, "no listing yet")
	assert.Equal(t, "first", pkgs[0].Resources[0].Name)

	// Same files, new content: the listing holds and the new name is seen.
	writeFiles(t, dir, map[string]string{"svc/svc.go": svc("second")})
	pkgs, verbose = load()
	assert.Contains(t, verbose, confirmed)
	require.Len(t, pkgs, 1)
	assert.Equal(t, "second", pkgs[0].Resources[0].Name)
	slow, _, _, err := loadVia(routePackages, dir, []string{"./..."}, Options{}, nil)
	require.NoError(t, err)
	assert.Equal(t, modelFacts(slow, dir), modelFacts(pkgs, dir))

	// A new file changes the listing: the guess is dropped.
	writeFiles(t, dir, map[string]string{"svc/more.go": "package svc\n\n//sentinel:resource\nfunc Ping() error { return nil }\n"})
	pkgs, verbose = load()
	assert.NotContains(t, verbose, confirmed)
	require.Len(t, pkgs, 1)
	assert.Len(t, pkgs[0].Resources, 2)
}
