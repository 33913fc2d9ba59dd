package gen

import (
	"bytes"
	"flag"
	"go/format"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/annotate"
)

var update = flag.Bool("update", false, "rewrite the sentinel_gen.go.golden files from the generator's output")

// goldenRoot is the testdata module holding one case per directory.
func goldenRoot(t testing.TB) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "testdata", "golden"))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// cleanCases lists the case directories that want no diagnostics, i.e.
// those the generator must produce output for.
func cleanCases(t testing.TB, root string) []string {
	t.Helper()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		diags, err := os.ReadFile(filepath.Join(root, e.Name(), "diagnostics.golden"))
		if err == nil && len(bytes.TrimSpace(diags)) > 0 {
			continue
		}
		cases = append(cases, e.Name())
	}
	return cases
}

// loadCases loads the clean cases in one go/packages call (a load costs far
// more than checking) and returns the packages by directory: one model per
// generated file, several for a package with build-constrained directives.
func loadCases(t testing.TB, root string, cases []string) map[string][]*annotate.Package {
	t.Helper()
	patterns := make([]string, len(cases))
	for i, c := range cases {
		patterns[i] = "./" + c + "/..."
	}
	pkgs, diags, err := annotate.Load(root, patterns, annotate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range diags {
		t.Errorf("unexpected diagnostic: %s", d)
	}
	byDir := make(map[string][]*annotate.Package, len(pkgs))
	for _, p := range pkgs {
		byDir[p.Dir] = append(byDir[p.Dir], p)
	}
	return byDir
}

// TestGolden generates every clean case and compares the output with the
// golden file of each of its packages; a package without resources must
// have none. With -update it rewrites them.
func TestGolden(t *testing.T) {
	root := goldenRoot(t)
	cases := cleanCases(t, root)
	byDir := loadCases(t, root, cases)
	for _, c := range cases {
		t.Run(c, func(t *testing.T) {
			dirs := packageDirs(byDir, filepath.Join(root, c))
			if len(dirs) == 0 {
				t.Fatalf("no package loaded from %s", c)
			}
			for _, dir := range dirs {
				for _, p := range byDir[dir] {
					checkGolden(t, p)
				}
			}
		})
	}
}

// packageDirs returns the loaded package directories inside caseDir, sorted.
func packageDirs[P any](byDir map[string]P, caseDir string) []string {
	var dirs []string
	for dir := range byDir {
		if dir == caseDir || strings.HasPrefix(dir, caseDir+string(filepath.Separator)) {
			dirs = append(dirs, dir)
		}
	}
	sort.Strings(dirs)
	return dirs
}

func checkGolden(t *testing.T, pkg *annotate.Package) {
	t.Helper()
	got, err := Generate(pkg)
	if err != nil {
		t.Fatalf("%s: %v", pkg.Path, err)
	}
	again, err := Generate(pkg)
	if err != nil || !bytes.Equal(got, again) {
		t.Errorf("%s: a second Generate gave different output", pkg.Path)
	}
	if got != nil {
		formatted, err := format.Source(got)
		if err != nil || !bytes.Equal(formatted, got) {
			t.Errorf("%s: output is not gofmt-stable (err %v)", pkg.Path, err)
		}
		if !bytes.HasPrefix(got, []byte(Header+"\n")) {
			t.Errorf("%s: output does not start with %q", pkg.Path, Header)
		}
	}

	path := filepath.Join(pkg.Dir, fileName(pkg)+".golden")
	if *update {
		if got == nil {
			if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			return
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	switch {
	case os.IsNotExist(err) && got == nil:
		return
	case os.IsNotExist(err):
		t.Fatalf("%s: no %s; run go test ./gen -run TestGolden -update", pkg.Path, filepath.Base(path))
	case err != nil:
		t.Fatal(err)
	case got == nil:
		t.Fatalf("%s: generator produced nothing but %s exists", pkg.Path, filepath.Base(path))
	case !bytes.Equal(got, want):
		t.Errorf("%s: output differs from %s:\n%s", pkg.Path, filepath.Base(path), lineDiff(string(want), string(got)))
	}
}

// lineDiff shows the first differing lines of want and got, enough to see
// what changed without a diff library.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + wl + "\n  got:  " + gl
		}
	}
	return "(identical lines, different bytes)"
}
