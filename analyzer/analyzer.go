package analyzer

import (
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/analysis"

	"github.com/sentinelgen/sentinelgen/annotate"
)

// Analyzer reports what sentinelgen would refuse, and a generated file
// that does not match the directives, in one type-checked package.
var Analyzer = &analysis.Analyzer{
	Name: "sentinel",
	Doc: `check //sentinel:resource directives and their generated file

The checks are the generator's (sentinelgen): every directive value, every
handler's existence and signature, the generated names. A missing or stale
sentinel_gen.go is reported too; run go generate to bring it up to date.
Misspelt handler names, missing handlers and handlers whose trailing
parameter or results differ come with suggested fixes.`,
	URL: "https://github.com/sentinelgen/sentinelgen",
	// Type errors are among what the generator reports (except the
	// "undefined" names a missing generated file leaves), so the checks
	// run on packages that do not type-check as well.
	RunDespiteErrors: true,
	Run:              run,
}

func run(pass *analysis.Pass) (any, error) {
	if hasSyntaxErrors(pass.Files) {
		// The driver reports the syntax errors (go vet, the compiler,
		// golangci-lint's typecheck); checks on a partial tree would only
		// add noise, and the generator reports those errors alone too.
		return nil, nil
	}
	files := newFileIndex(pass.Fset)
	model, diags := annotate.Check(pass.Fset, pass.Files, pass.Pkg, pass.TypesInfo, annotate.CheckOptions{TypeErrors: pass.TypeErrors})
	for _, d := range diags {
		pass.Report(files.diagnostic(d, pass))
	}
	if model != nil {
		if d, ok := staleness(pass, model); ok {
			pass.Report(d)
		}
	}
	return nil, nil
}

// hasSyntaxErrors reports whether the parser left a Bad node anywhere.
func hasSyntaxErrors(files []*ast.File) bool {
	bad := false
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.BadDecl, *ast.BadExpr, *ast.BadStmt:
				bad = true
			}
			return !bad
		})
		if bad {
			return true
		}
	}
	return false
}

// fileIndex turns the token.Positions annotate reports back into the
// token.Pos values a driver expects.
type fileIndex map[string]*token.File

func newFileIndex(fset *token.FileSet) fileIndex {
	idx := fileIndex{}
	fset.Iterate(func(f *token.File) bool {
		idx[f.Name()] = f
		return true
	})
	return idx
}

// pos finds p in the file set, or token.NoPos.
func (idx fileIndex) pos(p token.Position) token.Pos {
	f := idx[p.Filename]
	if f == nil || p.Offset < 0 || p.Offset > f.Size() {
		return token.NoPos
	}
	return f.Pos(p.Offset)
}

// diagnostic converts one of annotate's diagnostics. One that cannot be
// placed in the file set (it should not happen) is put on the first
// file's package clause rather than dropped.
func (idx fileIndex) diagnostic(d annotate.Diagnostic, pass *analysis.Pass) analysis.Diagnostic {
	out := analysis.Diagnostic{Pos: idx.pos(d.Pos), Message: d.Message}
	if !out.Pos.IsValid() && len(pass.Files) > 0 {
		out.Pos = pass.Files[0].Package
	}
	for _, r := range d.Related {
		if p := idx.pos(r.Pos); p.IsValid() {
			out.Related = append(out.Related, analysis.RelatedInformation{Pos: p, Message: r.Message})
		}
	}
	for _, f := range d.Fixes {
		fix := analysis.SuggestedFix{Message: f.Message}
		ok := true
		for _, e := range f.Edits {
			pos, end := idx.pos(e.Pos), idx.pos(e.End)
			ok = ok && pos.IsValid() && end.IsValid()
			fix.TextEdits = append(fix.TextEdits, analysis.TextEdit{Pos: pos, End: end, NewText: []byte(e.NewText)})
		}
		if ok {
			out.SuggestedFixes = append(out.SuggestedFixes, fix)
		}
	}
	return out
}
