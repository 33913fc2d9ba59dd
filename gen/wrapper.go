package gen

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/sentinelgen/sentinelgen/annotate"
)

// wrapper emits, for one receiver type T, the guarded type
// `type GuardedT struct{ *T }`, its constructor and one guarded method per
// annotated method. Methods that are not annotated reach the caller through
// the embedded *T, so GuardedT has *T's whole method set and satisfies the
// same interfaces.
func (g *fileGen) wrapper(w *annotate.Wrapper) {
	tps := g.tparams[w]
	tx := typeExpr{tparams: tps}
	args := typeArgs(tps)
	inner := jen.Op("*").Id(w.Recv.TypeName).Types(args...)

	g.doc(wrapperDoc(w))
	g.file.Type().Id(w.TypeName).Types(typeParamList(tps, w.Recv.TypeParams, tx)...).Struct(inner)

	param := g.pkgNames.child()
	for _, n := range tps {
		param.reserve(n)
	}
	innerName := param.fresh("inner")
	g.doc(fmt.Sprintf("%s returns %s guarded: the annotated methods of %s run under their Sentinel resources.",
		w.Constructor, innerName, receiverString(w.Recv)))
	g.file.Func().Id(w.Constructor).Types(typeParamList(tps, w.Recv.TypeParams, tx)...).
		Params(jen.Id(innerName).Add(inner.Clone())).
		Op("*").Id(w.TypeName).Types(args...).
		Block(jen.Return(jen.Op("&").Id(w.TypeName).Types(args...).Values(jen.Id(innerName))))

	for _, r := range w.Methods {
		g.method(w, r)
	}
}

// wrapperTypeParams names the wrapper's type parameters: the type's own
// names, except where a method of the wrapper has a parameter of that name.
// That is legal in the user's method, which may call its type parameters
// something else, but would clash in the wrapper, which uses one set of names
// for all its methods.
func (g *fileGen) wrapperTypeParams(w *annotate.Wrapper) []string {
	if len(w.Recv.TypeParams) == 0 {
		return nil
	}
	params := newNames()
	for _, r := range w.Methods {
		for _, p := range r.Func.Params {
			params.reserve(p.Name)
		}
	}
	out := make([]string, len(w.Recv.TypeParams))
	for i, tp := range w.Recv.TypeParams {
		out[i] = tp.Name
		if params.has(tp.Name) {
			out[i] = g.scope.fresh(tp.Name) // the scope holds every parameter name
		}
	}
	return out
}

// wrapperDoc says what a guarded type guards, one line per method.
func wrapperDoc(w *annotate.Wrapper) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s is %s with Sentinel flow control and circuit breaking on its annotated methods:\n",
		w.TypeName, receiverString(w.Recv))
	for _, r := range w.Methods {
		fmt.Fprintf(&b, "  - %s: resource %q%s\n", r.Func.Name, r.Name, handlerSummary(r))
	}
	fmt.Fprintf(&b, "\nIts other methods are those of %s, promoted through embedding.", receiverString(w.Recv))
	return b.String()
}

// receiverString writes the receiver type for comments: *T or *T[K, V].
func receiverString(recv *annotate.Receiver) string {
	if len(recv.TypeParams) == 0 {
		return "*" + recv.TypeName
	}
	return "*" + recv.TypeName + "[" + strings.Join(tparamNames(recv.TypeParams), ", ") + "]"
}

// handlerSummary lists a resource's handlers for doc comments, e.g.
// " (blockHandler createOrderBlocked, fallback createOrderFallback)".
func handlerSummary(r *annotate.Resource) string {
	var parts []string
	for _, h := range handlers(r) {
		parts = append(parts, roleName(h.Role)+" "+h.Written)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// roleName is the directive key of a handler role.
func roleName(role annotate.HandlerRole) string {
	switch role {
	case annotate.RoleBlockHandler:
		return "blockHandler"
	case annotate.RoleFallback:
		return "fallback"
	}
	return "defaultFallback"
}
