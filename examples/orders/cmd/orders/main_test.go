package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// secondLine matches a per-second line: its number and the offered count.
var secondLine = regexp.MustCompile(`(?m)^\s+(\d+)\s+(\d+)\s+\d+\s+\d+\s+\d+\s+\d+\s+\d+\s+\S+\s+\S`)

// TestRun runs the command on the wall clock, then on simulated time. Both
// in one test, in this order: the runtime's statistics ignore writes older
// than their newest, and the simulated clock runs ahead of the real one.
func TestRun(t *testing.T) {
	t.Run("wall clock", func(t *testing.T) {
		if testing.Short() {
			t.Skip("takes about three seconds of wall-clock time")
		}
		var out bytes.Buffer
		if err := run(context.Background(), []string{"-duration=2s", "-qps=120", "-limit=80", "-slow-until=0s"}, &out); err != nil {
			t.Fatal(err)
		}
		t.Logf("\n%s", out.String())
		lines := secondLine.FindAllStringSubmatch(out.String(), -1)
		if len(lines) != 2 || lines[0][1] != "1" || lines[1][1] != "2" {
			t.Errorf("want lines for seconds 1 and 2, got %q", lines)
		}
		for _, want := range []string{"flow rule 80 QPS", " all     240 ", "handlers counted: blocked by flow "} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("output lacks %q", want)
			}
		}
	})
	t.Run("simulated", func(t *testing.T) {
		var out bytes.Buffer
		if err := run(context.Background(), []string{"-simulate"}, &out); err != nil {
			t.Fatal(err)
		}
		if n := len(secondLine.FindAllString(out.String(), -1)); n != 10 {
			t.Errorf("%d per-second lines, want 10:\n%s", n, out.String())
		}
		if !strings.Contains(out.String(), "OPEN → HALF_OPEN → CLOSED") {
			t.Errorf("the breaker never closed after a probe:\n%s", out.String())
		}
		if !strings.Contains(out.String(), "the columns:\n  sec ") {
			t.Errorf("the table comes without its legend:\n%s", out.String())
		}
	})
}

// TestRunWithRulesFile runs on simulated time with the example's rule file:
// its 100 QPS limit and slow-call breaker must shape the run as the flags'
// defaults do, and a missing file must stop the command before any load.
func TestRunWithRulesFile(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"-simulate", "-rules", "../../rules.toml"}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"rules from ../../rules.toml", "1 flow, 1 degrade", "OPEN → HALF_OPEN → CLOSED", "blocked by flow "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if err := run(context.Background(), []string{"-simulate", "-rules", "no-such-rules.toml"}, &bytes.Buffer{}); err == nil {
		t.Error("run with a missing rule file succeeded")
	}
}

func TestRunRejectsBadArguments(t *testing.T) {
	for _, args := range [][]string{{"-qps=0"}, {"-simulate", "extra"}, {"-no-such-flag"}} {
		var out bytes.Buffer
		if err := run(context.Background(), args, &out); err == nil {
			t.Errorf("run(%q) succeeded", args)
		}
	}
}

// TestRunWithBrokenRulesFile starts with a rule file that does not parse:
// the command must stop with the error once, naming the file and line, and
// say that no rules are in force, not that "the last good rules" stay (there
// were none).
func TestRunWithBrokenRulesFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rules.toml")
	if err := os.WriteFile(path, []byte("[[flow]]\nresource = \"createOrder\"\ncount = \"x\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err := run(context.Background(), []string{"-simulate", "-rules", path}, &out)
	if err == nil {
		t.Fatalf("run with a broken rule file succeeded:\n%s", out.String())
	}
	if want := "no rules are in force"; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q lacks %q", err, want)
	}
	if want := path + ":3: count"; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q lacks %q", err, want)
	}
	all := out.String() + err.Error()
	if strings.Contains(all, "last good rules") {
		t.Errorf("start-up speaks of last good rules when none were loaded:\n%s\n%v", out.String(), err)
	}
	if n := strings.Count(all, "want a number"); n != 1 {
		t.Errorf("the error appears %d times, want once:\n%s\n%v", n, out.String(), err)
	}
}
