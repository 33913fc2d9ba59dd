package gen

import (
	"bytes"
	"go/format"
)

// formatGrouped formats the source jennifer rendered unformatted (see
// Generate), after splitting its import block (one sorted list) into the
// standard library first and everything else after a blank line, the layout
// goimports gives and readers expect. Splitting before formatting makes
// format.Source, the bulk of a file's generation time, run once.
func formatGrouped(src []byte) ([]byte, error) {
	return format.Source(groupImports(src))
}

// groupImports inserts the blank line between the standard library imports
// and the others. jennifer writes one path per line, sorted, so the
// standard library may come after another path ("example.com/x" < "time")
// and the lines must be regrouped, not only split.
func groupImports(src []byte) []byte {
	const open = "\nimport (\n"
	start := bytes.Index(src, []byte(open))
	if start < 0 {
		return src // no import block, or a single import
	}
	bodyStart := start + len(open)
	end := bytes.Index(src[bodyStart:], []byte("\n)\n"))
	if end < 0 {
		return src
	}
	body := src[bodyStart : bodyStart+end]
	var std, other [][]byte
	for line := range bytes.SplitSeq(body, []byte("\n")) {
		if isStdImport(line) {
			std = append(std, line)
		} else {
			other = append(other, line)
		}
	}
	if len(std) == 0 || len(other) == 0 {
		return src
	}
	out := make([]byte, 0, len(src)+1)
	out = append(out, src[:bodyStart]...)
	out = append(out, bytes.Join(std, []byte("\n"))...)
	out = append(out, "\n\n"...)
	out = append(out, bytes.Join(other, []byte("\n"))...)
	return append(out, src[bodyStart+end:]...)
}

// isStdImport reports whether an import line (`name "path"` or `"path"`)
// names a standard library package: one whose first path element has no dot.
func isStdImport(line []byte) bool {
	q := bytes.IndexByte(line, '"')
	if q < 0 {
		return false
	}
	path := bytes.Trim(line[q:], `"`)
	first, _, _ := bytes.Cut(path, []byte("/"))
	return bytes.IndexByte(first, '.') < 0
}
