package lint

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sentinelgen/sentinelgen/annotate"
)

// runtimePath is the import path of the runtime whose calls name resources
// outside directives.
const runtimePath = "github.com/sentinelgen/sentinelgen/runtime"

// scanRegistrations finds the resource names the packages' own Go files
// register by hand (runtime.NewResource("name", ...)) and the entrance
// names they set (runtime.WithEntrance(ctx, "name")), whatever name the
// files import the runtime under. Only literal names can be seen. The
// generated file is skipped: it registers exactly the declared resources.
//
// A file that cannot be read or parsed is skipped: annotate.Load has just
// parsed every one of them, so that only happens when a file changes under
// the run, and the rest of the findings are still worth having.
func scanRegistrations(pkgs []*annotate.Package, tags []string) (resources, entrances map[string]bool) {
	resources, entrances = map[string]bool{}, map[string]bool{}
	ctxt := build.Default
	ctxt.BuildTags = tags
	fset := token.NewFileSet()
	for _, pkg := range pkgs {
		entries, err := os.ReadDir(pkg.Dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || name == annotate.GeneratedFileName {
				continue
			}
			if ok, err := ctxt.MatchFile(pkg.Dir, name); err != nil || !ok {
				continue
			}
			f, err := parser.ParseFile(fset, filepath.Join(pkg.Dir, name), nil, parser.SkipObjectResolution)
			if err != nil {
				continue
			}
			scanFile(f, resources, entrances)
		}
	}
	return resources, entrances
}

// scanFile adds the literal names of f's NewResource and WithEntrance calls.
func scanFile(f *ast.File, resources, entrances map[string]bool) {
	local, dot := runtimeImportName(f)
	if local == "" && !dot {
		return
	}
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		switch runtimeFunc(call.Fun, local, dot) {
		case "NewResource":
			if s, ok := stringArg(call, 0); ok {
				resources[s] = true
			}
		case "WithEntrance":
			if s, ok := stringArg(call, 1); ok {
				entrances[s] = true
			}
		}
		return true
	})
}

// runtimeImportName returns the name f refers to the runtime by ("" if f
// does not import it, or imports it for its side effects only) and whether
// it is dot-imported.
func runtimeImportName(f *ast.File) (local string, dot bool) {
	for _, spec := range f.Imports {
		path, err := strconv.Unquote(spec.Path.Value)
		if err != nil || path != runtimePath {
			continue
		}
		switch {
		case spec.Name == nil:
			local = "runtime" // the package clause of runtimePath
		case spec.Name.Name == ".":
			dot = true
		case spec.Name.Name != "_":
			local = spec.Name.Name
		}
	}
	return local, dot
}

// runtimeFunc returns the name of the runtime function fun calls, or "".
// Without type information a local variable shadowing the import name
// could fool it; that only adds a known name, never a false finding.
func runtimeFunc(fun ast.Expr, local string, dot bool) string {
	switch f := fun.(type) {
	case *ast.SelectorExpr:
		if x, ok := f.X.(*ast.Ident); ok && local != "" && x.Name == local {
			return f.Sel.Name
		}
	case *ast.Ident:
		if dot {
			return f.Name
		}
	}
	return ""
}

// stringArg returns call's i-th argument when it is a string literal.
func stringArg(call *ast.CallExpr, i int) (string, bool) {
	if i >= len(call.Args) {
		return "", false
	}
	lit, ok := call.Args[i].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}
