package gen

import (
	"go/types"
	"path"
	"sort"

	"github.com/dave/jennifer/jen"

	"github.com/sentinelgen/sentinelgen/annotate"
)

// Import paths the generated code itself refers to.
const (
	runtimePath = annotate.RuntimePath
	contextPath = "context"
	timePath    = "time"
	errorsPath  = "errors"
)

// importNames decides, before anything is written, the name under which the
// generated file imports each package it refers to. A name must not be a
// package-level name of the user's package, nor any parameter name in the
// file: a parameter called runtime or errors would otherwise shadow the
// import inside the wrapper's body. Deciding all names up front (in path
// order) keeps the output deterministic and lets jennifer print them as given.
func importNames(pkg *annotate.Package, paths map[string]string, taken *names) map[string]string {
	sorted := make([]string, 0, len(paths))
	for p := range paths {
		sorted = append(sorted, p)
	}
	sort.Strings(sorted)
	chosen := make(map[string]string, len(paths))
	for _, p := range sorted {
		if p == pkg.Path {
			continue
		}
		chosen[p] = taken.fresh(paths[p])
	}
	return chosen
}

// applyImports tells jennifer the names decided by importNames.
func applyImports(f *jen.File, chosen map[string]string, declared map[string]string) {
	for p, name := range chosen {
		if name == declared[p] {
			f.ImportName(p, name)
		} else {
			f.ImportAlias(p, name)
		}
	}
}

// packageCollector gathers every package a set of types refers to, with the
// package's declared name.
type packageCollector struct {
	paths map[string]string // import path -> package name
	seen  map[types.Type]bool
}

func newPackageCollector() *packageCollector {
	return &packageCollector{paths: make(map[string]string), seen: make(map[types.Type]bool)}
}

// add records a package by path and name.
func (c *packageCollector) add(pkgPath, name string) {
	if name == "" {
		name = path.Base(pkgPath)
	}
	c.paths[pkgPath] = name
}

// addType records the packages that the source form of t names.
func (c *packageCollector) addType(t types.Type) {
	if t == nil || c.seen[t] {
		return
	}
	c.seen[t] = true
	switch t := t.(type) {
	case *types.Basic:
		if t.Kind() == types.UnsafePointer {
			c.add("unsafe", "unsafe")
		}
	case *types.Alias:
		c.addObj(t.Obj())
		for i := range t.TypeArgs().Len() {
			c.addType(t.TypeArgs().At(i))
		}
	case *types.Named:
		c.addObj(t.Obj())
		for i := range t.TypeArgs().Len() {
			c.addType(t.TypeArgs().At(i))
		}
	case *types.Pointer:
		c.addType(t.Elem())
	case *types.Slice:
		c.addType(t.Elem())
	case *types.Array:
		c.addType(t.Elem())
	case *types.Map:
		c.addType(t.Key())
		c.addType(t.Elem())
	case *types.Chan:
		c.addType(t.Elem())
	case *types.Signature:
		c.addTuple(t.Params())
		c.addTuple(t.Results())
	case *types.Struct:
		for i := range t.NumFields() {
			c.addType(t.Field(i).Type())
		}
	case *types.Interface:
		for i := range t.NumEmbeddeds() {
			c.addType(t.EmbeddedType(i))
		}
		for i := range t.NumExplicitMethods() {
			c.addType(t.ExplicitMethod(i).Type())
		}
	case *types.Union:
		for i := range t.Len() {
			c.addType(t.Term(i).Type())
		}
	}
	// A *types.TypeParam names no package: its constraint is written where
	// it is declared, from the model's TypeParam.Constraint.
}

func (c *packageCollector) addObj(obj *types.TypeName) {
	if obj.Pkg() != nil {
		c.add(obj.Pkg().Path(), obj.Pkg().Name())
	}
}

func (c *packageCollector) addTuple(t *types.Tuple) {
	for i := range t.Len() {
		c.addType(t.At(i).Type())
	}
}
