package annotate

import (
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"
)

// handlerSite is the annotated declaration a handler is resolved for.
type handlerSite struct {
	fn   *Func
	sig  *types.Signature
	file *ast.File
	decl *ast.FuncDecl // the annotated declaration, where a handler stub goes
}

// genericRecv reports whether the annotated method's receiver type is generic.
func (s handlerSite) genericRecv() bool { return s.fn.Recv != nil && len(s.fn.Recv.TypeParams) > 0 }

var roleKeys = [...]string{
	RoleBlockHandler:    KeyBlockHandler,
	RoleFallback:        KeyFallback,
	RoleDefaultFallback: KeyDefaultFallback,
}

// handler resolves and checks the handler named by arg.
func (c *checker) handler(role HandlerRole, arg Arg, site handlerSite) *Handler {
	h := &Handler{Role: role, Written: arg.Value, Pos: arg.ValuePos}
	key := roleKeys[role]
	fn := c.lookupHandler(key, arg, site, h)
	if fn == nil {
		return nil
	}
	h.DeclPos = c.position(fn.Pos())
	h.Type = fn.Type().(*types.Signature)
	if h.Kind == HandlerMethod {
		// The method's signature without its receiver, as gen asserts it.
		h.Type = types.NewSignatureType(nil, nil, nil, h.Type.Params(), h.Type.Results(), h.Type.Variadic())
	}
	if !c.checkHandlerSignature(role, h, site) {
		return nil
	}
	return h
}

// lookupHandler finds the function or method named by arg, filling h's
// Kind, PkgPath and Name, or reports why there is none.
func (c *checker) lookupHandler(key string, arg Arg, site handlerSite, h *Handler) *types.Func {
	qual, name, qualified := strings.Cut(arg.Value, ".")
	if qualified {
		return c.lookupImportedFunc(key, arg, qual, name, site, h)
	}
	name = qual
	h.Name = name
	if site.fn.Recv != nil {
		if m, settled := c.lookupMethod(key, arg, name, site, h); settled {
			return m
		}
	}
	obj := c.pkg.Scope().Lookup(name)
	if fn, ok := obj.(*types.Func); ok && c.isUserObject(fn) {
		if site.genericRecv() {
			c.report(arg.ValuePos, "%s %s is a function, but the handlers of a method of the generic type %s must be methods of %s",
				key, name, site.fn.Recv.TypeName, site.fn.Recv.TypeName).Related = declaredHere(c, fn)
			return nil
		}
		h.Kind, h.PkgPath = HandlerFunc, c.pkg.Path()
		return fn
	}
	if obj != nil && c.isUserObject(obj) {
		c.report(arg.ValuePos, "%s %s is %s, not a function", key, name, objectKind(obj)).Related = declaredHere(c, obj)
		return nil
	}
	if owner, m := c.methodOfOtherType(name, site); m != nil {
		if site.fn.Recv == nil {
			c.report(arg.ValuePos, "%s %s is a method of %s; the handlers of function %s must be functions", key, name, owner, site.fn.Name).Related = declaredHere(c, m)
		} else {
			c.report(arg.ValuePos, "%s %s is a method of %s, not of %s; a handler must be in %s's method set or a function",
				key, name, owner, site.fn.Recv.TypeName, site.fn.Recv.TypeName).Related = declaredHere(c, m)
		}
		return nil
	}
	where := "package " + c.pkg.Name()
	candidates := c.packageFuncs()
	if site.fn.Recv != nil {
		where = "the method set of " + site.fn.Recv.TypeName + " or package " + c.pkg.Name()
		candidates = append(candidates, c.methodNames(site)...)
	}
	c.report(arg.ValuePos, "%s %s not found in %s%s", key, name, where, didYouMean(name, candidates)).Fixes =
		c.missingHandlerFixes(h.Role, arg, name, candidates, site)
	return nil
}

// lookupMethod looks name up in the method set of the annotated method's
// receiver (through embedded fields, and on the pointer so that both value
// and pointer methods count). settled is false when the name is not in the
// method set, so the caller goes on to package functions.
func (c *checker) lookupMethod(key string, arg Arg, name string, site handlerSite, h *Handler) (m *types.Func, settled bool) {
	recv := site.sig.Recv().Type()
	if _, ok := recv.(*types.Pointer); !ok {
		recv = types.NewPointer(recv)
	}
	obj, index, _ := types.LookupFieldOrMethod(recv, true, c.pkg, name)
	if obj == nil && index != nil {
		c.report(arg.ValuePos, "%s %s is ambiguous: several embedded fields of %s provide it at the same depth", key, name, site.fn.Recv.TypeName)
		return nil, true
	}
	switch obj := obj.(type) {
	case *types.Func:
		if !c.isUserObject(obj) {
			return nil, false
		}
		h.Kind = HandlerMethod
		return obj, true
	case *types.Var:
		c.report(arg.ValuePos, "%s %s is a field of %s, not a method", key, name, site.fn.Recv.TypeName).Related = declaredHere(c, obj)
		return nil, true
	}
	return nil, false
}

// lookupImportedFunc resolves pkg.Func through the file's imports.
func (c *checker) lookupImportedFunc(key string, arg Arg, qual, name string, site handlerSite, h *Handler) *types.Func {
	h.Kind, h.Name = HandlerFunc, name
	pn, _ := c.fileScope(site.file).Lookup(qual).(*types.PkgName)
	if pn == nil {
		c.report(arg.ValuePos, "%s %s: %s is not a package imported by %s", key, arg.Value, qual, baseName(c.position(site.file.Package).Filename))
		return nil
	}
	if site.genericRecv() {
		c.report(arg.ValuePos, "%s %s is a function, but the handlers of a method of the generic type %s must be methods of %s",
			key, arg.Value, site.fn.Recv.TypeName, site.fn.Recv.TypeName)
		return nil
	}
	imported := pn.Imported()
	h.PkgPath = imported.Path()
	// Unexported names are refused before the lookup: a package read from
	// export data (a dependency, or any package in an analyzer) does not
	// hold them, so the lookup would answer "not found" where source says
	// they exist. Either way the name cannot be called from here.
	if !token.IsExported(name) {
		c.report(arg.ValuePos, "%s %s is not exported by package %s%s", key, arg.Value, imported.Name(),
			didYouMean(name, exportedFuncs(imported))).Fixes = renameFixes(arg, qual+".", name, exportedFuncs(imported))
		return nil
	}
	obj := imported.Scope().Lookup(name)
	if obj == nil {
		c.report(arg.ValuePos, "%s %s not found: package %s has no function %s%s", key, arg.Value, imported.Name(), name,
			didYouMean(name, exportedFuncs(imported))).Fixes = renameFixes(arg, qual+".", name, exportedFuncs(imported))
		return nil
	}
	fn, ok := obj.(*types.Func)
	if !ok {
		c.report(arg.ValuePos, "%s %s is %s, not a function", key, arg.Value, objectKind(obj)).Related = declaredHere(c, obj)
		return nil
	}
	return fn
}

// fileScope returns the scope holding a file's imports.
func (c *checker) fileScope(f *ast.File) *types.Scope {
	if s := c.info.Scopes[f]; s != nil {
		return s
	}
	return types.NewScope(nil, 0, 0, "empty")
}

// methodOfOtherType finds a method called name on another named type of the
// package, for a precise message when a handler is on the wrong type.
func (c *checker) methodOfOtherType(name string, site handlerSite) (string, *types.Func) {
	scope := c.pkg.Scope()
	for _, tn := range scope.Names() {
		obj, ok := scope.Lookup(tn).(*types.TypeName)
		if !ok || !c.isUserObject(obj) || site.fn.Recv != nil && tn == site.fn.Recv.TypeName {
			continue
		}
		named, ok := obj.Type().(*types.Named)
		if !ok {
			continue
		}
		for m := range named.Methods() {
			if m.Name() == name {
				return tn, m
			}
		}
	}
	return "", nil
}

// methodNames lists the receiver's method set for suggestions.
func (c *checker) methodNames(site handlerSite) []string {
	recv := site.sig.Recv().Type()
	if _, ok := recv.(*types.Pointer); !ok {
		recv = types.NewPointer(recv)
	}
	ms := types.NewMethodSet(recv)
	names := make([]string, 0, ms.Len())
	for i := range ms.Len() {
		names = append(names, ms.At(i).Obj().Name())
	}
	return names
}

// packageFuncs lists the user's package-level functions for suggestions.
func (c *checker) packageFuncs() []string {
	var names []string
	for _, n := range c.pkg.Scope().Names() {
		if fn, ok := c.pkg.Scope().Lookup(n).(*types.Func); ok && c.isUserObject(fn) {
			names = append(names, n)
		}
	}
	return names
}

func exportedFuncs(p *types.Package) []string {
	var names []string
	for _, n := range p.Scope().Names() {
		if _, ok := p.Scope().Lookup(n).(*types.Func); ok && token.IsExported(n) {
			names = append(names, n)
		}
	}
	return names
}

// declaredHere points at obj's declaration, except in the standard library,
// whose line numbers change with every Go release and are of no help.
func declaredHere(c *checker, obj types.Object) []RelatedInfo {
	pos := c.position(obj.Pos())
	if !pos.IsValid() || inGOROOT(pos.Filename) {
		return nil
	}
	return []RelatedInfo{{Pos: pos, Message: obj.Name() + " declared here"}}
}

// inGOROOT reports whether file is in the standard library, as written by
// export data ("$GOROOT/src/...") or as a real path.
func inGOROOT(file string) bool {
	if strings.HasPrefix(file, "$GOROOT") {
		return true
	}
	root := build.Default.GOROOT
	return root != "" && strings.HasPrefix(file, root+string(filepath.Separator))
}

// objectKind describes what kind of thing obj is, with an article.
func objectKind(obj types.Object) string {
	switch obj.(type) {
	case *types.Var:
		return "a variable"
	case *types.Const:
		return "a constant"
	case *types.TypeName:
		return "a type"
	case *types.PkgName:
		return "a package name"
	case *types.Func:
		return "a function"
	}
	return "not a function"
}

func baseName(path string) string {
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		return path[i+1:]
	}
	return path
}
