package doclinks

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// repoRoot is the repository root, seen from this package's directory.
const repoRoot = "../.."

// maxREADME keeps README.md the short entry page it is meant to be: what it
// is, one example, the set-up commands, the tour and links into docs/.
const maxREADME = 8 * 1024

// TestRepositoryDocs checks every link of README.md, ARCHITECTURE.md and
// docs/*.md.
func TestRepositoryDocs(t *testing.T) {
	files := []string{"README.md", "ARCHITECTURE.md"}
	docs, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		rel, err := filepath.Rel(repoRoot, d)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, rel)
	}
	for _, want := range []string{"guide.md", "rules.md", "cluster.md", "performance.md", "differences.md"} {
		if !slices.Contains(files, filepath.Join("docs", want)) {
			t.Errorf("docs/%s is missing", want)
		}
	}
	c := newChecker(repoRoot)
	for _, f := range files {
		problems, err := c.file(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range problems {
			t.Error(p)
		}
	}
}

func TestREADMESize(t *testing.T) {
	info, err := os.Stat(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if info.Size() > maxREADME {
		t.Errorf("README.md has %d bytes, more than %d: move reference text to docs/ and link to it", info.Size(), maxREADME)
	}
}

func TestSlug(t *testing.T) {
	for _, tc := range []struct{ heading, want string }{
		{"Set up", "set-up"},
		{"From `@SentinelResource` to `//sentinel:resource`", "from-sentinelresource-to-sentinelresource"},
		{"Hot reload", "hot-reload"},
		{"`[[flow]]`", "flow"},
		{"Checking rules: `sentinelgen lint`", "checking-rules-sentinelgen-lint"},
		{"Redis, etcd and Nacos", "redis-etcd-and-nacos"},
		{"snake_case and-hyphens", "snake_case-and-hyphens"},
		{"See [the guide](guide.md)", "see-the-guide"},
		{"Measured (2-core VM, go1.26.8)", "measured-2-core-vm-go1268"},
	} {
		if got := slug(tc.heading); got != tc.want {
			t.Errorf("slug(%q) = %q, want %q", tc.heading, got, tc.want)
		}
	}
}

func TestScan(t *testing.T) {
	src := strings.Join([]string{
		"# Title",
		"See [a](a.md#x) and ![img](img.png \"title\").",
		"`[not](code.md)` but [yes](yes.md)",
		"```go",
		"[inside](fence.md)",
		"## Not a heading",
		"```",
		"## Twice",
		"## Twice",
		"#nospace is not a heading",
		"    # indented code is not a heading",
		"[ref]: ref.md",
	}, "\n")
	links, anchors := scan([]byte(src))
	var got []string
	for _, l := range links {
		got = append(got, l.target)
	}
	want := []string{"a.md#x", "img.png", "yes.md", "ref.md"}
	if !slices.Equal(got, want) {
		t.Errorf("links = %q, want %q", got, want)
	}
	if links[3].line != 12 {
		t.Errorf("ref.md on line %d, want 12", links[3].line)
	}
	for _, a := range []string{"title", "twice", "twice-1"} {
		if !anchors[a] {
			t.Errorf("anchor %q missing from %v", a, anchors)
		}
	}
	for _, a := range []string{"not-a-heading", "nospace-is-not-a-heading", "indented-code-is-not-a-heading"} {
		if anchors[a] {
			t.Errorf("anchor %q should not exist", a)
		}
	}
}

// TestChecker runs the checker on a small tree with one broken link of each
// kind next to working ones.
func TestChecker(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("pkg/doc.go", "// Package pkg is a test.\n//\n// # Loading rules\n//\n// Text.\npackage pkg\n")
	write("pkg/pkg.go", "package pkg\n\ntype T struct{ Field int }\n\nfunc (*T) M() {}\n\nfunc F() {}\n\nconst C = 1\n")
	write("pkg/pkg_test.go", "package pkg\n\nfunc TestOnly() {}\n")
	write("docs/guide.md", "# Guide\n\n## Handlers\n")
	const godev = "https://pkg.go.dev/github.com/sentinelgen/sentinelgen/pkg"
	write("README.md", strings.Join([]string{
		"# Top",
		"[ok](docs/guide.md#handlers) [ok](#top) [ok](pkg/) [ok](pkg/pkg.go#L3) [ok](https://example.com/x#y)",
		"[ok](" + godev + "#T.M) [ok](" + godev + "#T.Field) [ok](" + godev + "#hdr-Loading_rules) [ok](" + godev + "@v1.0.0#F)",
		"[ok](https://pkg.go.dev/github.com/other/mod#Anything) [ok](docs/later.md)",
		"[bad](docs/gide.md)",
		"[bad](docs/guide.md#handler)",
		"[bad](#nowhere)",
		"[bad](pkg/pkg.go#section)",
		"[bad](" + godev + "#G)",
		"[bad](" + godev + "#TestOnly)",
		"[bad](" + godev + "#hdr-Loading)",
		"[bad](https://pkg.go.dev/github.com/sentinelgen/sentinelgen/nopkg)",
		"[bad](../outside.md)",
		"[bad](/README.md)",
	}, "\n"))
	c := newChecker(root, "docs/later.md")
	problems, err := c.file("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, p := range problems {
		lines = append(lines, strings.SplitN(p, ":", 3)[1])
	}
	want := []string{"5", "6", "7", "8", "9", "10", "11", "12", "13", "14"}
	if !slices.Equal(lines, want) {
		t.Errorf("problems on lines %v, want %v:\n%s", lines, want, strings.Join(problems, "\n"))
	}

	// Once the pending file exists, its anchors are checked as well.
	write("docs/later.md", "# Later\n")
	write("NEXT.md", "[ok](docs/later.md#later) [bad](docs/later.md#sooner)\n")
	problems, err = c.file("NEXT.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != 1 || !strings.Contains(problems[0], "#sooner") {
		t.Errorf("problems = %q, want one about #sooner", problems)
	}
}
