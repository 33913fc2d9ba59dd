package lint

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/sentinelgen/sentinelgen/annotate"
	"github.com/sentinelgen/sentinelgen/rules"
)

var update = flag.Bool("update", false, "rewrite the want.txt files of testdata")

// casesModule is the path of the testdata module; each case is one
// directory (one package) of it.
const casesModule = "example.com/lintcases/"

// loadCases loads every case package of testdata in one go list run (which
// is what keeps the tests fast); resource names are unique across cases.
var loadCases = sync.OnceValues(func() (loaded, error) {
	root, err := filepath.Abs("testdata")
	if err != nil {
		return loaded{}, err
	}
	pkgs, diags, err := annotate.Load(root, []string{"./..."}, annotate.Options{})
	return loaded{root, pkgs, diags}, err
})

type loaded struct {
	root  string
	pkgs  []*annotate.Package
	diags []annotate.Diagnostic
}

// runCase lints one case directory: its package, its code diagnostics and
// every rule file in it, read from the case directory as the working
// directory so that rule positions are relative, as users' usually are.
func runCase(t *testing.T, l loaded, name string) []Diagnostic {
	t.Helper()
	dir := filepath.Join(l.root, name)
	t.Chdir(dir)
	var pkgs []*annotate.Package
	for _, p := range l.pkgs {
		if p.Path == casesModule+name {
			pkgs = append(pkgs, p)
		}
	}
	var code []annotate.Diagnostic
	for _, d := range l.diags {
		if filepath.Dir(d.Pos.Filename) == dir {
			code = append(code, d)
		}
	}
	set, err := rules.LoadAll(".")
	if err != nil && len(rules.Errors(err)) == 0 {
		t.Fatalf("reading the rules: %v", err)
	}
	return Run(pkgs, set, Options{RulesErr: err, Code: code})
}

// format renders diagnostics as the command prints them, with Go files
// (absolute) relative to the case directory.
func format(ds []Diagnostic, dir string) string {
	var b strings.Builder
	rel := func(file string) string {
		if r, err := filepath.Rel(dir, file); err == nil && filepath.IsAbs(file) {
			return filepath.ToSlash(r)
		}
		return file
	}
	for _, d := range ds {
		d.Pos.File = rel(d.Pos.File)
		d.Related = slices.Clone(d.Related)
		for i := range d.Related {
			d.Related[i].Pos.File = rel(d.Related[i].Pos.File)
		}
		b.WriteString(d.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// TestGolden lints each case of testdata and compares the findings with
// its want.txt, line for line: a missing or an extra diagnostic fails.
// A case named after a check must report that check; the case "clean"
// must report nothing.
func TestGolden(t *testing.T) {
	l, err := loadCases()
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	entries, err := os.ReadDir(l.root)
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]bool{}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		name := e.Name()
		diags := runCase(t, l, name)
		for _, d := range diags {
			covered[d.Check] = true
		}
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(l.root, name)
			got := format(diags, dir)
			wantFile := filepath.Join(dir, "want.txt")
			if *update {
				if err := os.WriteFile(wantFile, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(wantFile)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("diagnostics differ from want.txt (run with -update to accept)\ngot:\n%s\nwant:\n%s", got, want)
			}
			switch {
			case name == "clean":
				if len(diags) != 0 {
					t.Errorf("the clean case reports %d diagnostics", len(diags))
				}
			case !slices.ContainsFunc(diags, func(d Diagnostic) bool { return d.Check == name }):
				t.Errorf("case %s does not report its check", name)
			}
		})
	}
	for _, c := range checks {
		if !covered[c.ID] {
			t.Errorf("no case of testdata reports %s", c.ID)
		}
	}
}
