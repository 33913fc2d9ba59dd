package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/sentinelgen/sentinelgen/annotate"
)

// needsFilter reports whether a resource's errors are sorted by ignore= or
// trace=; without either, every non-nil error is traced.
func needsFilter(r *annotate.Resource) bool {
	return r.Func.ErrorResult >= 0 && (len(r.Ignore) > 0 || len(r.Trace) > 0)
}

// errorFilter emits the function that decides whether an error of the
// resource is traced (and so handed to the fallback). ignore= is tried
// first because it wins over trace=. Values are matched with errors.Is and
// types with errors.AsType, which, unlike errors.As with a pointer to a
// local, does not allocate.
func (g *fileGen) errorFilter(r *annotate.Resource) {
	name := g.filter[r]
	if name == "" {
		return
	}
	local := g.pkgNames.child()
	errName := local.fresh("err")
	okName := local.fresh("ok")
	tx := typeExpr{}

	var stmts []jen.Code
	match := func(m annotate.ErrorMatcher, result bool) {
		if m.Kind == annotate.MatchType {
			stmts = append(stmts, jen.If(
				jen.List(jen.Id("_"), jen.Id(okName)).Op(":=").Qual(errorsPath, "AsType").Types(tx.code(m.Type)).Call(jen.Id(errName)),
				jen.Id(okName),
			).Block(jen.Return(jen.Lit(result))))
			return
		}
		stmts = append(stmts, jen.If(
			jen.Qual(errorsPath, "Is").Call(jen.Id(errName), g.qual(m.PkgPath, m.Name)),
		).Block(jen.Return(jen.Lit(result))))
	}
	for _, m := range r.Ignore {
		match(m, false)
	}
	for _, m := range r.Trace {
		match(m, true)
	}
	stmts = append(stmts, jen.Return(jen.Lit(len(r.Trace) == 0)))

	doc := fmt.Sprintf("%s reports whether an error of resource %q counts as a business error, to be traced\n"+
		"and answered by the fallback if there is one. ignore= is tried first: it wins over trace=.", name, r.Name)
	g.doc(doc)
	g.file.Func().Id(name).Params(jen.Id(errName).Error()).Bool().Block(stmts...)
}
