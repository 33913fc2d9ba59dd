package lint

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/rules"
)

// codeChecks are the checks that judge rules against the code that declares
// their resources; a rule example in the docs has no code beside it.
var codeChecks = []string{
	"directive", "unknown-resource", "param-index", "unknown-param", "param-not-key", "param-item-type",
	"adapter-resource", "breaker-without-handler",
}

// docBlock is a fenced rule example of a docs page.
type docBlock struct {
	file   string
	line   int // of the opening fence
	lang   string
	indent int // of the opening fence, which a block in a list item has
	text   string
}

// ruleBlocks returns every ```toml and ```json block of the pages in dir.
func ruleBlocks(t *testing.T, dir string) []docBlock {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no docs pages in %s: %v", dir, err)
	}
	var out []docBlock
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		var cur *docBlock
		var body strings.Builder
		sc := bufio.NewScanner(bytes.NewReader(data))
		for n := 1; sc.Scan(); n++ {
			line := sc.Text()
			fence := strings.TrimSpace(line)
			switch {
			case cur == nil && (fence == "```toml" || fence == "```json"):
				cur = &docBlock{file: page, line: n, lang: strings.TrimPrefix(fence, "```"), indent: len(line) - len(strings.TrimLeft(line, " "))}
				body.Reset()
			case cur != nil && fence == "```":
				cur.text = body.String()
				out = append(out, *cur)
				cur = nil
			case cur != nil:
				body.WriteString(strings.TrimPrefix(line, strings.Repeat(" ", cur.indent)) + "\n")
			}
		}
	}
	return out
}

// TestDocsRuleExamplesLintClean reads every TOML and JSON block of docs/ as a
// rule document and lints it with every check that needs no code: an
// example a reader copies must be valid and pass sentinelgen lint without a
// warning.
func TestDocsRuleExamplesLintClean(t *testing.T) {
	blocks := ruleBlocks(t, filepath.Join("..", "docs"))
	linted := 0
	for _, b := range blocks {
		name := fmt.Sprintf("%s:%d.%s", filepath.ToSlash(b.file), b.line, b.lang)
		if !looksLikeRules(b) {
			continue
		}
		linted++
		set, err := rules.Parse(rules.Document{Name: name, Data: []byte(b.text)})
		if err != nil {
			t.Errorf("%s: the example does not read: %v", name, err)
			continue
		}
		for _, d := range Run(nil, set, Options{Disable: codeChecks}) {
			t.Errorf("%s: lint: %s", name, d)
		}
	}
	if linted == 0 {
		t.Fatal("no rule examples found in docs/")
	}
	t.Logf("%d rule examples linted", linted)
}

// looksLikeRules reports whether a block holds rules: a TOML block with an
// array of tables ([[flow]], [[paramFlow]], ...), or a JSON block with a
// resource. Other blocks (an editor's settings) are not rule documents.
func looksLikeRules(b docBlock) bool {
	if b.lang == "toml" {
		return strings.Contains(b.text, "[[")
	}
	return strings.Contains(b.text, `"resource"`)
}
