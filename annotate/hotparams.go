package annotate

import (
	"go/token"
	"go/types"
)

// This file decides, from go/types alone, how each parameter of a guarded
// function becomes a hot-parameter key. It is the one place that knows it:
// gen emits the conversion the kind names, and the rule linter compares
// rules with it.

// HotParam is one parameter that hot-parameter rules can index: a parameter
// of the annotated function after a leading context.Context, which has no
// counterpart among a Java method's arguments. ParamFlowRule.ParamIdx 0 is
// the first HotParam, so `Detail(ctx, sku string)` has sku at 0, as Java's
// `detail(String sku)` does.
type HotParam struct {
	Name  string         // as declared; "" for an unnamed parameter, "_" for a blank one
	Pos   token.Position // the parameter's declaration
	Type  types.Type     // the declared type (for the variadic parameter, the slice []T)
	Index int            // the parameter's index in Func.Params
	Kind  ParamKind      // how the value, or each element when Slice is set, becomes a key
	// Slice is set when the parameter is a slice whose elements are keys of
	// Kind: every element is checked, as Sentinel checks each element of a
	// collection or array argument.
	Slice bool
	// NilCheck is set for a ParamKeyMethod parameter that can be nil (a
	// pointer or an interface): the method is called only on a non-nil
	// value, and nil is no key, as Sentinel passes a null argument.
	NilCheck bool
}

// ParamKind says how a parameter's value becomes a hot-parameter key.
type ParamKind uint8

const (
	// ParamNotKey is a parameter no rule can match (a struct, map, pointer,
	// channel, function, complex number, ...): the wrapper passes the zero
	// runtime.ParamArg for it.
	ParamNotKey ParamKind = iota
	// ParamString is a string, or a type whose underlying type is string.
	ParamString
	// ParamInt is a signed integer of any size (or a type based on one).
	ParamInt
	// ParamUint is an unsigned integer of any size, uintptr included.
	ParamUint
	// ParamFloat is float32 or float64.
	ParamFloat
	// ParamBool is a boolean.
	ParamBool
	// ParamKeyMethod is a type with the method `ParamFlowKey() string`
	// (Sentinel's ParamFlowArgument.paramFlowKey()): its result is a string
	// key. The method wins over the underlying kind, since a type declares it
	// to choose its key.
	ParamKeyMethod
)

// KeyMethodName is the method through which a type supplies its own
// hot-parameter key: func (T) ParamFlowKey() string.
const KeyMethodName = "ParamFlowKey"

// String names the kind for messages.
func (k ParamKind) String() string {
	switch k {
	case ParamString:
		return "string"
	case ParamInt:
		return "signed integer"
	case ParamUint:
		return "unsigned integer"
	case ParamFloat:
		return "float"
	case ParamBool:
		return "bool"
	case ParamKeyMethod:
		return KeyMethodName + " method"
	}
	return "cannot be a key"
}

// hotParams lists fn's parameters after a leading context.Context with
// their key kinds. The key method must be callable from the checked
// package, where the wrapper calls it.
func (c *checker) hotParams(fn *Func, sig *types.Signature) []HotParam {
	first := 0
	if fn.HasContext {
		first = 1
	}
	var out []HotParam
	for i := first; i < sig.Params().Len(); i++ {
		v := sig.Params().At(i)
		p := HotParam{Name: v.Name(), Pos: c.position(v.Pos()), Type: v.Type(), Index: i}
		p.Kind, p.Slice, p.NilCheck = classifyParam(v.Type(), c.pkg)
		out = append(out, p)
	}
	return out
}

// classifyParam is the key kind of a parameter of type t; slice reports a
// slice of keys, nilCheck a key-method value that may be nil.
func classifyParam(t types.Type, pkg *types.Package) (kind ParamKind, slice, nilCheck bool) {
	if hasKeyMethod(t, pkg) {
		return ParamKeyMethod, false, canBeNil(t)
	}
	if k := valueKind(t); k != ParamNotKey {
		return k, false, false
	}
	// A type parameter's underlying type is its constraint, never a slice:
	// a generic slice parameter is written []T, which is a slice here.
	if s, ok := t.Underlying().(*types.Slice); ok {
		// Elements are checked one by one through the runtime's slice
		// helpers, which take basic kinds only: an element's key method would
		// need a call per element, which a helper cannot make without
		// building a slice of keys.
		if k := valueKind(s.Elem()); k != ParamNotKey && !hasKeyMethod(s.Elem(), pkg) {
			return k, true, false
		}
	}
	return ParamNotKey, false, false
}

// hasKeyMethod reports whether a value of type t (an addressable one, as a
// parameter is) has the method ParamFlowKey() string callable from pkg.
func hasKeyMethod(t types.Type, pkg *types.Package) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, pkg, KeyMethodName)
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Type().(*types.Signature)
	return sig.Params().Len() == 0 && !sig.Variadic() && sig.Results().Len() == 1 &&
		types.Identical(sig.Results().At(0).Type(), types.Typ[types.String])
}

// canBeNil reports whether t's values include nil: a pointer or an interface.
// A type parameter is left out: its nil cannot be tested without converting
// it to an interface, so the method receives whatever the caller passed.
func canBeNil(t types.Type) bool {
	if _, ok := types.Unalias(t).(*types.TypeParam); ok {
		return false
	}
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Interface:
		return true
	}
	return false
}

// valueKind is the kind of a basic-valued type: its underlying basic type,
// or, for a type parameter, the one kind every type of its type set shares.
func valueKind(t types.Type) ParamKind {
	if tp, ok := types.Unalias(t).(*types.TypeParam); ok {
		kinds := map[ParamKind]bool{}
		if !termKinds(tp.Constraint(), kinds, 0) || len(kinds) != 1 || kinds[ParamNotKey] {
			return ParamNotKey
		}
		for k := range kinds {
			return k
		}
	}
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return ParamNotKey
	}
	info := b.Info()
	switch {
	case info&types.IsString != 0:
		return ParamString
	case info&types.IsUnsigned != 0:
		return ParamUint
	case info&types.IsInteger != 0:
		return ParamInt
	case info&types.IsFloat != 0:
		return ParamFloat
	case info&types.IsBoolean != 0:
		return ParamBool
	}
	return ParamNotKey
}

// termKinds adds to kinds the kind of every type term of constraint c
// (ParamNotKey for a term without one) and reports whether c restricts its
// type set by terms at all: a constraint without terms (any, comparable,
// methods only) admits every type, so no single conversion fits it. The
// kinds of intersected elements are merged, which can only refuse a
// constraint that would have worked, never accept one that does not.
func termKinds(c types.Type, kinds map[ParamKind]bool, depth int) (restricted bool) {
	iface, ok := c.Underlying().(*types.Interface)
	if !ok { // a term: T or the T of ~T
		kinds[valueKind(c)] = true
		return true
	}
	if depth > 8 { // constraints nest only as deep as people write them
		kinds[ParamNotKey] = true
		return true
	}
	for i := range iface.NumEmbeddeds() {
		e := iface.EmbeddedType(i)
		if u, ok := e.(*types.Union); ok {
			for t := range u.Terms() {
				termKinds(t.Type(), kinds, depth+1)
			}
			restricted = true
			continue
		}
		if termKinds(e, kinds, depth+1) {
			restricted = true
		}
	}
	return restricted
}
