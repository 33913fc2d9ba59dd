package loader

import (
	"bytes"
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/internal/cachedir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMain points the cache at a directory of its own: tests never write
// into the user's cache.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "loader-test-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Setenv(cachedir.Env, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	}
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

// A second load type-checks the targets while go list runs, against the
// first load's listing; the result stands only when go list confirms that
// listing, and it always reflects the files as they are now.
func TestLoadSpeculation(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	svc := func(name string) string {
		return "package svc\n\nimport \"context\"\n\ntype Service struct{}\n\n" +
			"const Name = \"" + name + "\"\n\nfunc (s *Service) Get(ctx context.Context) error { return nil }\n"
	}
	writeFiles(t, dir, map[string]string{
		"go.mod":     "module example.com/spec\n\ngo 1.26.0\n",
		"svc/svc.go": svc("first"),
	})
	load := func() ([]*Package, string) {
		t.Helper()
		var verbose bytes.Buffer
		pkgs, route, err := Load(Config{Dir: dir, Patterns: []string{"./..."}, Verbose: &verbose, Route: RouteFast})
		require.NoError(t, err, verbose.String())
		require.Equal(t, RouteFast, route)
		return pkgs, verbose.String()
	}
	name := func(pkgs []*Package) string {
		t.Helper()
		require.Len(t, pkgs, 1)
		c, ok := pkgs[0].Types.Scope().Lookup("Name").(*types.Const)
		require.True(t, ok)
		return constant.StringVal(c.Val())
	}
	const confirmed = "while go list ran, against the previous listing, which still holds"

	pkgs, verbose := load()
	assert.NotContains(t, verbose, confirmed, "no listing yet")
	assert.Equal(t, "first", name(pkgs))

	// Same files, new content: the listing holds and the new value is seen.
	writeFiles(t, dir, map[string]string{"svc/svc.go": svc("second")})
	pkgs, verbose = load()
	assert.Contains(t, verbose, confirmed)
	assert.Equal(t, "second", name(pkgs))

	// A new file changes the listing: the guess is dropped.
	writeFiles(t, dir, map[string]string{"svc/more.go": "package svc\n\nfunc Ping() error { return nil }\n"})
	pkgs, verbose = load()
	assert.NotContains(t, verbose, confirmed)
	assert.Len(t, pkgs[0].Files, 2)

	// A speculation that the caller does not accept is not taken, and the
	// caller's judgement applies to the confirmed check too.
	_, _, err := Load(Config{Dir: dir, Patterns: []string{"./..."}, Route: RouteFast,
		Accept: func([]*Package) string { return "refused" }})
	assert.ErrorContains(t, err, "refused")
}

// The architecture that sizes types is the go command's, whatever sets it:
// here a go.env file, which the environment does not show.
func TestGoArchIsAskedOfTheGoCommand(t *testing.T) {
	t.Parallel()
	env := filepath.Join(t.TempDir(), "go.env")
	require.NoError(t, os.WriteFile(env, []byte("GOARCH=386\n"), 0o644))
	var clean []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOARCH=") && !strings.HasPrefix(kv, "GOENV=") {
			clean = append(clean, kv)
		}
	}
	arch, err := goArch(Config{Env: append(clean, "GOENV="+env)})
	require.NoError(t, err)
	assert.Equal(t, "386", arch)
	arch, err = goArch(Config{Env: append(clean, "GOENV="+env, "GOARCH=arm64")})
	require.NoError(t, err)
	assert.Equal(t, "arm64", arch, "the environment overrides go.env")
}

// A listing saved by another architecture is not trusted.
func TestSpeculationNeedsTheSameArchitecture(t *testing.T) {
	t.Parallel()
	was := &packageList{goarch: "amd64"}
	now := &packageList{goarch: "386"}
	assert.False(t, sameInputs(was, now, nil))
	now.goarch = "amd64"
	assert.True(t, sameInputs(was, now, nil))
}

func TestParsePosition(t *testing.T) {
	tests := []struct {
		in   string
		want token.Position
	}{
		{"/a/b.go:3:7", token.Position{Filename: "/a/b.go", Line: 3, Column: 7}},
		{"/a/b.go:3", token.Position{Filename: "/a/b.go", Line: 3}},
		{"C:/a/b.go:3:7", token.Position{Filename: "C:/a/b.go", Line: 3, Column: 7}},
		{"/a/b.go", token.Position{Filename: "/a/b.go"}},
		{"-", token.Position{}},
		{"", token.Position{}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, parsePosition(tt.in), tt.in)
	}
}
