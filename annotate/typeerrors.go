package annotate

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"github.com/sentinelgen/sentinelgen/internal/astutil"
)

// typeErrors converts the package's type errors, except the tolerated
// "undefined" errors for names that generation will declare, and adds a
// hint to an "imported and not used" error for an import that only the
// file's directives use.
func (c *checker) typeErrors(errs []types.Error, files []*ast.File, generated func(string) map[string]bool) {
	for _, e := range errs {
		if isTolerated(e, files, c.info, c.emitted, generated) {
			continue
		}
		pos := e.Fset.Position(e.Pos)
		c.diags = append(c.diags, Diagnostic{Pos: pos, Message: oneLine(e.Msg) + c.unusedImportHint(e, files)})
	}
}

// unusedImportHint explains an "imported and not used" error for an import
// that the file's directives name: Go does not count comments as uses.
func (c *checker) unusedImportHint(e types.Error, files []*ast.File) string {
	quals := c.quals[e.Fset.Position(e.Pos).Filename]
	if len(quals) == 0 || !strings.Contains(e.Msg, " imported") || !strings.HasSuffix(e.Msg, " not used") {
		return ""
	}
	f := fileAt(files, e.Pos)
	if f == nil {
		return ""
	}
	for _, spec := range f.Imports {
		if spec.Pos() > e.Pos || e.Pos > spec.End() {
			continue
		}
		pn := c.info.PkgNameOf(spec)
		if pn == nil {
			return ""
		}
		if example, ok := quals[pn.Name()]; ok {
			return "; a directive does not count as a use: the file also needs one in code, such as var _ = " + example
		}
	}
	return ""
}

// isTolerated reports whether e is "undefined: X" where X is a name that generation will declare in
// the package (own), or "undefined: q.X" where it will declare X in the
// package that q imports (generated, which may be nil).
func isTolerated(e types.Error, files []*ast.File, info *types.Info, own map[string]bool, generated func(string) map[string]bool) bool {
	name, ok := strings.CutPrefix(e.Msg, "undefined: ")
	if !ok {
		return false
	}
	qual, sel, qualified := strings.Cut(name, ".")
	if !qualified {
		return own[name]
	}
	f := fileAt(files, e.Pos)
	if f == nil || generated == nil || info == nil {
		return false
	}
	for _, spec := range f.Imports {
		if pn := info.PkgNameOf(spec); pn != nil && pn.Name() == qual {
			return generated(pn.Imported().Path())[sel]
		}
	}
	return false
}

// fileAt returns the syntax tree holding pos.
func fileAt(files []*ast.File, pos token.Pos) *ast.File {
	for _, f := range files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// generatedNames returns the package-level names gen will declare for the
// files' directives, from their syntax alone, so that they are known even
// when the checks fail and before any package is checked.
func generatedNames(fset *token.FileSet, files []*ast.File) map[string]bool {
	names := map[string]bool{}
	for _, f := range files {
		if IsGeneratedFile(filepath.Base(fset.Position(f.Package).Filename)) {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && hasResourceDirective(fd.Doc) {
				addGeneratedNames(names, fd)
			}
		}
	}
	return names
}

// hasResourceDirective reports whether a doc comment holds a
// //sentinel:resource line.
func hasResourceDirective(doc *ast.CommentGroup) bool {
	if doc == nil {
		return false
	}
	for _, cm := range doc.List {
		if strings.HasPrefix(cm.Text, DirectivePrefix) && directiveWord(cm.Text) == "resource" {
			return true
		}
	}
	return false
}

// addGeneratedNames adds the package-level names gen declares for fd.
func addGeneratedNames(names map[string]bool, fd *ast.FuncDecl) {
	if fd.Recv == nil {
		names[guardedName(fd.Name.Name)] = true
		return
	}
	if name := astutil.RecvTypeName(fd.Recv); name != "" {
		names[guardedName(name)] = true
		names[constructorName(name)] = true
	}
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
