package analyzer

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/sentinelgen/sentinelgen/annotate"
	"github.com/sentinelgen/sentinelgen/gen"
)

// staleness compares the generated file on disk with what the generator
// would write for model, and describes the first difference. The report is
// placed in the user's code (the first directive, or the package clause),
// never in the generated file, which golangci-lint hides by default.
func staleness(pass *analysis.Pass, model *annotate.Package) (analysis.Diagnostic, bool) {
	var user []*ast.File
	var genFile *ast.File
	for _, f := range pass.Files {
		name := pass.Fset.Position(f.Package).Filename
		switch {
		case filepath.Base(name) == annotate.GeneratedFileName:
			genFile = f
		case annotate.IsGeneratedFile(filepath.Base(name)):
			// A generated file for a group of platforms (build-constrained
			// directives): what belongs in it depends on the files of every
			// platform of its group, which one pass does not see. Only the
			// generator (sentinelgen -check) judges such a package.
			return analysis.Diagnostic{}, false
		case strings.HasSuffix(name, "_test.go"):
		default:
			user = append(user, f)
		}
	}
	if len(user) == 0 {
		return analysis.Diagnostic{}, false // an external test package: the generator does not write for it
	}
	if len(user) != len(pass.Files)-btoi(genFile != nil) {
		// A test variant: the generator sees the package without its
		// _test.go files, so check those alone.
		model, _ = annotate.Check(pass.Fset, user, pass.Pkg, pass.TypesInfo, annotate.CheckOptions{})
		if model == nil {
			return analysis.Diagnostic{}, false
		}
		for name := range model.Reserved {
			if obj := pass.Pkg.Scope().Lookup(name); obj != nil && !userObject(pass.Fset, obj) {
				delete(model.Reserved, name)
			}
		}
	}
	model.Types = userView(pass.Fset, pass.Pkg)
	at := user[0].Package
	if len(model.Resources) > 0 {
		if f := fileOf(pass.Fset, user, model.Resources[0].Pos.Filename); f != nil {
			at = f.Pos(model.Resources[0].Pos.Offset)
		}
	}
	file := annotate.GeneratedFileName
	switch {
	case len(model.Resources) == 0 && genFile == nil:
		return analysis.Diagnostic{}, false
	case len(model.Resources) == 0:
		return analysis.Diagnostic{Pos: at, Message: file + " is left over: the package has no " + annotate.ResourceDirective + " left; run go generate to delete it"}, true
	}
	if genFile == nil {
		return analysis.Diagnostic{Pos: at, Message: file + " is missing; run go generate"}, true
	}
	// Sync in check mode compares what is on disk with what Generate
	// returns, and skips the rendering when the generation cache shows
	// the file to be what this model gave before: the usual case, and
	// most of the cost on a large module otherwise.
	res, err := gen.Sync([]*annotate.Package{model}, gen.SyncOptions{Check: true, Cache: cache()})
	if err != nil {
		return analysis.Diagnostic{Pos: at, Message: "cannot check " + file + ": " + err.Error()}, true
	}
	if len(res.Changes) == 0 {
		return analysis.Diagnostic{}, false
	}
	have, err := pass.ReadFile(pass.Fset.Position(genFile.Package).Filename)
	if err != nil {
		return analysis.Diagnostic{Pos: at, Message: "cannot read " + file + ": " + err.Error()}, true
	}
	want, err := gen.Generate(model)
	if err != nil {
		return analysis.Diagnostic{Pos: at, Message: "cannot render " + file + ": " + err.Error()}, true
	}
	return analysis.Diagnostic{Pos: at, Message: file + " is stale: " + firstDifference(have, want) + "; run go generate"}, true
}

// cache is the generation cache, shared by every pass of the process.
var cache = sync.OnceValue(gen.OpenCache)

// userView is pkg as the generator sees it: the generator reads the
// previous sentinel_gen.go as a package clause alone and leaves out
// _test.go files, so neither's declarations may take a name that gen
// allocates from the package scope. The objects are shared, not copied.
func userView(fset *token.FileSet, pkg *types.Package) *types.Package {
	view := types.NewPackage(pkg.Path(), pkg.Name())
	view.SetImports(pkg.Imports())
	for _, name := range pkg.Scope().Names() {
		if obj := pkg.Scope().Lookup(name); userObject(fset, obj) {
			view.Scope().Insert(obj)
		}
	}
	view.MarkComplete()
	return view
}

// userObject reports whether obj is declared in a file the generator reads.
func userObject(fset *token.FileSet, obj types.Object) bool {
	name := fset.Position(obj.Pos()).Filename
	return filepath.Base(name) != annotate.GeneratedFileName && !strings.HasSuffix(name, "_test.go")
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// fileOf returns the token.File of the syntax tree named name.
func fileOf(fset *token.FileSet, files []*ast.File, name string) *token.File {
	for _, f := range files {
		if tf := fset.File(f.Package); tf != nil && tf.Name() == name {
			return tf
		}
	}
	return nil
}

// firstDifference names the first line where have and want differ.
func firstDifference(have, want []byte) string {
	hl, wl := bytes.Split(have, []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := 0; i < len(hl) || i < len(wl); i++ {
		switch {
		case i >= len(hl):
			return fmt.Sprintf("line %d is missing, want %q", i+1, strings.TrimSpace(string(wl[i])))
		case i >= len(wl):
			return fmt.Sprintf("line %d should not be there: %q", i+1, strings.TrimSpace(string(hl[i])))
		case !bytes.Equal(hl[i], wl[i]):
			return fmt.Sprintf("line %d is %q, want %q", i+1, strings.TrimSpace(string(hl[i])), strings.TrimSpace(string(wl[i])))
		}
	}
	return "the files differ"
}
