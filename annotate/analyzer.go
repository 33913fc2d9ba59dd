package annotate

import (
	"go/ast"
	"go/token"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Analyzer reports what sentinelgen would refuse, and a generated file
// that does not match the directives, in one type-checked package: the
// generator's checks (Check) run by any go/analysis driver (go vet
// -vettool, go fix -fixtool, golangci-lint, cmd/sentinelvet).
//
// It judges the generated file without rendering it: the generator writes
// the model's Fingerprint into each file it generates, and the Analyzer
// compares that with the fingerprint of the pass's own directives. A pass
// sees the files of one platform, so the file it judges is the one
// generated for that platform (sentinel_gen.go or a sentinel_gen_*.go
// carrying a //go:build line); each platform's pass judges its own.
var Analyzer = &analysis.Analyzer{
	Name: "sentinel",
	Doc: `check //sentinel:resource directives and their generated file

The checks are the generator's (sentinelgen): every directive value, every
handler's existence and signature, the generated names, directives in test
files and in files no build includes. A missing, stale or left-over
generated file (sentinel_gen.go, or the sentinel_gen_*.go built for the
platform) is reported too; run go generate to bring it up to date.
Misspelt handler names, missing handlers and handlers whose trailing
parameter or results differ come with suggested fixes.`,
	URL: "https://github.com/sentinelgen/sentinelgen",
	// Type errors are among what the generator reports (except the
	// "undefined" names a missing generated file leaves), so the checks
	// run on packages that do not type-check as well.
	RunDespiteErrors: true,
	Run:              runAnalyzer,
}

func runAnalyzer(pass *analysis.Pass) (any, error) {
	if hasSyntaxErrors(pass.Files) {
		// The driver reports the syntax errors (go vet, the compiler,
		// golangci-lint's typecheck); checks on a partial tree would only
		// add noise, and the generator reports those errors alone too.
		return nil, nil
	}
	// Parsing the ignored files adds them to pass.Fset: index it after.
	ignored := ignoredFileDiagnostics(pass)
	files := newFileIndex(pass.Fset)
	var user, generated []*ast.File
	// refused is set by a directive outside the package's build, for which
	// the generator writes nothing at all until it is moved or removed: a
	// generated file's state would only add noise then.
	refused := len(ignored) > 0
	for _, f := range pass.Files {
		name := filepath.Base(pass.Fset.Position(f.Package).Filename)
		switch {
		case IsGeneratedFile(name):
			generated = append(generated, f)
		case strings.HasSuffix(name, "_test.go"):
			// The generator reads packages without their tests: a
			// directive here guards nothing, and says so.
			for _, at := range directives(pass.Fset, f) {
				pass.Report(files.diagnostic(testFileDiagnostic(at), pass))
				refused = true
			}
		default:
			user = append(user, f)
		}
	}
	for _, d := range ignored {
		pass.Report(files.diagnostic(d, pass))
	}
	if len(user) == 0 {
		return nil, nil // an external test package, or a directory of tests: nothing is generated for it
	}
	// The generator sees the package without its test files (and with
	// the generated file as a package clause alone, which Check skips).
	model, diags := Check(pass.Fset, slices.Concat(user, generated), pass.Pkg, pass.TypesInfo, CheckOptions{TypeErrors: pass.TypeErrors})
	for _, d := range diags {
		pass.Report(files.diagnostic(d, pass))
	}
	if model != nil && !refused {
		if d, ok := staleness(pass, model, user, generated); ok {
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

// fileIndex turns the token.Positions of Diagnostics back into the
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

// diagnostic converts a Diagnostic. One that cannot be placed in the file
// set (it should not happen) is put on the first file's package clause
// rather than dropped.
func (idx fileIndex) diagnostic(d Diagnostic, pass *analysis.Pass) analysis.Diagnostic {
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
