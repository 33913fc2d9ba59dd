package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/sentinelgen/sentinelgen/annotate"
)

// timedCall is the guarded call under the directive's timeout=: the
// statements before it, its arguments, the statements right after it, and
// judge, which turns the error of a call that took its deadline into a
// *runtime.TimeoutError. Without a timeout it is the plain call.
//
//	callCtx, cancel := context.WithTimeout(ctx, 800*time.Millisecond)
//	r0, err := inner.M(callCtx, req)
//	cancel()
//	returned = true
//	err = runtime.TimedOut(callCtx, res.Name(), 800*time.Millisecond, err)
type timedCall struct {
	before, after []jen.Code
	args          []jen.Code
	judge         func(errName string) []jen.Code
}

// timed returns the call of the guarded function with its timeout, if any.
// annotate only lets timeout= through for a function with a context first
// and an error result.
func (b *guardedBody) timed() timedCall {
	t := timedCall{args: b.callArgs(), judge: func(string) []jen.Code { return nil }}
	d := b.r.Timeout
	if d <= 0 {
		return t
	}
	callCtx, cancel := b.local.fresh("callCtx"), b.local.fresh("cancel")
	t.before = []jen.Code{jen.List(jen.Id(callCtx), jen.Id(cancel)).Op(":=").
		Qual(contextPath, "WithTimeout").Call(jen.Id(b.params[0]), durationCode(d))}
	t.args[0] = jen.Id(callCtx)
	t.after = []jen.Code{jen.Id(cancel).Call()}
	t.judge = func(errName string) []jen.Code {
		return []jen.Code{jen.Id(errName).Op("=").Qual(runtimePath, "TimedOut").Call(
			jen.Id(callCtx), jen.Id(b.g.resVar[b.r]).Dot("Name").Call(), durationCode(d), jen.Id(errName))}
	}
	return t
}

// retried is the guarded call with retries=: each attempt is a guarded call
// of its own (entry, deferred exit, trace) in a function literal, and the
// loop around it retries an error the fallback would see while the
// resource's RetryPolicy allows:
//
//	retryPolicy.Called()
//	var r0 T
//	var err error
//	for attempt := 1; ; attempt++ {
//		a0, attemptErr, blockErr := func() (a0 T, attemptErr error, blockErr *runtime.BlockError) {
//			<entry; on a block: return it>
//			<deferred exit, the call (with its timeout), trace the error>
//		}()
//		if blockErr != nil {
//			if attempt == 1 { return <block path> }
//			break // a retry was refused: the last attempt's outcome stands
//		}
//		r0, err = a0, attemptErr
//		if err == nil || !retryPolicy.Retry(ctx, attempt) { break }
//	}
//	if err != nil { return <fallback> }
//	return r0, err
//
// An attempt that panics ends the loop: the panic goes on to the caller as
// without retries. annotate only lets retries= through for a function with
// an error result.
func (b *guardedBody) retried(target *jen.Statement, handler func(*annotate.Handler) *jen.Statement) []jen.Code {
	f := b.r.Func
	ctx := b.context()
	policy := b.g.retry[b.r]
	filter := b.g.filter[b.r]
	counts := func(errName string) *jen.Statement {
		c := jen.Id(errName).Op("!=").Nil()
		if filter != "" {
			c = c.Op("&&").Id(filter).Call(jen.Id(errName))
		}
		return c
	}

	// The outcome of the last attempt, and the attempt's own names.
	outer := make([]jen.Code, len(f.Results))
	inner := make([]jen.Code, len(f.Results))
	sig := make([]jen.Code, len(f.Results)+1)
	var decls []jen.Code
	var errName, attemptErr string
	for i, v := range f.Results {
		if i == f.ErrorResult {
			errName, attemptErr = b.local.fresh("err"), b.local.fresh("attemptErr")
			outer[i], inner[i] = jen.Id(errName), jen.Id(attemptErr)
		} else {
			outer[i], inner[i] = jen.Id(b.local.fresh(fmt.Sprintf("r%d", i))), jen.Id(b.local.fresh(fmt.Sprintf("a%d", i)))
		}
		sig[i] = jen.Add(inner[i]).Add(b.tx.code(v.Type))
		decls = append(decls, jen.Var().Add(outer[i]).Add(b.tx.code(v.Type)))
	}
	blockErr := b.local.fresh("blockErr")
	sig[len(f.Results)] = jen.Id(blockErr).Op("*").Qual(runtimePath, "BlockError")

	// One attempt.
	entry, returned := b.local.fresh("e"), b.local.fresh("returned")
	body := []jen.Code{jen.Var().Id(entry).Qual(runtimePath, "Entry")}
	if hasKeys(b.r) {
		body = append(body, b.enterWithArgs(entry, blockErr, ctx)[1:]...)
		body = append(body, jen.If(jen.Id(blockErr).Op("!=").Nil()).Block(jen.Return()))
	} else {
		body = append(body, jen.Id(blockErr).Op("=").Id(b.g.resVar[b.r]).Dot("EntryTo").Call(jen.Id(entry).Dot("InPlace").Call(), ctx),
			jen.If(jen.Id(blockErr).Op("!=").Nil()).Block(jen.Return()))
	}
	t := b.timed()
	body = append(body,
		jen.Id(returned).Op(":=").False(),
		jen.Defer().Func().Params().Block(b.exit(entry, returned)...).Call())
	body = append(body, t.before...)
	body = append(body, jen.List(inner...).Op("=").Add(target.Call(t.args...)))
	body = append(body, t.after...)
	body = append(body, jen.Id(returned).Op("=").True())
	body = append(body, t.judge(attemptErr)...)
	body = append(body,
		jen.If(counts(attemptErr)).Block(jen.Id(entry).Dot("TraceError").Call(jen.Id(attemptErr))),
		jen.Return())

	attempt := b.local.fresh("attempt")
	assignInner := append(append([]jen.Code(nil), inner...), jen.Id(blockErr))
	loop := []jen.Code{
		jen.List(assignInner...).Op(":=").Func().Params().Params(sig...).Block(body...).Call(),
		jen.If(jen.Id(blockErr).Op("!=").Nil()).Block(
			jen.If(jen.Id(attempt).Op("==").Lit(1)).Block(b.blocked(blockErr, handler)...),
			jen.Comment("A retry was refused: the last attempt's outcome stands."),
			jen.Break(),
		),
		jen.List(outer...).Op("=").List(inner...),
	}
	stop := jen.Id(errName).Op("==").Nil()
	if filter != "" {
		stop = stop.Op("||").Op("!").Id(filter).Call(jen.Id(errName))
	}
	loop = append(loop, jen.If(stop.Op("||").Op("!").Id(policy).Dot("Retry").Call(ctx, jen.Id(attempt))).Block(jen.Break()))

	stmts := []jen.Code{jen.Id(policy).Dot("Called").Call()}
	stmts = append(stmts, decls...)
	stmts = append(stmts, jen.For(jen.Id(attempt).Op(":=").Lit(1), jen.Empty(), jen.Id(attempt).Op("++")).Block(loop...))
	for _, h := range []*annotate.Handler{b.r.Fallback, b.r.DefaultFallback} {
		if h != nil {
			stmts = append(stmts, jen.If(counts(errName)).Block(jen.Return(handler(h).Call(b.handlerArgs(h, errName)...))))
			break
		}
	}
	return append(stmts, jen.Return(outer...))
}
