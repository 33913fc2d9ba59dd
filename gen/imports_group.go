package gen

import (
	"bytes"
	"go/format"
	"strings"
)

// groupImports splits the import block jennifer writes (one sorted list)
// into the standard library first and everything else after a blank line,
// the layout goimports gives and readers expect.
func groupImports(src []byte) ([]byte, error) {
	start := bytes.Index(src, []byte("\nimport (\n"))
	if start < 0 {
		return src, nil // no import block, or a single import
	}
	bodyStart := start + len("\nimport (\n")
	end := bytes.Index(src[bodyStart:], []byte("\n)\n"))
	if end < 0 {
		return src, nil
	}
	lines := strings.Split(string(src[bodyStart:bodyStart+end]), "\n")
	var std, other []string
	for _, l := range lines {
		if isStdImport(l) {
			std = append(std, l)
		} else {
			other = append(other, l)
		}
	}
	if len(std) == 0 || len(other) == 0 {
		return src, nil
	}
	var b bytes.Buffer
	b.Write(src[:bodyStart])
	b.WriteString(strings.Join(std, "\n") + "\n\n" + strings.Join(other, "\n"))
	b.Write(src[bodyStart+end:])
	return format.Source(b.Bytes())
}

// isStdImport reports whether an import line (`name "path"` or `"path"`)
// names a standard library package: one whose first path element has no dot.
func isStdImport(line string) bool {
	q := strings.IndexByte(line, '"')
	if q < 0 {
		return false
	}
	path := strings.Trim(line[q:], `"`)
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}
