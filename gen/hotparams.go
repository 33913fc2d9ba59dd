package gen

import (
	"fmt"
	"go/types"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/sentinelgen/sentinelgen/annotate"
)

// This file emits what hot-parameter rules need of a wrapper: the names of
// its parameters on the resource, and the typed keys at the call. annotate
// decided each parameter's kind (annotate.HotParam); here it becomes a call
// of the runtime's constructor for that kind.

// paramNamesOption declares the hot parameters' names on the resource, so
// that a rule may name its parameter instead of counting (ParamIdx). nil
// for a function without parameters after ctx, whose line stays as it was.
func paramNamesOption(r *annotate.Resource) jen.Code {
	if len(r.HotParams) == 0 {
		return nil
	}
	names := make([]jen.Code, len(r.HotParams))
	for i, p := range r.HotParams {
		name := p.Name
		if name == "_" {
			name = "" // a blank parameter has no name a rule could use
		}
		names[i] = jen.Lit(name)
	}
	return jen.Qual(runtimePath, "WithParamNames").Call(names...)
}

// paramKeysOption declares the key kind of each hot parameter on the
// resource (runtime.WithParamKeys), so that a rule on an index past the
// parameters, or on one that gives no key, is refused when it is loaded.
func paramKeysOption(r *annotate.Resource) jen.Code {
	kinds := make([]jen.Code, len(r.HotParams))
	for i, p := range r.HotParams {
		kinds[i] = jen.Qual(runtimePath, runtimeKeyKinds[p.Kind])
	}
	return jen.Qual(runtimePath, "WithParamKeys").Call(kinds...)
}

// runtimeKeyKinds names the runtime's key kind of each parameter kind: a
// ParamFlowKey method gives a string key.
var runtimeKeyKinds = map[annotate.ParamKind]string{
	annotate.ParamNotKey:    "ParamNoKey",
	annotate.ParamString:    "ParamKeyString",
	annotate.ParamInt:       "ParamKeyInt",
	annotate.ParamUint:      "ParamKeyUint",
	annotate.ParamFloat:     "ParamKeyFloat",
	annotate.ParamBool:      "ParamKeyBool",
	annotate.ParamKeyMethod: "ParamKeyString",
}

// hasKeys reports whether any hot parameter can be a key. Without one, a
// param rule could only ever see zero keys, which pass, so the wrapper
// enters exactly as it does without parameters.
func hasKeys(r *annotate.Resource) bool {
	for _, p := range r.HotParams {
		if p.Kind != annotate.ParamNotKey {
			return true
		}
	}
	return false
}

// enterWithArgs is the entry of a function with keys:
//
//	var blockErr *runtime.BlockError
//	if res.HasParamRules() {
//		args := [2]runtime.ParamArg{runtime.StringArg(sku), runtime.IntArg(int64(qty))}
//		blockErr = res.EntryArgsTo(e.InPlace(), ctx, args[:])
//	} else {
//		blockErr = res.EntryTo(e.InPlace(), ctx)
//	}
//
// Keys are built only while a param rule names the resource, so a resource
// without one pays an inlined load and a branch. The array lives on the
// stack and each key is a plain value: no interface conversion, no
// allocation.
func (b *guardedBody) enterWithArgs(entry, blockErr string, ctx jen.Code) []jen.Code {
	res := b.g.resVar[b.r]
	args := b.local.fresh("args")
	keys := make([]jen.Code, len(b.r.HotParams))
	var nilChecks []jen.Code
	for i, p := range b.r.HotParams {
		name := b.params[p.Index]
		if p.NilCheck {
			// The key method is not called on nil, which Sentinel's null
			// argument is: no key, so no rule matches it.
			keys[i] = jen.Qual(runtimePath, "ParamArg").Values()
			nilChecks = append(nilChecks, jen.If(jen.Id(name).Op("!=").Nil()).Block(
				jen.Id(args).Index(jen.Lit(i)).Op("=").Add(b.key(p, name)),
			))
			continue
		}
		keys[i] = b.key(p, name)
	}
	withArgs := []jen.Code{
		jen.Id(args).Op(":=").Index(jen.Lit(len(keys))).Qual(runtimePath, "ParamArg").Values(keys...),
	}
	withArgs = append(withArgs, nilChecks...)
	withArgs = append(withArgs,
		jen.Id(blockErr).Op("=").Id(res).Dot("EntryArgsTo").Call(jen.Id(entry).Dot("InPlace").Call(), ctx, jen.Id(args).Index(jen.Empty(), jen.Empty())))
	return []jen.Code{
		jen.Var().Id(blockErr).Op("*").Qual(runtimePath, "BlockError"),
		jen.If(jen.Id(res).Dot("HasParamRules").Call()).Block(withArgs...).Else().Block(
			jen.Id(blockErr).Op("=").Id(res).Dot("EntryTo").Call(jen.Id(entry).Dot("InPlace").Call(), ctx),
		),
	}
}

// Constructors of the runtime's keys, by kind: of one value, and of each
// element of a slice.
var (
	keyFuncs = map[annotate.ParamKind]keyFunc{
		annotate.ParamString:    {"StringArg", types.Typ[types.String]},
		annotate.ParamInt:       {"IntArg", types.Typ[types.Int64]},
		annotate.ParamUint:      {"UintArg", types.Typ[types.Uint64]},
		annotate.ParamFloat:     {"FloatArg", types.Typ[types.Float64]},
		annotate.ParamBool:      {"BoolArg", types.Typ[types.Bool]},
		annotate.ParamKeyMethod: {"StringArg", types.Typ[types.String]},
	}
	sliceKeyFuncs = map[annotate.ParamKind]string{
		annotate.ParamString: "StringsArg",
		annotate.ParamInt:    "IntsArg",
		annotate.ParamUint:   "UintsArg",
		annotate.ParamFloat:  "FloatsArg",
		annotate.ParamBool:   "BoolsArg",
	}
)

// keyConversions are the predeclared types key() converts to by name: a
// parameter called so would shadow the type in the body, so the wrapper
// renames it (paramNames).
var keyConversions = func() map[string]bool {
	m := map[string]bool{}
	for _, f := range keyFuncs {
		m[f.arg.(*types.Basic).Name()] = true
	}
	return m
}()

// keyFunc is a runtime constructor and the type it takes.
type keyFunc struct {
	name string
	arg  types.Type
}

// key is the runtime.ParamArg of parameter p, named name in the wrapper.
func (b *guardedBody) key(p annotate.HotParam, name string) jen.Code {
	switch {
	case p.Kind == annotate.ParamNotKey:
		return jen.Qual(runtimePath, "ParamArg").Values()
	case p.Slice:
		// The helpers are generic over the element's underlying kind, so a
		// []SKU or a variadic ...int32 is passed as it is, without a copy.
		return jen.Qual(runtimePath, sliceKeyFuncs[p.Kind]).Call(jen.Id(name))
	case p.Kind == annotate.ParamKeyMethod:
		return jen.Qual(runtimePath, "StringArg").Call(jen.Id(name).Dot(annotate.KeyMethodName).Call())
	}
	f := keyFuncs[p.Kind]
	var v jen.Code = jen.Id(name)
	if !types.Identical(p.Type, f.arg) {
		// A named type, another size or a type parameter: converted, which
		// copies the value and nothing else.
		v = jen.Id(f.arg.(*types.Basic).Name()).Call(jen.Id(name))
	}
	return jen.Qual(runtimePath, f.name).Call(v)
}

// hotParamsDoc is the last line of the guarded function's doc comment,
// with its newline: how hot-parameter rules count its parameters and which
// can be keys. "" for a function without parameters after ctx.
func hotParamsDoc(r *annotate.Resource) string {
	if len(r.HotParams) == 0 {
		return ""
	}
	parts := make([]string, len(r.HotParams))
	for i, p := range r.HotParams {
		name := p.Name
		if name == "" || name == "_" {
			name = "(unnamed)"
		}
		kind := p.Kind.String()
		if p.Slice {
			kind += ", each element"
		}
		parts[i] = fmt.Sprintf("%d %s (%s)", i, name, kind)
	}
	lead := "Hot-parameter rules index its parameters"
	if r.Func.HasContext {
		lead += " after ctx"
	}
	return "\n" + lead + ": " + strings.Join(parts, ", ") + "."
}
