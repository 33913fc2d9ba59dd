package annotate_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/annotate"
	"github.com/sentinelgen/sentinelgen/gen"
)

// fingerprintOf loads one package of a copy of the analyzer's testdata
// module and returns its model's fingerprint.
func fingerprintOf(t *testing.T, dir, pkg string) string {
	t.Helper()
	pkgs, diags, err := annotate.Load(dir, []string{"./" + pkg}, annotate.Options{})
	if err != nil || len(diags) > 0 || len(pkgs) != 1 {
		t.Fatalf("load %s: %v %v (%d packages)", pkg, err, diags, len(pkgs))
	}
	fp, err := annotate.Fingerprint(pkgs[0])
	if err != nil {
		t.Fatal(err)
	}
	return fp
}

// TestFingerprintFollowsTheOutputOnly: a generated file is committed, so
// its fingerprint must be the same in every checkout (no absolute path in
// it) and must not move with edits the output does not show (a line added
// above a directive, a new unrelated declaration), while any change of a
// directive or a handler's signature moves it.
func TestFingerprintFollowsTheOutputOnly(t *testing.T) {
	t.Parallel()
	a, b := copyModule(t, testdata(t)), copyModule(t, testdata(t))
	base := fingerprintOf(t, a, "fresh")
	format := strconv.Itoa(annotate.GenFormat) + "-"
	if !strings.HasPrefix(base, format) || len(base) != len(format)+32 {
		t.Fatalf("fingerprint %q: want GenFormat, a dash and 32 hex digits", base)
	}
	if other := fingerprintOf(t, b, "fresh"); other != base {
		t.Fatalf("another checkout gives %s, this one %s", other, base)
	}
	file := filepath.Join(a, "fresh", "svc.go")
	src := readFile(t, file)
	edit := func(name string, same bool, fromTo ...string) {
		t.Helper()
		for i := 0; i < len(fromTo); i += 2 {
			if !strings.Contains(src, fromTo[i]) {
				t.Fatalf("%s: svc.go lacks %q", name, fromTo[i])
			}
		}
		writeFile(t, file, strings.NewReplacer(fromTo...).Replace(src))
		got := fingerprintOf(t, a, "fresh")
		if same && got != base {
			t.Errorf("%s: the fingerprint moved (%s, was %s)", name, got, base)
		}
		if !same && got == base {
			t.Errorf("%s: the fingerprint did not move", name)
		}
	}
	edit("a line above the directive", true, "// Service is guarded.", "// Service is guarded.\n// Really.\n")
	edit("an unrelated declaration", true, "// Service is guarded.", "var unrelated = 1\n\n// Service is guarded.")
	edit("the resource name", false, "name=fresh.get", "name=fresh.got")
	edit("a parameter added (to the handler too)", false, "id string) (string", "id string, n int) (string", "id string, blockErr", "id string, n int, blockErr")
	edit("the handler's role", false, "blockHandler=getBlocked", "fallback=getBlocked", "blockErr *runtime.BlockError", "blockErr error", "return \"\", blockErr", "var _ *runtime.BlockError\n\treturn \"\", blockErr")
}

// TestGeneratedFileWithoutOrWithAnotherFingerprint: a file an older
// sentinelgen wrote (no fingerprint line) or one of another output format
// is stale, and the message says which.
func TestGeneratedFileWithoutOrWithAnotherFingerprint(t *testing.T) {
	t.Parallel()
	dir := copyModule(t, testdata(t))
	pkgs, diags, err := annotate.Load(dir, []string{"./fresh"}, annotate.Options{})
	if err != nil || len(diags) > 0 {
		t.Fatalf("load: %v %v", err, diags)
	}
	if _, err := gen.Sync(pkgs, gen.SyncOptions{}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "fresh", annotate.GeneratedFileName)
	good := readFile(t, path)
	fp, _ := annotate.Fingerprint(pkgs[0])
	line := annotate.FingerprintPrefix + fp + "\n"
	if !strings.HasPrefix(good, gen.Header+"\n"+line) {
		t.Fatalf("the generated file does not start with the header and %q:\n%s", line, good)
	}
	if got := analyzeFor(t, dir, nil, "./fresh"); got != "" {
		t.Fatalf("fresh: %s", got)
	}
	for _, c := range []struct{ name, content, want string }{
		{"no fingerprint", strings.Replace(good, line, "", 1), "it has no fingerprint (an older sentinelgen wrote it)"},
		{"format 0", strings.Replace(good, line, annotate.FingerprintPrefix+"0-"+fp[strings.Index(fp, "-")+1:]+"\n", 1), "it was written by a sentinelgen of output format 0, this one writes output format " + strconv.Itoa(annotate.GenFormat)},
	} {
		if err := os.WriteFile(path, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		want := "fresh/svc.go:15:1: sentinel_gen.go is stale: " + c.want + "; run go generate\n"
		if got := analyzeFor(t, dir, nil, "./fresh"); got != want {
			t.Errorf("%s: got\n%swant\n%s", c.name, got, want)
		}
	}
}
