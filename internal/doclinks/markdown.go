package doclinks

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// A link is one link target found in a Markdown file.
type link struct {
	line   int    // 1-based line of the link
	target string // as written: path, path#anchor, #anchor or URL
}

var (
	// inlineLink matches [text](target) and ![alt](target), with an
	// optional "title" after the target.
	inlineLink = regexp.MustCompile(`!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	// refDefinition matches a reference definition: [label]: target.
	refDefinition = regexp.MustCompile(`^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?`)
	// codeSpan matches an inline code span, whose text is never a link.
	codeSpan = regexp.MustCompile("`+[^`]*`+")
)

// scan returns the links and the heading anchors of a Markdown file, leaving
// out everything inside fenced code blocks and inline code spans.
func scan(src []byte) (links []link, anchors map[string]bool) {
	anchors = map[string]bool{}
	seen := map[string]int{} // slug -> how many headings had it
	fence := ""
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		trimmed := strings.TrimLeft(text, " ")
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			continue
		}
		if h, ok := heading(text); ok {
			// GitHub numbers repeated headings: x, x-1, x-2, ...
			s := slug(h)
			if k := seen[s]; k > 0 {
				anchors[fmt.Sprintf("%s-%d", s, k)] = true
			} else {
				anchors[s] = true
			}
			seen[s]++
		}
		plain := codeSpan.ReplaceAllString(text, "")
		for _, m := range inlineLink.FindAllStringSubmatch(plain, -1) {
			links = append(links, link{line: n, target: m[1]})
		}
		if m := refDefinition.FindStringSubmatch(plain); m != nil {
			links = append(links, link{line: n, target: m[1]})
		}
	}
	return links, anchors
}

// heading returns the text of an ATX heading line ("## Text").
func heading(line string) (string, bool) {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return "", false
	}
	level := len(t) - len(strings.TrimLeft(t, "#"))
	if level == 0 || level > 6 {
		return "", false
	}
	rest := t[level:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return "", false
	}
	rest = strings.TrimSpace(rest)
	rest = strings.TrimSpace(strings.TrimRight(rest, "#")) // closing sequence
	return rest, true
}

// mdLinkText replaces [text](target) by text, as a heading's anchor uses
// only the text.
var mdLinkText = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)

// slug is the anchor GitHub gives a heading: the text of its inline markup,
// lower-cased, with every character other than a letter, digit, space,
// hyphen or underscore removed, and spaces turned into hyphens.
func slug(h string) string {
	h = mdLinkText.ReplaceAllString(h, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
