package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
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
	r, err := run(context.Background(), []string{"-packages=3", "-methods=2", "-runs=1", "-repo=" + repoRoot(t), "-dir=" + work}, &out)
	if err != nil {
		t.Fatalf("%v\noutput:\n%s", err, out.String())
	}
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
	again, err := run(context.Background(), []string{"-runs=1", "-repo=" + repoRoot(t), "-dir=" + t.TempDir(),
		"-module=" + r.Dir, "-baseline=" + filepath.Join(work, "bin", "sentinelgen")}, &out)
	if err != nil {
		t.Fatalf("-module: %v\noutput:\n%s", err, out.String())
	}
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
