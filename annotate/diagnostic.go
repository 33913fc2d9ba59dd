package annotate

import (
	"cmp"
	"fmt"
	"go/token"
	"slices"
	"strings"

	"github.com/sentinelgen/sentinelgen/internal/relpath"
)

func newDiagnostic(pos token.Position, format string, args ...any) Diagnostic {
	return Diagnostic{Pos: pos, Message: fmt.Sprintf(format, args...)}
}

// String formats the diagnostic as "file:line:col: message", the form
// compilers use, with the file name as the position holds it. Related
// positions are left out; Format includes them and makes names relative.
func (d Diagnostic) String() string {
	return formatPos(d.Pos, "") + d.Message
}

// Format is String followed by one tab-indented line per related position,
// with file names made relative to dir when below it ("" leaves them as
// they are).
func (d Diagnostic) Format(dir string) string {
	var b strings.Builder
	b.WriteString(formatPos(d.Pos, dir))
	b.WriteString(d.Message)
	for _, r := range d.Related {
		b.WriteString("\n\t")
		b.WriteString(formatPos(r.Pos, dir))
		b.WriteString(r.Message)
	}
	return b.String()
}

// formatPos renders "file:line:col: " (or "" for an unknown position).
func formatPos(p token.Position, dir string) string {
	if !p.IsValid() {
		if p.Filename != "" {
			return relpath.Below(dir, p.Filename) + ": "
		}
		return ""
	}
	return fmt.Sprintf("%s:%d:%d: ", relpath.Below(dir, p.Filename), p.Line, p.Column)
}

// sortDiagnostics orders diagnostics by file, line, column and then message,
// so that output is stable whatever order the checks ran in.
func sortDiagnostics(ds []Diagnostic) {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		return cmp.Or(
			cmp.Compare(a.Pos.Filename, b.Pos.Filename),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Column, b.Pos.Column),
			cmp.Compare(a.Message, b.Message),
		)
	})
}
