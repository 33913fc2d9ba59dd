package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/internal/servertest"
	"github.com/sentinelgen/sentinelgen/lint"
)

// lintCase makes a case of lint's testdata module the working directory.
func lintCase(t *testing.T, name string) {
	t.Helper()
	t.Chdir(filepath.Join(repoRoot, "lint", "testdata", name))
}

func TestLintExitCodes(t *testing.T) {
	cases := []struct {
		dir  string
		args []string
		code int
		out  string // a line the output must hold ("" for no output)
	}{
		{"clean", []string{"-rules", "."}, exitOK, ""},
		{"no-slow-breaker", []string{"-rules", "rules.toml"}, exitOK, "rules.toml:1: [no-slow-breaker]"},
		{"unknown-resource", []string{"-rules", "rules.toml", "."}, exitProblems, "rules.toml:2: [unknown-resource]"},
		// The valid file beside the invalid one is still checked.
		{"invalid-rule", []string{"-rules", "."}, exitProblems, "refund.toml:3: [unknown-resource]"},
		{"invalid-rule", []string{"-rules", "."}, exitProblems, "rules.toml:4: [invalid-rule]"},
		{"clean", []string{"-rules", "no-such-file.toml"}, exitUsage, ""},
		{"clean", []string{"-no-such-flag"}, exitUsage, ""},
	}
	for _, c := range cases {
		t.Run(c.dir+" "+strings.Join(c.args, " "), func(t *testing.T) {
			lintCase(t, c.dir)
			code, stdout, stderr := invoke(append([]string{"lint"}, c.args...)...)
			if code != c.code {
				t.Errorf("exit %d, want %d; stdout:\n%s\nstderr:\n%s", code, c.code, stdout, stderr)
			}
			if c.out == "" && stdout != "" || !strings.Contains(stdout, c.out) {
				t.Errorf("stdout:\n%s\nwant a line starting %q", stdout, c.out)
			}
		})
	}
}

func TestLintJSON(t *testing.T) {
	lintCase(t, "unknown-resource")
	code, stdout, stderr := invoke("lint", "-json", "-rules", ".")
	if code != exitProblems {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitProblems, stderr)
	}
	var got []map[string]any
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, stdout)
	}
	if len(got) == 0 {
		t.Fatal("no findings")
	}
	first := got[0]
	for _, key := range []string{"file", "line", "path", "check", "severity", "message"} {
		if _, ok := first[key]; !ok {
			t.Errorf("finding without %q: %v", key, first)
		}
	}
	if first["file"] != "rules.toml" || first["check"] != "unknown-resource" || first["severity"] != "error" ||
		first["suggestion"] != "unknown.createOrder" {
		t.Errorf("first finding %v", first)
	}

	lintCase(t, "clean")
	code, stdout, _ = invoke("lint", "-json", "-rules", ".")
	if code != exitOK || strings.TrimSpace(stdout) != "[]" {
		t.Errorf("clean: exit %d, output %q; want 0 and an empty array", code, stdout)
	}
}

func TestLintListNamesEveryCheck(t *testing.T) {
	code, stdout, _ := invoke("lint", "-list")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	for _, c := range lint.Checks() {
		if !strings.Contains(stdout, c.ID+" ("+c.Severity.String()+")\n") || !strings.Contains(stdout, c.Lesson) {
			t.Errorf("-list misses %s or its lesson", c.ID)
		}
	}
}

// The example's rules are kept lint-clean: the command its rules.toml
// documents finds nothing, from the repository root as the comment says.
func TestLintExampleRulesAreClean(t *testing.T) {
	t.Chdir(repoRoot)
	code, stdout, stderr := invoke("lint", "-rules", filepath.Join("examples", "orders", "rules.toml"), "./examples/...")
	if code != exitOK || stdout != "" || stderr != "" {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s\nwant exit 0 and no output", code, stdout, stderr)
	}
}

// -v, shared by every subcommand, reports the load on stderr and leaves the
// findings on stdout alone.
func TestLintVerbose(t *testing.T) {
	lintCase(t, "clean")
	code, stdout, stderr := invoke("lint", "-v", "-rules", ".")
	if code != exitOK || stdout != "" || !strings.Contains(stderr, "sentinelgen lint: loaded 1 clean packages") {
		t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 0, no findings and the load reported", code, stdout, stderr)
	}
}

// A rule file that cannot be read stops the run (exit 2) with that file's
// error alone: the invalid rules beside it are for a run that can go on.
func TestLintUnreadableRuleFileStopsWithItsErrorAlone(t *testing.T) {
	lintCase(t, "invalid-rule")
	code, stdout, stderr := invoke("lint", "-rules", "rules.toml", "-rules", "no-such-file.toml")
	if code != exitUsage || stdout != "" || !strings.Contains(stderr, "no-such-file.toml") || strings.Contains(stderr, "count") {
		t.Errorf("exit %d, stdout %q, stderr %q; want %d and only the missing file named", code, stdout, stderr, exitUsage)
	}
}

// lint prints the related places of a directive finding (the handler's
// declaration) as generate does, and in -json as "related".
func TestLintPrintsRelatedLines(t *testing.T) {
	lintCase(t, "directive")
	code, stdout, _ := invoke("lint", "-rules", ".")
	if code != exitProblems || !strings.Contains(stdout, "ship.go:8: [directive] fallback shipFallback has the wrong signature") ||
		!strings.Contains(stdout, "\n\tship.go:11: shipFallback declared here\n") {
		t.Errorf("exit %d, stdout:\n%s\nwant the finding and its related line", code, stdout)
	}
	code, stdout, _ = invoke("lint", "-json", "-rules", ".")
	var got []struct {
		File    string
		Related []struct {
			File    string
			Line    int
			Message string
		}
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil || code != exitProblems {
		t.Fatalf("exit %d, output is not JSON (%v):\n%s", code, err, stdout)
	}
	found := false
	for _, d := range got {
		if d.File == "ship.go" && len(d.Related) == 1 {
			r := d.Related[0]
			found = r.File == "ship.go" && r.Line == 11 && r.Message == "shipFallback declared here"
		}
	}
	if !found {
		t.Errorf("no ship.go finding with its related place in:\n%s", stdout)
	}
}

// Rules kept in a store are linted where they live: the findings name the
// key and the JSON line of the rule, as they name a file's, and an invalid
// rule there is reported beside the checks of the valid ones.
func TestLintRulesInAStore(t *testing.T) {
	addr := servertest.StartRedis(t)
	servertest.Redis(t, addr, "", "SET", "orders-flow-rules",
		"[\n  {\"resource\": \"unknown.createOrder\", \"count\": 100},\n  {\"resource\": \"unknown.creatOrder\", \"count\": 100}\n]")
	servertest.Redis(t, addr, "", "SET", "orders-degrade-rules",
		"[\n  {\"resource\": \"unknown.createOrder\", \"grade\": 2, \"count\": -3, \"timeWindow\": 10}\n]")
	lintCase(t, "unknown-resource")

	code, stdout, stderr := invoke("lint", "-rules", "redis://"+addr+"/?key=orders-flow-rules,orders-degrade-rules", ".")
	if code != exitProblems {
		t.Errorf("exit %d, want %d; stderr:\n%s", code, exitProblems, stderr)
	}
	for _, want := range []string{
		`redis:orders-flow-rules:3: [1]: [unknown-resource] resource "unknown.creatOrder" is neither declared`,
		"redis:orders-degrade-rules:2: [0].count: [invalid-rule] count: -3 must be",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "orders-flow-rules:2:") {
		t.Errorf("the rule of a declared resource was reported:\n%s", stdout)
	}

	// A store that holds none of the keys stops the run, naming them.
	code, _, stderr = invoke("lint", "-rules", "redis://"+addr+"/?key=orders-flw-rules", ".")
	if code != exitUsage || !strings.Contains(stderr, "orders-flw-rules") {
		t.Errorf("exit %d, stderr %q; want %d naming the missing key", code, stderr, exitUsage)
	}
}
