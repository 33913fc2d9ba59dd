package annotate

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
)

// registrations finds the names f passes to runtime.NewResource and
// runtime.WithEntrance as string literals, or as identifiers that constant
// resolves to a string (package-level constants: the package scope is
// type-checked on every load route; nil resolves nothing), whatever name f
// imports the runtime under. Function bodies are not type-checked on every
// load route, so calls are matched by the import's name: a local variable
// shadowing it could add a name, never hide one.
func registrations(fset *token.FileSet, f *ast.File, constant func(name string) (string, bool)) []Registration {
	local, dot := runtimeImportName(f)
	if local == "" && !dot {
		return nil
	}
	var out []Registration
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		kind, arg := RegisterResource, -1
		switch runtimeFunc(call.Fun, local, dot) {
		case "NewResource":
			arg = 0
		case "WithEntrance":
			kind, arg = SetEntrance, 1
		}
		if lit, s, ok := stringArg(call, arg); ok {
			out = append(out, Registration{Kind: kind, Name: s, Pos: fset.Position(lit.Pos())})
		} else if id, ok := identArg(call, arg); ok && constant != nil {
			if s, ok := constant(id.Name); ok {
				out = append(out, Registration{Kind: kind, Name: s, Pos: fset.Position(id.Pos())})
			}
		}
		return true
	})
	return out
}

// runtimeImportName returns the name f refers to the runtime by ("" if f
// does not import it, or imports it for its side effects only) and whether
// it is dot-imported.
func runtimeImportName(f *ast.File) (local string, dot bool) {
	for _, spec := range f.Imports {
		path, err := strconv.Unquote(spec.Path.Value)
		if err != nil || path != RuntimePath {
			continue
		}
		switch {
		case spec.Name == nil:
			local = "runtime" // the package clause of RuntimePath
		case spec.Name.Name == ".":
			dot = true
		case spec.Name.Name != "_":
			local = spec.Name.Name
		}
	}
	return local, dot
}

// runtimeFunc returns the name of the runtime function fun calls, or "".
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
func stringArg(call *ast.CallExpr, i int) (*ast.BasicLit, string, bool) {
	if i < 0 || i >= len(call.Args) {
		return nil, "", false
	}
	lit, ok := call.Args[i].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return nil, "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return lit, s, err == nil
}

// identArg returns call's i-th argument when it is a plain identifier.
func identArg(call *ast.CallExpr, i int) (*ast.Ident, bool) {
	if i < 0 || i >= len(call.Args) {
		return nil, false
	}
	id, ok := call.Args[i].(*ast.Ident)
	return id, ok
}

// packageStringConst resolves name to the value of a string constant
// declared at pkg's package level.
func packageStringConst(pkg *types.Package) func(name string) (string, bool) {
	if pkg == nil {
		return nil
	}
	return func(name string) (string, bool) {
		c, ok := pkg.Scope().Lookup(name).(*types.Const)
		if !ok || c.Val().Kind() != constant.String {
			return "", false
		}
		return constant.StringVal(c.Val()), true
	}
}
