package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The command prints each diagnostic as annotate's golden files hold it:
// the related positions ("... declared here") on tab-indented lines below
// the first, as the guide's diagnostics example shows. Every error case of
// testdata/golden is run through the command from its own directory.
func TestDiagnosticsPrintTheirRelatedLines(t *testing.T) {
	entries, err := os.ReadDir(goldenRoot())
	if err != nil {
		t.Fatal(err)
	}
	related := 0
	for _, e := range entries {
		want, err := os.ReadFile(filepath.Join(goldenRoot(), e.Name(), "diagnostics.golden"))
		if err != nil {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			tmp := caseModule(t, e.Name())
			t.Chdir(filepath.Join(tmp, e.Name()))
			code, _, stderr := invoke("./...")
			if code != exitProblems {
				t.Fatalf("exit %d; want %d (stderr %q)", code, exitProblems, stderr)
			}
			if stderr != string(want) {
				t.Errorf("stderr:\n%s\nwant diagnostics.golden:\n%s", stderr, want)
			}
		})
		related += strings.Count(string(want), "\n\t")
	}
	if related == 0 {
		t.Fatal("no golden case has a related line; the test shows nothing")
	}
}

// "help" is a verb, not a package named help.
func TestHelpIsASubcommand(t *testing.T) {
	caseModule(t, "gen_basic")
	code, stdout, stderr := invoke("help")
	if code != exitOK || !strings.Contains(stdout+stderr, "usage: sentinelgen [subcommand]") ||
		!strings.Contains(stdout+stderr, "Subcommands:") {
		t.Errorf("help: exit %d, stdout %q, stderr %q; want 0 and the usage with the subcommands", code, stdout, stderr)
	}
	code, stdout, stderr = invoke("help", "lint")
	if code != exitOK || !strings.Contains(stdout+stderr, "usage: sentinelgen lint") {
		t.Errorf("help lint: exit %d, stdout %q, stderr %q; want 0 and lint's usage", code, stdout, stderr)
	}
	if code, _, stderr := invoke("help", "no-such-verb"); code != exitUsage || !strings.Contains(stderr, `unknown subcommand "no-such-verb"`) {
		t.Errorf("help no-such-verb: exit %d, stderr %q; want %d naming it", code, stderr, exitUsage)
	}
}

// A flag after the packages is a flag: -check still writes nothing, and an
// unknown one is a usage error with the usage, not a package pattern.
func TestFlagsAfterPackages(t *testing.T) {
	tmp := caseModule(t, "gen_basic")
	code, stdout, stderr := invoke("./...", "-check")
	if code != exitProblems || !strings.Contains(stdout, filepath.Join("gen_basic", "sentinel_gen.go")+": missing") {
		t.Errorf("./... -check: exit %d, stdout %q, stderr %q; want the missing file listed", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(tmp, "gen_basic", "sentinel_gen.go")); !os.IsNotExist(err) {
		t.Error("./... -check wrote the generated file")
	}
	code, _, stderr = invoke("./...", "-no-such-flag")
	if code != exitUsage || !strings.Contains(stderr, "no-such-flag") || !strings.Contains(stderr, "usage: sentinelgen") {
		t.Errorf("./... -no-such-flag: exit %d, stderr %q; want %d, the flag named and the usage", code, stderr, exitUsage)
	}
	// Patterns on both sides of a flag are all read.
	code, stdout, _ = invoke("lint", "./gen_basic", "-json", "./gen_basic")
	if code != exitOK || strings.TrimSpace(stdout) != "[]" {
		t.Errorf("lint ./gen_basic -json: exit %d, stdout %q; want 0 and an empty JSON array", code, stdout)
	}
}

// Without patterns every subcommand works on the package in the current
// directory, and only on it.
func TestSubcommandsShareTheDefaultPattern(t *testing.T) {
	tmp := caseModule(t, "gen_basic", "gen_handlers")
	t.Chdir(filepath.Join(tmp, "gen_basic"))
	code, stdout, stderr := invoke("resources")
	if code != exitOK || !strings.Contains(stdout, "orders.go") || strings.Contains(stdout, "gen_handlers") {
		t.Errorf("resources: exit %d, stdout %q, stderr %q; want gen_basic's resources only", code, stdout, stderr)
	}
	code, _, stderr = invoke("lint")
	if code != exitOK || stderr != "" {
		t.Errorf("lint: exit %d, stderr %q; want gen_basic linted clean", code, stderr)
	}
	// At the module root, which holds no package, "." names nothing: the
	// go command's answer, not the packages below.
	t.Chdir(tmp)
	for _, sub := range []string{"resources", "lint"} {
		code, stdout, stderr = invoke(sub)
		if code != exitUsage || !strings.Contains(stderr, "no Go files") || strings.Contains(stdout, "orders.go") {
			t.Errorf("%s at the module root: exit %d, stdout %q, stderr %q; want %d and no Go files in .", sub, code, stdout, stderr, exitUsage)
		}
	}
}

// parse reads flags and patterns in any order; after "--" all are patterns.
func TestParseInterleavesFlagsAndPatterns(t *testing.T) {
	cases := []struct {
		args     []string
		patterns []string
		verbose  bool
	}{
		{nil, []string{"."}, false},
		{[]string{"./a", "-v", "./b"}, []string{"./a", "./b"}, true},
		{[]string{"-v", "./a"}, []string{"./a"}, true},
		{[]string{"./a", "--", "-v"}, []string{"./a", "-v"}, false},
		{[]string{"-tags", "x", "./a", "-v"}, []string{"./a"}, true},
	}
	for _, tc := range cases {
		var stderr strings.Builder
		c := newCommand("t", &stderr, nil, nil)
		if _, ok := c.parse(tc.args); !ok {
			t.Errorf("%q: rejected: %s", tc.args, stderr.String())
			continue
		}
		if got := c.patterns(); strings.Join(got, " ") != strings.Join(tc.patterns, " ") || *c.verbose != tc.verbose {
			t.Errorf("%q: patterns %q, -v %v; want %q, %v", tc.args, got, *c.verbose, tc.patterns, tc.verbose)
		}
	}
}
