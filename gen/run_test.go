package gen

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/annotate"
)

// TestGeneratedCodeRuns proves the golden files are code that compiles and
// behaves: it copies the clean cases of the testdata module to a temporary
// module, installs each golden file as the package's sentinel_gen.go and
// runs the cases' own behaviour tests (blocks, fallbacks, tracing, panics,
// interface assertions) with one `go test` over the whole module.
func TestGeneratedCodeRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the testdata module")
	}
	cases := cleanCases(t, goldenRoot(t))
	goTool, tmp := testdataModule(t, cases...)

	var patterns []string
	for _, c := range cases {
		patterns = append(patterns, "./"+c+"/...")
	}
	goCmd := func(verb string, flags ...string) []byte {
		cmd := exec.Command(goTool, append(append([]string{verb}, flags...), patterns...)...)
		cmd.Dir = tmp
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s in the testdata module failed: %v\n%s", verb, err, out)
		}
		return out
	}
	// go test also builds the packages without tests, and vets them all.
	out := goCmd("test", "-count=1")
	// Every case with a golden file has behaviour tests; make sure they ran.
	for _, c := range cases {
		if strings.HasPrefix(c, "gen_") && !strings.Contains(string(out), "example.com/golden/"+c+"\t") {
			t.Errorf("no test result for %s:\n%s", c, out)
		}
	}
}

// testdataModule lays out a temporary module holding the named cases of
// testdata/golden, each with its golden files installed (see copyCase),
// requiring this checkout's runtime; it returns the go command and the
// module's directory, or skips the test when there is no go command.
func testdataModule(t *testing.T, cases ...string) (goTool, dir string) {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	root := goldenRoot(t)
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	for _, c := range cases {
		copyCase(t, filepath.Join(root, c), filepath.Join(dir, c))
	}
	writeModule(t, filepath.Join(root, "go.mod"), filepath.Join(dir, "go.mod"), repo)
	return goTool, dir
}

// copyCase copies one case directory. The golden files of each package
// become its sentinel_gen.go and sentinel_gen_*.go; a generated file already in the case (a
// stale one, say) is replaced by it, or removed when there is no golden file.
func copyCase(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		name := d.Name()
		switch {
		case annotate.IsGeneratedFile(name), name == "diagnostics.golden":
			return nil
		case strings.HasSuffix(name, ".go.golden") && annotate.IsGeneratedFile(strings.TrimSuffix(name, ".golden")):
			dst = filepath.Join(filepath.Dir(dst), strings.TrimSuffix(name, ".golden"))
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// writeModule copies the testdata go.mod, pointing its replace directive at
// the repository by absolute path.
func writeModule(t *testing.T, from, to, repo string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	mod := strings.Replace(string(data), "=> ../../", "=> "+repo, 1)
	if mod == string(data) {
		t.Fatalf("%s has no replace => ../../", from)
	}
	if err := os.WriteFile(to, []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestAssertionCatchesAnEditedHandler edits a handler after generation in a
// way the generated call still compiles with (its *runtime.BlockError
// parameter widened to error): only the signature assertion can catch it,
// and the build error must name the handler.
func TestAssertionCatchesAnEditedHandler(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	root := goldenRoot(t)
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	copyCase(t, filepath.Join(root, "gen_basic"), filepath.Join(tmp, "gen_basic"))
	writeModule(t, filepath.Join(root, "go.mod"), filepath.Join(tmp, "go.mod"), repo)

	build := func() (string, error) {
		cmd := exec.Command("go", "build", "./gen_basic")
		cmd.Dir = tmp
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := build(); err != nil {
		t.Fatalf("the case does not build before the edit: %v\n%s", err, out)
	}

	src := filepath.Join(tmp, "gen_basic", "orders.go")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	const before = "blockErr *runtime.BlockError) (*Order, error) {"
	edited := strings.Replace(string(data), before, "blockErr error) (*Order, error) {", 1)
	if edited == string(data) {
		t.Fatalf("orders.go has no %q", before)
	}
	if err := os.WriteFile(src, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := build()
	if err == nil {
		t.Fatal("the build succeeded with a handler that no longer matches")
	}
	if !strings.Contains(out, annotate.GeneratedFileName) || !strings.Contains(out, "(*OrderService).createOrderBlocked") {
		t.Fatalf("the build error does not point at the assertion naming the handler:\n%s", out)
	}
}
