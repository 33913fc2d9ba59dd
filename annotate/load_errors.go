package annotate

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// typedPackage is what judging a target package's type errors needs, from
// either loader.
type typedPackage struct {
	path  string
	files []*ast.File
	info  *types.Info
}

// typeErrorDiagnostics converts type errors, except the tolerated
// "undefined" errors for names that generation will declare. emitted holds
// those names per package path; quals are the import names used by
// directives, per file.
func typeErrorDiagnostics(errs []types.Error, tp typedPackage, emitted map[string]map[string]bool, quals map[string]map[string]string) []Diagnostic {
	var diags []Diagnostic
	for _, e := range errs {
		if tp.isTolerated(e, emitted) {
			continue
		}
		pos := e.Fset.Position(e.Pos)
		diags = append(diags, Diagnostic{Pos: pos, Message: oneLine(e.Msg) + tp.unusedImportHint(e, quals[pos.Filename])})
	}
	return diags
}

// unusedImportHint explains an "imported and not used" error for an import
// that the file's directives name: Go does not count comments as uses.
func (tp typedPackage) unusedImportHint(e types.Error, quals map[string]string) string {
	if len(quals) == 0 || !strings.Contains(e.Msg, " imported") || !strings.HasSuffix(e.Msg, " not used") {
		return ""
	}
	f := tp.fileAt(e.Pos)
	if f == nil {
		return ""
	}
	for _, spec := range f.Imports {
		if spec.Pos() > e.Pos || e.Pos > spec.End() {
			continue
		}
		pn := tp.info.PkgNameOf(spec)
		if pn == nil {
			return ""
		}
		if example, ok := quals[pn.Name()]; ok {
			return "; a directive does not count as a use: the file also needs one in code, such as var _ = " + example
		}
	}
	return ""
}

// isTolerated reports whether e is "undefined: X" or "undefined: q.X" where
// X is a name that generation will declare in the package or in the target
// package that q imports.
func (tp typedPackage) isTolerated(e types.Error, emitted map[string]map[string]bool) bool {
	name, ok := strings.CutPrefix(e.Msg, "undefined: ")
	if !ok {
		return false
	}
	qual, sel, qualified := strings.Cut(name, ".")
	if !qualified {
		return emitted[tp.path][name]
	}
	f := tp.fileAt(e.Pos)
	if f == nil {
		return false
	}
	for _, spec := range f.Imports {
		if pn := tp.info.PkgNameOf(spec); pn != nil && pn.Name() == qual {
			return emitted[pn.Imported().Path()][sel]
		}
	}
	return false
}

// fileAt returns the syntax tree holding pos.
func (tp typedPackage) fileAt(pos token.Pos) *ast.File {
	for _, f := range tp.files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// oneLine makes a message of the parser, the type checker or the go command
// fit on one line, so that each diagnostic is one line of output. The
// parser quotes the token it did not expect, and a raw string literal (a
// stray backquote) runs to the end of the file: it is cut at its first line.
// Other messages continue on indented lines (have ... want ...), which are
// joined.
func oneLine(msg string) string {
	first, rest, multi := strings.Cut(msg, "\n")
	if !multi {
		return msg
	}
	if strings.Contains(first, "found `") {
		return first + "..."
	}
	parts := []string{strings.TrimSpace(first)}
	for line := range strings.Lines(rest) {
		if line = strings.TrimSpace(line); line != "" {
			parts = append(parts, line)
		}
	}
	return strings.Join(parts, " ")
}
