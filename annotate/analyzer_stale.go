package annotate

import (
	"go/ast"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// staleness judges the generated file the pass compiles against model,
// the package's directives as the generator sees them (user is the
// package's non-test, non-generated files). It compares fingerprints
// (see Fingerprint) and renders nothing, so it costs one walk of the
// model. The report is placed in the user's code (the first directive, or
// the package clause), never in the generated file, which golangci-lint
// hides by default.
func staleness(pass *analysis.Pass, model *Package, user, generated []*ast.File) (analysis.Diagnostic, bool) {
	at := user[0].Package
	if len(model.Resources) > 0 {
		if tf := fileNamed(pass.Fset, user, model.Resources[0].Pos.Filename); tf != nil {
			at = tf.Pos(model.Resources[0].Pos.Offset)
		}
	}
	report := func(msg string) (analysis.Diagnostic, bool) {
		return analysis.Diagnostic{Pos: at, Message: msg}, true
	}
	if len(generated) == 0 {
		if len(model.Resources) == 0 {
			return analysis.Diagnostic{}, false
		}
		if others := generatedElsewhere(pass); len(others) > 0 {
			return report("no generated file is built for this platform (the package has only " + strings.Join(others, ", ") +
				"); run go generate")
		}
		return report(GeneratedFileName + " is missing; run go generate")
	}
	gf := generated[0]
	file := filepath.Base(pass.Fset.Position(gf.Package).Filename)
	if len(model.Resources) == 0 {
		return report(file + " is left over: the package has no " + ResourceDirective + " left; run go generate to delete it")
	}
	want, err := Fingerprint(model)
	if err != nil {
		// The generator cannot fingerprint this model either and wrote
		// no fingerprint: only sentinelgen -check can judge the file.
		return analysis.Diagnostic{}, false
	}
	have := FileFingerprint(gf)
	switch {
	case have == want:
		return analysis.Diagnostic{}, false
	case have == "":
		return report(file + " is stale: it has no fingerprint (an older sentinelgen wrote it); run go generate")
	case fingerprintFormat(have) != GenFormat:
		return report(file + " is stale: it was written by a sentinelgen of " + describeFormat(have) +
			", this one writes output format " + strconv.Itoa(GenFormat) + "; run go generate")
	}
	return report(file + " is stale: " + resourceDifference(gf, model) + "; run go generate")
}

// resourceDifference says what differs between the resources a generated
// file declares (the name literals of its runtime.NewResource calls) and
// the directives', or, when the names are the same, that a directive or
// signature changed.
func resourceDifference(gf *ast.File, model *Package) string {
	have := declaredResources(gf)
	var want []string
	for _, r := range model.Resources {
		want = append(want, r.Name)
	}
	for _, n := range want {
		if !slices.Contains(have, n) {
			return "it has no resource " + strconv.Quote(n)
		}
	}
	for _, n := range have {
		if !slices.Contains(want, n) {
			return "it has resource " + strconv.Quote(n) + ", which no directive declares"
		}
	}
	return "it was generated from other directives or handler signatures"
}

// declaredResources lists the resource names a generated file passes to
// runtime.NewResource as literals, in the file's order.
func declaredResources(f *ast.File) []string {
	var out []string
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			continue
		}
		for _, s := range gd.Specs {
			for _, v := range s.(*ast.ValueSpec).Values {
				call, ok := v.(*ast.CallExpr)
				if !ok || len(call.Args) == 0 {
					continue
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				lit, isLit := call.Args[0].(*ast.BasicLit)
				if !ok || sel.Sel.Name != "NewResource" || !isLit || lit.Kind != token.STRING {
					continue
				}
				if name, err := strconv.Unquote(lit.Value); err == nil {
					out = append(out, name)
				}
			}
		}
	}
	return out
}

// generatedElsewhere lists the package's generated files that the pass's
// build leaves out: those of other platforms.
func generatedElsewhere(pass *analysis.Pass) []string {
	var out []string
	for _, name := range pass.IgnoredFiles {
		if base := filepath.Base(name); IsGeneratedFile(base) {
			out = append(out, base)
		}
	}
	slices.Sort(out)
	return out
}

// fileNamed returns the token.File of the syntax tree named name.
func fileNamed(fset *token.FileSet, files []*ast.File, name string) *token.File {
	for _, f := range files {
		if tf := fset.File(f.Package); tf != nil && tf.Name() == name {
			return tf
		}
	}
	return nil
}
