package annotate

import (
	"cmp"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

func newDiagnostic(pos token.Position, format string, args ...any) Diagnostic {
	return Diagnostic{Pos: pos, Message: fmt.Sprintf(format, args...)}
}

// String formats the diagnostic as "file:line:col: message", the form
// compilers use, with the file relative to the working directory when it is
// below it. Related positions are left out; Detail includes them.
func (d Diagnostic) String() string {
	return formatPos(d.Pos, workingDir()) + d.Message
}

// Detail is String followed by one tab-indented line per related position.
func (d Diagnostic) Detail() string {
	return d.Format(workingDir())
}

// Format is Detail with file names made relative to dir (when below it)
// instead of the working directory.
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
			return relativeTo(p.Filename, dir) + ": "
		}
		return ""
	}
	return fmt.Sprintf("%s:%d:%d: ", relativeTo(p.Filename, dir), p.Line, p.Column)
}

func relativeTo(file, dir string) string {
	if dir == "" || !filepath.IsAbs(file) {
		return file
	}
	rel, err := filepath.Rel(dir, file)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return file
	}
	return rel
}

func workingDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	return wd
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
