package annotate

import (
	"go/ast"
	"go/types"
	"strings"
)

// errorInterface is the underlying interface of the predeclared error.
var errorInterface = errorType.Underlying().(*types.Interface)

// matchers resolves the entries of an ignore or trace list. An entry naming
// a package-level variable matches with errors.Is; one naming a type (T or
// *T) matches with errors.As. Entries that do not resolve are reported and
// left out.
func (c *checker) matchers(arg Arg, file *ast.File) []ErrorMatcher {
	var ms []ErrorMatcher
	for _, it := range arg.Items() {
		if m, ok := c.matcher(arg.Key, it, file); ok {
			ms = append(ms, m)
		}
	}
	return ms
}

func (c *checker) matcher(key string, it ListItem, file *ast.File) (ErrorMatcher, bool) {
	m := ErrorMatcher{Written: it.Text, Pos: it.Pos}
	text, star := strings.CutPrefix(it.Text, "*")
	obj := c.lookupErrorName(key, it, text, file)
	if obj == nil {
		return m, false
	}
	m.Name = obj.Name()
	m.PkgPath = obj.Pkg().Path()
	switch obj := obj.(type) {
	case *types.Var:
		if star {
			c.report(it.Pos, "%s entry %s: %s is a variable, matched with errors.Is; drop the *", key, it.Text, text).Related = declaredHere(c, obj)
			return m, false
		}
		if !types.Implements(obj.Type(), errorInterface) {
			c.report(it.Pos, "%s entry %s is a variable of type %s, which is not an error", key, text,
				types.TypeString(obj.Type(), c.qualifier)).Related = declaredHere(c, obj)
			return m, false
		}
		m.Kind, m.Type = MatchValue, obj.Type()
		return m, true
	case *types.TypeName:
		t := obj.Type()
		if named, ok := t.(*types.Named); ok && named.TypeParams().Len() > 0 {
			c.report(it.Pos, "%s entry %s is a generic type; only non-generic error types can be matched", key, it.Text).Related = declaredHere(c, obj)
			return m, false
		}
		if star {
			t = types.NewPointer(t)
		}
		if !types.Implements(t, errorInterface) {
			hint := ""
			if !star && types.Implements(types.NewPointer(t), errorInterface) {
				hint = "; did you mean *" + text + "?"
			}
			c.report(it.Pos, "%s entry %s is a type that does not implement error%s", key, it.Text, hint).Related = declaredHere(c, obj)
			return m, false
		}
		m.Kind, m.Type = MatchType, t
		return m, true
	}
	c.report(it.Pos, "%s entry %s is %s, not an error variable or type", key, text, objectKind(obj)).Related = declaredHere(c, obj)
	return m, false
}

// lookupErrorName resolves Name (this package) or pkg.Name (an import of
// the directive's file), reporting names that do not resolve.
func (c *checker) lookupErrorName(key string, it ListItem, text string, file *ast.File) types.Object {
	qual, name, qualified := strings.Cut(text, ".")
	if !qualified {
		obj := c.pkg.Scope().Lookup(qual)
		if obj == nil || !c.isUserObject(obj) {
			c.report(it.Pos, "%s entry %s not found in package %s%s", key, qual, c.pkg.Name(), didYouMean(qual, errorNames(c.pkg, c.isUserObject)))
			return nil
		}
		return obj
	}
	pn, _ := c.fileScope(file).Lookup(qual).(*types.PkgName)
	if pn == nil {
		c.report(it.Pos, "%s entry %s: %s is not a package imported by %s", key, text, qual, baseName(c.position(file.Package).Filename))
		return nil
	}
	imported := pn.Imported()
	obj := imported.Scope().Lookup(name)
	if obj == nil || !obj.Exported() {
		c.report(it.Pos, "%s entry %s not found: package %s has no exported %s%s", key, text, imported.Name(), name,
			didYouMean(name, errorNames(imported, func(o types.Object) bool { return o.Exported() })))
		return nil
	}
	return obj
}

// errorNames lists the package-level error variables and error types of p
// that keep accepts, as suggestions.
func errorNames(p *types.Package, keep func(types.Object) bool) []string {
	var names []string
	for _, n := range p.Scope().Names() {
		obj := p.Scope().Lookup(n)
		if !keep(obj) {
			continue
		}
		if named, ok := obj.Type().(*types.Named); ok && named.TypeParams().Len() > 0 {
			continue // Implements is unspecified for uninstantiated types
		}
		switch obj.(type) {
		case *types.Var, *types.TypeName:
			t := obj.Type()
			if types.Implements(t, errorInterface) || types.Implements(types.NewPointer(t), errorInterface) {
				names = append(names, n)
			}
		}
	}
	return names
}
