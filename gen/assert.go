package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/sentinelgen/sentinelgen/annotate"
)

// assertionDoc heads the signature assertions; it is what a developer reads
// when the build fails there.
const assertionDoc = `Compile-time checks of the handlers' signatures. The code below was generated
for exactly these signatures. If a handler has changed since, the build fails
first on the line naming it: restore the handler, or fix it and the directive
and run go generate again. Method expressions and function values are not
called, so these lines cost nothing at run time.`

// assertions emits one typed blank declaration per handler, at the top of
// the file (see Generate), each line naming its handler's role and resource
// and what to do when it fails. Non-generic
// handlers go in one var block; those that depend on type parameters go in a
// blank generic function per wrapper or function, where the parameters are in
// scope.
func (g *fileGen) assertions() {
	var plain []jen.Code
	var generic []jen.Code
	for _, w := range g.pkg.Wrappers {
		tps := g.tparams[w]
		recv := jen.Op("*").Id(w.Recv.TypeName).Types(typeArgs(tps)...)
		var lines []jen.Code
		for _, r := range w.Methods {
			for _, h := range handlers(r) {
				lines = append(lines, g.assertion(r, h, typeExpr{tparams: tps}, recv, tps))
			}
		}
		if len(tps) == 0 {
			plain = append(plain, lines...)
		} else if len(lines) > 0 {
			generic = append(generic, g.genericAssertions(tps, w.Recv.TypeParams, lines))
		}
	}
	for _, r := range g.pkg.Resources {
		if r.Func.Recv != nil {
			continue
		}
		tps := tparamNames(r.Func.TypeParams)
		var lines []jen.Code
		for _, h := range handlers(r) {
			lines = append(lines, g.assertion(r, h, typeExpr{tparams: tps}, nil, tps))
		}
		if len(tps) == 0 {
			plain = append(plain, lines...)
		} else if len(lines) > 0 {
			generic = append(generic, g.genericAssertions(tps, r.Func.TypeParams, lines))
		}
	}
	if len(plain)+len(generic) == 0 {
		return
	}
	g.doc(assertionDoc)
	if len(plain) > 0 {
		g.file.Var().Defs(plain...)
	}
	for i, fn := range generic {
		if i > 0 || len(plain) > 0 {
			g.file.Line() // the doc comment stays attached to the first declaration
		}
		g.file.Add(fn)
	}
}

// assertion is `_ func(<recv>, params) results = <handler>`: a method
// expression (*T).h for a method, so nothing is evaluated at init, or the
// function itself.
func (g *fileGen) assertion(r *annotate.Resource, h *annotate.Handler, tx typeExpr, recv *jen.Statement, tps []string) jen.Code {
	sig := h.Type
	params := make([]jen.Code, 0, sig.Params().Len()+1)
	if h.Kind == annotate.HandlerMethod {
		params = append(params, recv.Clone())
	}
	for i := range sig.Params().Len() {
		params = append(params, tx.code(sig.Params().At(i).Type()))
	}
	var value *jen.Statement
	if h.Kind == annotate.HandlerMethod {
		value = jen.Parens(recv.Clone()).Dot(h.Name)
	} else {
		value = g.qual(h.PkgPath, h.Name)
		if n := signatureTypeParams(sig); n > 0 && n == len(tps) {
			value = value.Types(typeArgs(tps)...)
		}
	}
	return jen.Id("_").Func().Params(params...).Add(tx.results(sig.Results())).Op("=").Add(value).
		Comment(fmt.Sprintf("%s of resource %q; if it changed, run go generate", roleName(h.Role), r.Name))
}

// genericAssertions wraps assertions in `func _[K comparable, V any]() {...}`.
func (g *fileGen) genericAssertions(tps []string, decl []annotate.TypeParam, lines []jen.Code) jen.Code {
	tx := typeExpr{tparams: tps}
	return jen.Func().Id("_").Types(typeParamList(tps, decl, tx)...).Params().Block(jen.Var().Defs(lines...))
}
