package gen

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/sentinelgen/sentinelgen/annotate"
)

// method emits the guarded form of one annotated method on its wrapper type.
// It has the method's exact signature, so the wrapper satisfies every
// interface *T does.
func (g *fileGen) method(w *annotate.Wrapper, r *annotate.Resource) {
	tps := g.tparams[w]
	local := g.localScope(r, tps)
	recv := local.fresh("g")
	b := &guardedBody{g: g, r: r, tx: typeExpr{tparams: tps}, local: local, params: paramNames(r.Func.Params, local)}
	inner := func() *jen.Statement { return jen.Id(recv).Dot(w.Recv.TypeName) }
	handler := func(h *annotate.Handler) *jen.Statement {
		if h.Kind == annotate.HandlerMethod {
			return inner().Dot(h.Name)
		}
		return g.qual(h.PkgPath, h.Name)
	}

	g.doc(methodDoc(r, r.Func.Name, fmt.Sprintf("(%s).%s", receiverString(w.Recv), r.Func.Name)))
	g.file.Func().Params(jen.Id(recv).Op("*").Id(w.TypeName).Types(typeArgs(tps)...)).
		Id(r.Func.Name).Add(b.signature()).
		Block(b.statements(inner().Dot(r.Func.Name), handler)...)
	g.errorFilter(r)
}

// function emits GuardedF for an annotated package-level function F, with
// F's signature and type parameters.
func (g *fileGen) function(r *annotate.Resource) {
	tps := tparamNames(r.Func.TypeParams)
	tx := typeExpr{tparams: tps}
	local := g.localScope(r, tps)
	b := &guardedBody{g: g, r: r, tx: tx, local: local, params: paramNames(r.Func.Params, local)}
	target := jen.Id(r.Func.Name).Types(typeArgs(tps)...)
	handler := func(h *annotate.Handler) *jen.Statement {
		call := g.qual(h.PkgPath, h.Name)
		// A generic handler is instantiated with F's type parameters, which it
		// shares by position (annotate checked the signatures match).
		if n := signatureTypeParams(h.Type); n > 0 && n == len(tps) {
			call = call.Types(typeArgs(tps)...)
		}
		return call
	}

	g.doc(methodDoc(r, r.GeneratedName, r.Func.Name))
	g.file.Func().Id(r.GeneratedName).Types(typeParamList(tps, r.Func.TypeParams, tx)...).
		Add(b.signature()).
		Block(b.statements(target, handler)...)
	g.errorFilter(r)
}

// localScope is the scope of one generated body: the package-level names,
// the type parameters and the user's parameter names, which the body keeps.
func (g *fileGen) localScope(r *annotate.Resource, tparams []string) *names {
	local := g.pkgNames.child()
	for _, n := range tparams {
		local.reserve(n)
	}
	for _, p := range r.Func.Params {
		local.reserve(p.Name)
	}
	return local
}

// paramNames keeps the user's parameter names (they make go doc readable)
// and names the unnamed and blank ones, which the body must forward, and
// those that would shadow a predeclared type the body converts keys to.
func paramNames(params []annotate.Var, local *names) []string {
	out := make([]string, len(params))
	for i, p := range params {
		if p.Name == "" || p.Name == "_" || keyConversions[p.Name] {
			out[i] = local.fresh(fmt.Sprintf("arg%d", i))
		} else {
			out[i] = p.Name
		}
	}
	return out
}

// guardedBody writes the body shared by guarded methods and functions.
type guardedBody struct {
	g      *fileGen
	r      *annotate.Resource
	tx     typeExpr
	local  *names
	params []string
}

// signature writes the wrapper's parameters and results: the same types as
// the annotated function, the variadic parameter still variadic.
func (b *guardedBody) signature() *jen.Statement {
	f := b.r.Func
	params := make([]jen.Code, len(f.Params))
	for i, p := range f.Params {
		if f.Variadic && i == len(f.Params)-1 {
			params[i] = jen.Id(b.params[i]).Op("...").Add(b.tx.code(sliceElem(p.Type)))
		} else {
			params[i] = jen.Id(b.params[i]).Add(b.tx.code(p.Type))
		}
	}
	results := make([]jen.Code, len(f.Results))
	for i, v := range f.Results {
		results[i] = b.tx.code(v.Type)
	}
	s := jen.Params(params...)
	switch len(results) {
	case 0:
		return s
	case 1:
		return s.Add(results[0])
	}
	return s.Params(results...)
}

// statements is the guarded call:
//
//	var e runtime.Entry
//	if blockErr := res.EntryTo(e.InPlace(), ctx); blockErr != nil { return <block path> }
//	  (for a function with hot-parameter keys, the entry of enterWithArgs,
//	  then if blockErr != nil { return <block path> })
//	returned := false
//	defer func() { <if !returned: trace the panic>; e.Exit() }()
//	<call>
//	returned = true
//	<trace, fallback>
//
// The deferred Exit runs once on every admitted path, a panic included, and
// after the handlers, which therefore run inside the entry. A call that
// panics is traced as an error, so that error-based breakers see a panicking
// dependency, and its panic goes on to the caller: it is not a returned
// error, so the fallback never sees it. The flag, rather than a recover on
// every path, keeps the panic untouched (value, stack and crash message)
// and costs one stack store when the call returns; see panicked. EntryTo
// fills e in place rather than returning it to be copied, which spares a
// copy of the Entry on every pass, and e.InPlace tells it that e is never
// copied (only the deferred closure refers to it), which spares the exit
// ticket that guards copies.
func (b *guardedBody) statements(target *jen.Statement, handler func(*annotate.Handler) *jen.Statement) []jen.Code {
	if b.r.Retries > 0 {
		return b.retried(target, handler)
	}
	entry := b.local.fresh("e")
	blockErr := b.local.fresh("blockErr")
	ctx := b.context()
	returned := b.local.fresh("returned")
	stmts := []jen.Code{jen.Var().Id(entry).Qual(runtimePath, "Entry")}
	if hasKeys(b.r) {
		stmts = append(stmts, b.enterWithArgs(entry, blockErr, ctx)...)
		stmts = append(stmts, jen.If(jen.Id(blockErr).Op("!=").Nil()).Block(b.blocked(blockErr, handler)...))
	} else {
		stmts = append(stmts, jen.If(
			jen.Id(blockErr).Op(":=").Id(b.g.resVar[b.r]).Dot("EntryTo").Call(jen.Id(entry).Dot("InPlace").Call(), ctx),
			jen.Id(blockErr).Op("!=").Nil(),
		).Block(b.blocked(blockErr, handler)...))
	}
	stmts = append(stmts,
		jen.Id(returned).Op(":=").False(),
		jen.Defer().Func().Params().Block(b.exit(entry, returned)...).Call(),
	)
	return append(stmts, b.admitted(entry, returned, target, handler)...)
}

// context is the context the guarded call runs under: its first parameter,
// or context.Background() for a function without one.
func (b *guardedBody) context() jen.Code {
	if b.r.Func.HasContext {
		return jen.Id(b.params[0])
	}
	return jen.Qual(contextPath, "Background").Call()
}

// exit is the body of the deferred function: when the call did not return,
// trace it (panicked), then Exit.
func (b *guardedBody) exit(entry, returned string) []jen.Code {
	return []jen.Code{
		jen.If(jen.Op("!").Id(returned)).Block(b.panicked(entry)...),
		jen.Id(entry).Dot("Exit").Call(),
	}
}

// panicked handles a call that did not return: it panicked or called
// runtime.Goexit. Without ignore= or trace= every such call is traced as
// runtime.ErrPanicked; the panic is not recovered and unwinds on as if
// there were no wrapper. With them, the panic's value is judged as a
// returned error would be: an error value by the filter itself, any other
// value as runtime.ErrPanicked (which matches no entry unless the directive
// names it, so it is traced unless trace= is given, as a Java Throwable not
// listed in exceptionsToTrace is not). That needs the value, so this path
// recovers, traces, exits and panics again with the same value; the crash
// message then says "[recovered, repanicked]" above the original frames.
func (b *guardedBody) panicked(entry string) []jen.Code {
	errPanicked := jen.Qual(runtimePath, "ErrPanicked")
	filter := b.g.filter[b.r]
	if filter == "" {
		return []jen.Code{jen.Id(entry).Dot("TraceError").Call(errPanicked)}
	}
	scope := b.local.child()
	p, err, ok := scope.fresh("p"), scope.fresh("err"), scope.fresh("ok")
	return []jen.Code{
		jen.Id(p).Op(":=").Recover(),
		jen.List(jen.Id(err), jen.Id(ok)).Op(":=").Id(p).Assert(jen.Error()),
		jen.If(jen.Op("!").Id(ok)).Block(jen.Id(err).Op("=").Add(errPanicked)),
		jen.If(jen.Id(filter).Call(jen.Id(err))).Block(jen.Id(entry).Dot("TraceError").Call(jen.Id(err))),
		jen.Id(entry).Dot("Exit").Call(),
		// A nil value is runtime.Goexit, which goes on by itself.
		jen.If(jen.Id(p).Op("!=").Nil()).Block(jen.Panic(jen.Id(p))),
		jen.Return(),
	}
}

// blocked is the block path: blockHandler, else fallback, else
// defaultFallback, else the zero results and the *BlockError as the error.
func (b *guardedBody) blocked(blockErr string, handler func(*annotate.Handler) *jen.Statement) []jen.Code {
	r := b.r
	for _, h := range []*annotate.Handler{r.BlockHandler, r.Fallback, r.DefaultFallback} {
		if h != nil {
			return b.returnCall(handler(h).Call(b.handlerArgs(h, blockErr)...))
		}
	}
	f := r.Func
	if f.ErrorResult < 0 {
		panic(fmt.Sprintf("%s has no error result and no handler for a block", f.Name))
	}
	var stmts []jen.Code
	values := make([]jen.Code, len(f.Results))
	for i, v := range f.Results {
		if i == f.ErrorResult {
			values[i] = jen.Id(blockErr)
			continue
		}
		zero := b.local.fresh(fmt.Sprintf("zero%d", i))
		stmts = append(stmts, jen.Var().Id(zero).Add(b.tx.code(v.Type)))
		values[i] = jen.Id(zero)
	}
	return append(stmts, jen.Return(values...))
}

// admitted is the path of an admitted call: call the function and mark it
// returned; if it returned an error that counts (see errorFilter), trace it
// and hand over to the fallback; otherwise return the results unchanged.
func (b *guardedBody) admitted(entry, returned string, target *jen.Statement, handler func(*annotate.Handler) *jen.Statement) []jen.Code {
	f := b.r.Func
	t := b.timed()
	call := target.Call(t.args...)
	markReturned := jen.Id(returned).Op("=").True()
	if len(f.Results) == 0 {
		return []jen.Code{call, markReturned}
	}
	results := make([]jen.Code, len(f.Results))
	var errName string
	for i := range f.Results {
		if i == f.ErrorResult {
			errName = b.local.fresh("err")
			results[i] = jen.Id(errName)
		} else {
			results[i] = jen.Id(b.local.fresh(fmt.Sprintf("r%d", i)))
		}
	}
	if f.ErrorResult < 0 {
		return []jen.Code{jen.List(results...).Op(":=").Add(call), markReturned, jen.Return(results...)}
	}
	cond := jen.Id(errName).Op("!=").Nil()
	if name := b.g.filter[b.r]; name != "" {
		cond = cond.Op("&&").Id(name).Call(jen.Id(errName))
	}
	onError := []jen.Code{jen.Id(entry).Dot("TraceError").Call(jen.Id(errName))}
	handled := false
	for _, h := range []*annotate.Handler{b.r.Fallback, b.r.DefaultFallback} {
		if h != nil {
			onError = append(onError, jen.Return(handler(h).Call(b.handlerArgs(h, errName)...)))
			handled = true
			break
		}
	}
	final := results
	if handled && b.g.filter[b.r] == "" {
		// Every non-nil error went to the fallback: what is left is nil,
		// and saying so lets the compiler drop the error's registers.
		final = append([]jen.Code(nil), results...)
		final[f.ErrorResult] = jen.Nil()
	}
	stmts := append(t.before, jen.List(results...).Op(":=").Add(call))
	stmts = append(stmts, t.after...)
	stmts = append(stmts, markReturned)
	stmts = append(stmts, t.judge(errName)...)
	return append(stmts,
		jen.If(cond).Block(onError...),
		jen.Return(final...),
	)
}

// callArgs forwards the parameters to the wrapped function, the variadic one
// spread again.
func (b *guardedBody) callArgs() []jen.Code {
	args := make([]jen.Code, len(b.params))
	for i, p := range b.params {
		args[i] = jen.Id(p)
		if b.r.Func.Variadic && i == len(b.params)-1 {
			args[i] = jen.Id(p).Op("...")
		}
	}
	return args
}

// handlerArgs is what a handler receives: the parameters (the variadic one
// as its slice) unless it is a defaultFallback, then the error if it takes one.
func (b *guardedBody) handlerArgs(h *annotate.Handler, errName string) []jen.Code {
	var args []jen.Code
	if h.Role != annotate.RoleDefaultFallback {
		for _, p := range b.params {
			args = append(args, jen.Id(p))
		}
	}
	if h.TakesError {
		args = append(args, jen.Id(errName))
	}
	return args
}

// returnCall returns a handler's results, or calls it and returns for a
// function without results.
func (b *guardedBody) returnCall(call *jen.Statement) []jen.Code {
	if len(b.r.Func.Results) == 0 {
		return []jen.Code{call, jen.Return()}
	}
	return []jen.Code{jen.Return(call)}
}

// methodDoc documents a guarded method or function: what it guards and what
// each outcome returns.
func methodDoc(r *annotate.Resource, name, guarded string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s calls %s as Sentinel resource %q.\n", name, guarded, r.Name)
	if isGeneric(r) {
		// The resource is one package-level variable: Go has no per-
		// instantiation variables, and Sentinel names a resource by string.
		b.WriteString("Every instantiation shares this one resource: its rules and statistics count the calls\n" +
			"of all type arguments together; give a separately limited case its own non-generic method.\n")
	}
	switch {
	case r.BlockHandler != nil:
		fmt.Fprintf(&b, "A blocked call returns the result of blockHandler %s.", r.BlockHandler.Written)
	case r.Fallback != nil:
		fmt.Fprintf(&b, "A blocked call returns the result of fallback %s.", r.Fallback.Written)
	case r.DefaultFallback != nil:
		fmt.Fprintf(&b, "A blocked call returns the result of defaultFallback %s.", r.DefaultFallback.Written)
	default:
		b.WriteString("A blocked call returns the *runtime.BlockError as its error.")
	}
	if r.Func.ErrorResult < 0 {
		b.WriteString("\n" + panicDoc(r))
		return b.String() + hotParamsDoc(r)
	}
	switch {
	case r.Fallback != nil:
		fmt.Fprintf(&b, "\nAn error it returns is traced, then answered by fallback %s.", r.Fallback.Written)
	case r.DefaultFallback != nil:
		fmt.Fprintf(&b, "\nAn error it returns is traced, then answered by defaultFallback %s.", r.DefaultFallback.Written)
	default:
		b.WriteString("\nAn error it returns is traced and returned.")
	}
	var untraced []string
	if len(r.Ignore) > 0 {
		untraced = append(untraced, "matching ignore="+matcherList(r.Ignore))
	}
	if len(r.Trace) > 0 {
		untraced = append(untraced, "not matching trace="+matcherList(r.Trace))
	}
	if len(untraced) > 0 {
		fmt.Fprintf(&b, "\nErrors %s are returned unchanged and not traced.", strings.Join(untraced, " or "))
	}
	b.WriteString(callPolicyDoc(r))
	b.WriteString("\n" + panicDoc(r))
	return b.String() + hotParamsDoc(r)
}

// callPolicyDoc says what timeout= and retries= do to a call.
func callPolicyDoc(r *annotate.Resource) string {
	var b strings.Builder
	if r.Timeout > 0 {
		each := "The call"
		if r.Retries > 0 {
			each = "Each attempt"
		}
		fmt.Fprintf(&b, "\n%s gets a deadline of %s through its context; one that ends past it fails with a *runtime.TimeoutError.", each, r.Timeout)
	}
	if r.Retries > 0 {
		times := "once"
		if r.Retries > 1 {
			times = fmt.Sprintf("up to %d times", r.Retries)
		}
		fmt.Fprintf(&b, "\nA traced error is retried %s, within the resource's retry budget and never while a breaker is open;\n"+
			"each attempt is a call of the resource, and the last attempt's error is what is answered.", times)
	}
	return b.String()
}

// isGeneric reports whether the guarded function or its receiver type has
// type parameters.
func isGeneric(r *annotate.Resource) bool {
	return len(r.Func.TypeParams) > 0 || r.Func.Recv != nil && len(r.Func.Recv.TypeParams) > 0
}

// panicDoc says what a panic of the guarded call does (see panicked).
func panicDoc(r *annotate.Resource) string {
	s := "A panic is traced as an error and goes on to the caller unchanged"
	if needsFilter(r) {
		s = "A panic is traced when its value, or runtime.ErrPanicked for a value that is not an error,\n" +
			"would be traced if returned, and goes on to the caller unchanged"
	}
	if r.Fallback != nil || r.DefaultFallback != nil {
		s += ": the fallback does not see it"
	}
	return s + "."
}

// matcherList writes ignore/trace entries as the directive wrote them.
func matcherList(ms []annotate.ErrorMatcher) string {
	written := make([]string, len(ms))
	for i, m := range ms {
		written[i] = m.Written
	}
	return strings.Join(written, ", ")
}
