package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	lines := func(n int) []string {
		var out []string
		for i := 1; i <= n; i++ {
			out = append(out, "l"+string(rune('a'+i-1)))
		}
		return out
	}
	text := func(ls []string) []byte {
		if len(ls) == 0 {
			return nil
		}
		return []byte(strings.Join(ls, "\n") + "\n")
	}
	ten := lines(10)
	cases := []struct {
		name     string
		old, new []string
		want     string
	}{
		{"equal", ten, ten, ""},
		{"insert first", ten, append([]string{"new"}, ten...),
			"@@ -1,3 +1,4 @@\n+new\n la\n lb\n lc\n"},
		{"delete last", ten, ten[:9],
			"@@ -7,4 +7,3 @@\n lg\n lh\n li\n-lj\n"},
		{"two hunks", ten, []string{"X", "lb", "lc", "ld", "le", "lf", "lg", "lh", "li", "Y"},
			"@@ -1,4 +1,4 @@\n-la\n+X\n lb\n lc\n ld\n@@ -7,4 +7,4 @@\n lg\n lh\n li\n-lj\n+Y\n"},
		{"one hunk when close", ten, []string{"la", "X", "lc", "ld", "le", "lf", "lg", "Y", "li", "lj"},
			"@@ -1,10 +1,10 @@\n la\n-lb\n+X\n lc\n ld\n le\n lf\n lg\n-lh\n+Y\n li\n lj\n"},
		{"from empty", nil, []string{"a"}, "@@ -0,0 +1 @@\n+a\n"},
	}
	for _, c := range cases {
		got := unifiedDiff("old", "new", text(c.old), text(c.new))
		want := c.want
		if want != "" {
			want = "--- old\n+++ new\n" + want
		}
		if got != want {
			t.Errorf("%s:\n%s\nwant:\n%s", c.name, got, want)
		}
	}
}

// -check says why a file is stale: the first line that differs, and with
// -v the whole difference.
func TestCheckSaysWhyAFileIsStale(t *testing.T) {
	tmp := caseModule(t, "gen_basic")
	if code, _, stderr := invoke("./..."); code != exitOK {
		t.Fatalf("generate: exit %d, stderr %q", code, stderr)
	}
	generated := filepath.Join(tmp, "gen_basic", "sentinel_gen.go")
	good, err := os.ReadFile(generated)
	if err != nil {
		t.Fatal(err)
	}
	// A hand edit of the comment on line 12 of the file.
	lines := bytes.SplitAfter(good, []byte("\n"))
	edited := string(lines[11])
	if !strings.HasPrefix(edited, "// ") {
		t.Fatalf("line 12 is %q; the test wants a comment there", edited)
	}
	lines[11] = []byte("// edited by hand\n")
	if err := os.WriteFile(generated, bytes.Join(lines, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ := invoke("-check", "./...")
	name := filepath.Join("gen_basic", "sentinel_gen.go")
	want := name + ": stale\n\tfirst difference at line 12:\n\t  have: \"// edited by hand\"\n\t  want: " +
		`"` + strings.TrimSuffix(edited, "\n") + `"` + "\n"
	if code != exitProblems || stdout != want {
		t.Errorf("-check: exit %d, stdout:\n%s\nwant:\n%s", code, stdout, want)
	}
	code, stdout, _ = invoke("-check", "-v", "./...")
	wantDiff := "--- " + name + " (on disk)\n+++ " + name + " (as generated)\n@@ -9,7 +9,7 @@\n"
	if code != exitProblems || !strings.HasPrefix(stdout, name+": stale\n"+wantDiff) ||
		!strings.Contains(stdout, "\n-// edited by hand\n+"+edited) {
		t.Errorf("-check -v: exit %d, stdout:\n%s\nwant a unified diff starting\n%s", code, stdout, wantDiff)
	}
}

// When the code changed, the first line that differs is always the
// fingerprint's (line 2); -check shows the first difference below it.
func TestCheckShowsTheCodeNotTheFingerprint(t *testing.T) {
	tmp := caseModule(t, "gen_basic")
	if code, _, stderr := invoke("./..."); code != exitOK {
		t.Fatalf("generate: exit %d, stderr %q", code, stderr)
	}
	src := filepath.Join(tmp, "gen_basic", "orders.go")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(b), "name=basic.createOrder ", "name=basic.placeOrder ", 1)
	if edited == string(b) {
		t.Fatal("orders.go has no directive named basic.createOrder")
	}
	if err := os.WriteFile(src, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ := invoke("-check", "./...")
	if code != exitProblems || strings.Contains(stdout, "line 2:") || !strings.Contains(stdout, `want: "`) || !strings.Contains(stdout, "basic.placeOrder") {
		t.Errorf("-check: exit %d, stdout:\n%s\nwant the first difference after the fingerprint, naming basic.placeOrder", code, stdout)
	}
}

// Any edit script keeps the old text in its ' ' and '-' lines and the new
// one in its ' ' and '+' lines, with the line numbers it claims; random
// small texts over a few distinct lines make many ambiguous matches.
func TestEditScriptReproducesBothTexts(t *testing.T) {
	seed := uint32(1)
	next := func(n int) int {
		seed = seed*1664525 + 1013904223
		return int(seed>>16) % n
	}
	for range 500 {
		a := make([]string, next(12))
		b := make([]string, next(12))
		for i := range a {
			a[i] = string(rune('a' + next(3)))
		}
		for i := range b {
			b[i] = string(rune('a' + next(3)))
		}
		var gotA, gotB []string
		for _, op := range editScript(a, b) {
			if op.kind != '+' {
				if op.a != len(gotA) {
					t.Fatalf("%q -> %q: op %+v numbered %d in the old text, at %d", a, b, op, op.a, len(gotA))
				}
				gotA = append(gotA, op.line)
			}
			if op.kind != '-' {
				if op.b != len(gotB) {
					t.Fatalf("%q -> %q: op %+v numbered %d in the new text, at %d", a, b, op, op.b, len(gotB))
				}
				gotB = append(gotB, op.line)
			}
		}
		if strings.Join(gotA, ",") != strings.Join(a, ",") || strings.Join(gotB, ",") != strings.Join(b, ",") {
			t.Fatalf("%q -> %q: script gives %q -> %q", a, b, gotA, gotB)
		}
	}
}
