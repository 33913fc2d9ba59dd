package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/gen"
)

// repoRoot is the repository, resolved before any test changes directory.
var repoRoot = func() string {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		panic(err)
	}
	return root
}()

// goldenRoot is the testdata module whose cases the tests copy.
func goldenRoot() string { return filepath.Join(repoRoot, "testdata", "golden") }

// caseModule copies the named cases of the testdata module into a new
// module in a temporary directory, makes it the working directory and
// returns it. Files named like generated ones are copied as they are (a
// stale sentinel_gen.go stays stale); golden files are not copied.
func caseModule(t *testing.T, cases ...string) string {
	t.Helper()
	root := goldenRoot()
	tmp := t.TempDir()
	mod := "module example.com/golden\n\ngo 1.26.0\n\nrequire github.com/sentinelgen/sentinelgen v0.0.0\n\nreplace github.com/sentinelgen/sentinelgen => " + repoRoot + "\n"
	if err := os.WriteFile(filepath.Join(tmp, "go.mod"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		from := filepath.Join(root, c)
		err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(from, path)
			dst := filepath.Join(tmp, c, rel)
			if d.IsDir() {
				return os.MkdirAll(dst, 0o755)
			}
			if strings.HasSuffix(d.Name(), ".golden") {
				return nil
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
	t.Chdir(tmp)
	// A cache of the test's own, so that the tests run with the cache on
	// (as users do) and never touch the user's.
	t.Setenv(gen.CacheEnv, t.TempDir())
	return tmp
}

// invoke runs the command in-process.
func invoke(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestUsageErrorsExitTwo(t *testing.T) {
	caseModule(t, "gen_basic")
	if code, _, stderr := invoke("-no-such-flag"); code != exitUsage || !strings.Contains(stderr, "no-such-flag") {
		t.Errorf("bad flag: exit %d, stderr %q; want %d and the flag named", code, stderr, exitUsage)
	}
	if code, _, _ := invoke("-h"); code != exitOK {
		t.Errorf("-h: exit %d; want %d", code, exitOK)
	}
	// Outside any module the loader fails.
	t.Chdir(t.TempDir())
	if code, _, stderr := invoke("./..."); code != exitUsage || stderr == "" {
		t.Errorf("no module: exit %d, stderr %q; want %d and the loader's error", code, stderr, exitUsage)
	}
}

func TestDiagnosticsExitOneAndWriteNothing(t *testing.T) {
	tmp := caseModule(t, "err_unknown_key", "gen_basic")
	code, _, stderr := invoke("./...")
	if code != exitProblems {
		t.Fatalf("exit %d; want %d (stderr %q)", code, exitProblems, stderr)
	}
	first := strings.SplitN(stderr, "\n", 2)[0]
	if !strings.Contains(first, filepath.Join("err_unknown_key", "")) || strings.Count(first, ":") < 3 {
		t.Errorf("first diagnostic %q; want file:line:col: message in err_unknown_key", first)
	}
	if _, err := os.Stat(filepath.Join(tmp, "err_unknown_key", "sentinel_gen.go")); !os.IsNotExist(err) {
		t.Errorf("a package with problems got a generated file (stat err %v)", err)
	}
	// The clean package of the same run is still written.
	if _, err := os.Stat(filepath.Join(tmp, "gen_basic", "sentinel_gen.go")); err != nil {
		t.Errorf("the clean package was not generated: %v", err)
	}
}

func TestCheckFindsMissingStaleAndLeftOverFiles(t *testing.T) {
	tmp := caseModule(t, "gen_basic")
	generated := filepath.Join(tmp, "gen_basic", "sentinel_gen.go")
	wantGolden, err := os.ReadFile(filepath.Join(goldenRoot(), "gen_basic", "sentinel_gen.go.golden"))
	if err != nil {
		t.Fatal(err)
	}

	expectCheck := func(wantCode int, wantListed string) {
		t.Helper()
		code, stdout, stderr := invoke("-check", "./...")
		if code != wantCode || !strings.Contains(stdout, wantListed) {
			t.Fatalf("-check: exit %d, stdout %q, stderr %q; want %d listing %q", code, stdout, stderr, wantCode, wantListed)
		}
	}

	expectCheck(exitProblems, filepath.Join("gen_basic", "sentinel_gen.go")+": missing")
	if _, err := os.Stat(generated); !os.IsNotExist(err) {
		t.Fatal("-check wrote a file")
	}

	code, stdout, stderr := invoke("-v", "./...")
	if code != exitOK {
		t.Fatalf("generate: exit %d, stderr %q", code, stderr)
	}
	if stdout != "" || !strings.Contains(stderr, "example.com/golden/gen_basic") || !strings.Contains(stderr, "wrote") {
		t.Errorf("-v: stdout %q, stderr %q; want the package and the write reported on stderr only", stdout, stderr)
	}
	if got, _ := os.ReadFile(generated); !bytes.Equal(got, wantGolden) {
		t.Fatal("the written file differs from the golden file")
	}
	expectCheck(exitOK, "")
	// The file is up to date and the -check run found nothing to do: the
	// rerun stops after go list, rendering and parsing nothing.
	if code, _, stderr := invoke("-v", "./..."); code != exitOK || !strings.Contains(stderr, unchangedLine) {
		t.Fatalf("rerun: exit %d, stderr %q; want the run known from the cache", code, stderr)
	}

	// A hand edit is stale although the cache knows the package's model.
	if err := os.WriteFile(generated, append(wantGolden, "// edited\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	expectCheck(exitProblems, ": stale")
	if code, _, _ := invoke("generate", "./..."); code != exitOK { // the explicit subcommand
		t.Fatalf("generate subcommand: exit %d", code)
	}
	if got, _ := os.ReadFile(generated); !bytes.Equal(got, wantGolden) {
		t.Fatal("regeneration did not restore the stale file")
	}

	// Without directives the package's generated file is left over.
	src := filepath.Join(tmp, "gen_basic", "orders.go")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(src, bytes.ReplaceAll(data, []byte("//sentinel:resource"), []byte("// was a directive:")), 0o644); err != nil {
		t.Fatal(err)
	}
	// The package's test refers to the generated names; it is not loaded
	// for generation, but keep the module buildable.
	if err := os.Remove(filepath.Join(tmp, "gen_basic", "orders_test.go")); err != nil {
		t.Fatal(err)
	}
	expectCheck(exitProblems, ": left over")
	if code, _, _ := invoke("./..."); code != exitOK {
		t.Fatal("generate did not succeed on a package without directives")
	}
	if _, err := os.Stat(generated); !os.IsNotExist(err) {
		t.Fatal("the left-over file was not deleted")
	}
}

func TestRegenerationFixesAStaleFileThatNoLongerCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	tmp := caseModule(t, "ok_stale_generated")
	build := func() error {
		cmd := exec.Command("go", "build", "./...")
		cmd.Dir = tmp
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Logf("go build: %s", out)
		}
		return err
	}
	if build() == nil {
		t.Fatal("the stale case builds before regeneration; it proves nothing")
	}
	if code, _, stderr := invoke("./..."); code != exitOK {
		t.Fatalf("generate: exit %d, stderr %q", code, stderr)
	}
	if err := build(); err != nil {
		t.Fatalf("still broken after regeneration: %v", err)
	}
	if code, stdout, _ := invoke("-check", "./..."); code != exitOK {
		t.Fatalf("-check after regeneration: exit %d, %q", code, stdout)
	}
}

func TestSplitTagsAcceptsCommasAndSpaces(t *testing.T) {
	tests := map[string][]string{
		"":           nil,
		"a":          {"a"},
		"a,b":        {"a", "b"},
		"a b":        {"a", "b"},
		" a, b ,,c ": {"a", "b", "c"},
	}
	for in, want := range tests {
		got := splitTags(in)
		if strings.Join(got, "|") != strings.Join(want, "|") || len(got) != len(want) {
			t.Errorf("splitTags(%q) = %q; want %q", in, got, want)
		}
	}
}

func TestTagsReachTheLoader(t *testing.T) {
	tmp := caseModule(t, "gen_basic")
	// A file excluded by default that breaks the package when included.
	broken := "//go:build sentinelgen_broken\n\npackage basic\n\nvar _ int = \"not an int\"\n"
	if err := os.WriteFile(filepath.Join(tmp, "gen_basic", "broken.go"), []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := invoke("-check", "./..."); code != exitProblems || strings.Contains(stderr, "not an int") {
		t.Fatalf("without -tags: exit %d, stderr %q; want only the missing file reported", code, stderr)
	}
	if code, _, stderr := invoke("-check", "-tags", "sentinelgen_broken", "./..."); code != exitProblems || !strings.Contains(stderr, "broken.go") {
		t.Fatalf("with -tags: exit %d, stderr %q; want the tagged file's type error", code, stderr)
	}
}

func TestCacheOffRendersEveryPackage(t *testing.T) {
	caseModule(t, "gen_basic")
	t.Setenv(gen.CacheEnv, "off")
	for run := range 2 {
		code, _, stderr := invoke("-v", "./...")
		if code != exitOK || strings.Contains(stderr, "cached") {
			t.Fatalf("run %d with %s=off: exit %d, stderr %q; want success without the cache", run, gen.CacheEnv, code, stderr)
		}
	}
}
