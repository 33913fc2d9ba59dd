package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRunTiny runs the whole measurement on a 3 x 2 module, so that the
// script keeps working as the generator changes: sentinelgen must generate
// one file per package and go list -export must compile them.
func TestRunTiny(t *testing.T) {
	if testing.Short() {
		t.Skip("builds sentinelgen and runs the go command")
	}
	var out bytes.Buffer
	work := t.TempDir()
	rs, err := run(context.Background(), []string{"-packages=3", "-methods=2", "-runs=1", "-repo=" + repoRoot(t), "-dir=" + work}, &out)
	if err != nil || len(rs) != 1 {
		t.Fatalf("%d results, %v\noutput:\n%s", len(rs), err, out.String())
	}
	r := rs[0]
	if r.List <= 0 || r.Gen <= 0 || r.Check <= 0 {
		t.Errorf("medians must be positive: %+v", r)
	}
	if want := r.Gen.Seconds() / r.List.Seconds(); r.Ratio != want {
		t.Errorf("ratio %v, want gen/list = %v", r.Ratio, want)
	}
	for _, label := range []string{labelList, labelGen, labelCheck, "ratio sentinelgen / go list:"} {
		if !strings.Contains(out.String(), label) {
			t.Errorf("output lacks %q:\n%s", label, out.String())
		}
	}

	// The same module measured as an existing one, with the binary just
	// built as the baseline: the module is left as it is.
	out.Reset()
	agains, err := run(context.Background(), []string{"-runs=1", "-repo=" + repoRoot(t), "-dir=" + t.TempDir(),
		"-module=" + r.Dir, "-baseline=" + filepath.Join(work, "bin", "sentinelgen")}, &out)
	if err != nil || len(agains) != 1 {
		t.Fatalf("-module: %d results, %v\noutput:\n%s", len(agains), err, out.String())
	}
	again := agains[0]
	if again.Dir != r.Dir || !strings.Contains(out.String(), labelBase) {
		t.Errorf("-module measured %s, want %s, with the baseline timed:\n%s", again.Dir, r.Dir, out.String())
	}
}

func TestRunRejectsBadCounts(t *testing.T) {
	var out bytes.Buffer
	if _, err := run(context.Background(), []string{"-packages=0"}, &out); err == nil {
		t.Error("run accepted -packages=0")
	}
}

// TestRunAnnotated measures an existing module through -annotate: the copy
// gets the directives and the runtime, sentinelgen generates for it, go list
// compiles the result, and the original is left without directives.
func TestRunAnnotated(t *testing.T) {
	if testing.Short() {
		t.Skip("builds sentinelgen and runs the go command")
	}
	plain := t.TempDir()
	for name, content := range plainFiles {
		writeTestFile(t, filepath.Join(plain, name), content)
	}
	var out bytes.Buffer
	rs, err := run(context.Background(), []string{"-synthetic=false", "-annotate=" + plain, "-runs=1", "-repo=" + repoRoot(t), "-dir=" + t.TempDir()}, &out)
	if err != nil || len(rs) != 1 {
		t.Fatalf("%d results, %v\noutput:\n%s", len(rs), err, out.String())
	}
	if rs[0].Generated != 1 || !strings.Contains(out.String(), "with 4 directives added") {
		t.Errorf("%d generated files, want 1 (package store), and 4 directives:\n%s", rs[0].Generated, out.String())
	}
	if n, err := countDirectives(plain); err != nil || n != 0 {
		t.Errorf("the original module has %d directives (%v), want none", n, err)
	}
}

func TestRunNeedsAModule(t *testing.T) {
	var out bytes.Buffer
	if _, err := run(context.Background(), []string{"-synthetic=false"}, &out); err == nil {
		t.Error("run accepted -synthetic=false with nothing else to measure")
	}
}

func TestPrintSummary(t *testing.T) {
	var out bytes.Buffer
	printSummary(&out, []result{
		{Name: "synthetic", List: time.Second, Gen: 1100 * time.Millisecond, Check: time.Second, Base: 2 * time.Second, Ratio: 1.1},
		{Name: "server + directives", List: time.Second, Gen: 1300 * time.Millisecond, Check: time.Second, Base: time.Second, Ratio: 1.3},
	}, true)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("want a title, a header and two rows:\n%s", out.String())
	}
	for i, want := range [][]string{{"synthetic", "1.10s", "1.10", "2.00s", "2.00", "meets"}, {"server + directives", "1.30", "MISSES"}} {
		for _, w := range want {
			if !strings.Contains(lines[2+i], w) {
				t.Errorf("row %d lacks %q: %s", i, w, lines[2+i])
			}
		}
	}
}
