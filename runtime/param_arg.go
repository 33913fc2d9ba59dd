package runtime

import (
	"math"

	"github.com/sentinelgen/sentinelgen/runtime/internal/argview"
	"github.com/sentinelgen/sentinelgen/runtime/internal/hotkeys"
)

// ParamArg is one argument of a call as hot-parameter rules see it: a typed
// key that generated code builds from the parameter's static type, without
// converting the value to an interface and without allocating.
//
// Build it with StringArg, IntArg, UintArg, FloatArg or BoolArg for a
// scalar, or with StringsArg, IntsArg, UintsArg, FloatsArg or BoolsArg for a
// slice, whose elements are checked one by one (as Sentinel checks the
// elements of a collection or array argument: all must pass). A slice
// argument refers to the caller's slice, which must not change until the
// entry call returns.
//
// The zero ParamArg is an argument that cannot be a key (a parameter of a
// type with no key, or a nil pointer, as Java passes null): no rule matches
// it and the call passes that rule.
//
// Signed and unsigned integers of the same value are the same key; an
// integer argument matches items of ClassType int, long, short and byte
// alike (see ParamFlowItem).
type ParamArg struct {
	s     string
	n     uint64 // scalar bits, or a slice's length
	ref   argview.Ref
	kind  argKind
	width uint8 // width of a numeric slice's elements
}

// argKind is a ParamArg's shape: a scalar key kind or a slice of one.
type argKind uint8

const (
	argNone argKind = iota
	argScalar
	argStrings
	argInts
	argUints
	argFloats
	argBools
)

// StringArg is the key of a string argument.
func StringArg(s string) ParamArg {
	return ParamArg{kind: argScalar, width: uint8(hotkeys.String), s: s}
}

// IntArg is the key of a signed integer argument.
func IntArg(n int64) ParamArg {
	k := hotkeys.IntKey(n)
	return ParamArg{kind: argScalar, width: uint8(k.Kind), n: k.Bits}
}

// UintArg is the key of an unsigned integer argument.
func UintArg(n uint64) ParamArg {
	return ParamArg{kind: argScalar, width: uint8(hotkeys.Int), n: n}
}

// FloatArg is the key of a floating-point argument. A float32 argument
// widened to float64 matches items of ClassType float; a float64 argument
// matches items of ClassType double (and float items whose value a float32
// holds exactly, such as 0.5).
func FloatArg(f float64) ParamArg {
	k := hotkeys.FloatKey(f)
	return ParamArg{kind: argScalar, width: uint8(k.Kind), n: k.Bits}
}

// BoolArg is the key of a boolean argument.
func BoolArg(b bool) ParamArg {
	return ParamArg{kind: argScalar, width: uint8(hotkeys.Bool), n: uint64(b2i(b))}
}

// StringsArg is the argument of a slice of strings; each element is a key.
func StringsArg[T ~string](s []T) ParamArg {
	return ParamArg{kind: argStrings, n: uint64(len(s)), ref: argview.Strings(s)}
}

// IntsArg is the argument of a slice of signed integers; each element is a
// key.
func IntsArg[T ~int | ~int8 | ~int16 | ~int32 | ~int64](s []T) ParamArg {
	r, w := argview.Ints(s)
	return ParamArg{kind: argInts, n: uint64(len(s)), ref: r, width: w}
}

// UintsArg is the argument of a slice of unsigned integers; each element is
// a key. A []byte is a slice of keys too; pass StringArg(string(b)) to make
// the whole slice one key.
func UintsArg[T ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr](s []T) ParamArg {
	r, w := argview.Uints(s)
	return ParamArg{kind: argUints, n: uint64(len(s)), ref: r, width: w}
}

// FloatsArg is the argument of a slice of floats; each element is a key.
func FloatsArg[T ~float32 | ~float64](s []T) ParamArg {
	r, w := argview.Floats(s)
	return ParamArg{kind: argFloats, n: uint64(len(s)), ref: r, width: w}
}

// BoolsArg is the argument of a slice of booleans; each element is a key.
func BoolsArg[T ~bool](s []T) ParamArg {
	return ParamArg{kind: argBools, n: uint64(len(s)), ref: argview.Bools(s)}
}

// keys is how many keys the argument holds: 1 for a scalar, the length of a
// slice, 0 for the zero ParamArg.
func (a *ParamArg) keys() int {
	switch a.kind {
	case argNone:
		return 0
	case argScalar:
		return 1
	}
	return int(a.n)
}

// key is the argument's i-th key (i < keys()).
func (a *ParamArg) key(i int) hotkeys.Key {
	switch a.kind {
	case argScalar:
		return hotkeys.Key{Kind: hotkeys.Kind(a.width), Bits: a.n, S: a.s}
	case argStrings:
		return hotkeys.StringKey(argview.StringAt(a.ref, i))
	case argInts:
		return hotkeys.IntKey(argview.IntAt(a.ref, a.width, i))
	case argUints:
		return hotkeys.UintKey(argview.UintAt(a.ref, a.width, i))
	case argFloats:
		return hotkeys.FloatKey(argview.FloatAt(a.ref, a.width, i))
	case argBools:
		return hotkeys.BoolKey(argview.BoolAt(a.ref, i))
	}
	return hotkeys.Key{}
}

// String is the argument as text: its value, or the elements of a slice in
// brackets; "" for the zero ParamArg. For logs and tests.
func (a ParamArg) String() string {
	if a.kind == argScalar {
		return a.key(0).Text()
	}
	if a.kind == argNone {
		return ""
	}
	b := []byte{'['}
	for i := range a.keys() {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, a.key(i).Text()...)
	}
	return string(append(b, ']'))
}

// ParamValue is one value of a hot-parameter argument, as a token service
// hands it to a token server: Kind says which field holds it.
type ParamValue struct {
	Kind ParamKeyKind
	Str  string
	Int  int64 // ParamKeyInt
	Uint uint64
	// Float holds a ParamKeyFloat, Bool a ParamKeyBool.
	Float float64
	Bool  bool
}

// Len is how many values the argument holds: 1 for a scalar, a slice's
// length, 0 for the zero ParamArg.
func (a *ParamArg) Len() int { return a.keys() }

// Value is the argument's i-th value (0 <= i < Len). An unsigned value
// that fits an int64 is a ParamKeyInt, as it is the same key for the
// rules.
func (a *ParamArg) Value(i int) ParamValue {
	k := a.key(i)
	switch k.Kind {
	case hotkeys.String:
		return ParamValue{Kind: ParamKeyString, Str: k.S}
	case hotkeys.Int:
		if k.Bits > math.MaxInt64 {
			return ParamValue{Kind: ParamKeyUint, Uint: k.Bits}
		}
		return ParamValue{Kind: ParamKeyInt, Int: int64(k.Bits)}
	case hotkeys.NegInt:
		return ParamValue{Kind: ParamKeyInt, Int: int64(k.Bits)}
	case hotkeys.Float:
		return ParamValue{Kind: ParamKeyFloat, Float: math.Float64frombits(k.Bits)}
	case hotkeys.Bool:
		return ParamValue{Kind: ParamKeyBool, Bool: k.Bits != 0}
	}
	return ParamValue{}
}
