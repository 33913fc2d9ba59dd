package gen

import (
	"encoding/binary"
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"math"
	"reflect"
	"slices"
	"sync"

	"github.com/sentinelgen/sentinelgen/annotate"
)

// errUnkeyable is returned for a model the encoder cannot describe
// completely. The caller then renders: a key that misses part of the input
// could map two different outputs to one entry.
var errUnkeyable = errors.New("model cannot be encoded for the cache")

// encodeModel appends to buf a canonical encoding of everything reachable
// from pkg: two models with equal encodings give equal output from the same
// generator, whoever built them.
//
// The encoding is derived from the model's types by reflection, so a field
// added to the model is in it without anyone listing it; nothing is left
// out, positions included (an edit above a directive costs that package one
// render). Structs of package annotate and go/token are walked field by
// field, each field under its name; a pointer met again is written as a
// reference to its first visit, which keeps the sharing Generate relies on
// (a wrapper's methods are the package's resources); map keys are sorted.
// Values from go/types are written as what Generate reads of them (see
// typeKey and typesPackageKey) instead of as their internal graphs. A value
// of any other foreign type, or of a kind without a canonical form (func,
// chan), makes the model unkeyable rather than half-described.
func encodeModel(buf []byte, pkg *annotate.Package) (out []byte, err error) {
	defer func() {
		// A model broken enough to panic here (a nil where a value
		// belongs) is for Generate to report.
		if p := recover(); p != nil {
			out, err = buf, fmt.Errorf("%w: %v", errUnkeyable, p)
		}
	}()
	e := modelEncoder{typeKey: typeKey{buf: buf}, seen: make(map[pointerKey]int)}
	e.value(reflect.ValueOf(pkg))
	return e.buf, e.err
}

// modelEncoder writes the generic part of the encoding; typeKey, which it
// embeds, writes the go/types part and holds the buffer.
type modelEncoder struct {
	typeKey
	seen map[pointerKey]int // pointer -> order of its first visit
}

// pointerKey identifies a pointer by address and type: a struct and its
// first field share an address.
type pointerKey struct {
	addr uintptr
	typ  reflect.Type
}

// The model's own packages, whose structs are walked field by field.
var walkedPackages = map[string]bool{
	reflect.TypeFor[annotate.Package]().PkgPath(): true,
	reflect.TypeFor[token.Position]().PkgPath():   true,
}

var (
	typesTypeType    = reflect.TypeFor[types.Type]()
	typesPackageType = reflect.TypeFor[*types.Package]()
)

// Tags of the generic encoding's variable shapes.
const (
	tagNilValue = iota
	tagValue
	tagReference
)

func (e *modelEncoder) value(v reflect.Value) {
	if e.err != nil {
		return
	}
	t := v.Type()
	switch {
	case t == typesPackageType:
		e.typesPackage(v.Interface().(*types.Package))
		return
	case t == typesTypeType || (t.Kind() != reflect.Interface && t.Implements(typesTypeType)):
		if v.IsNil() {
			e.int(tagNilValue)
			return
		}
		e.int(tagValue)
		e.typ(v.Interface().(types.Type))
		return
	}
	switch t.Kind() {
	case reflect.Bool:
		e.bool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.buf = binary.AppendVarint(e.buf, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.buf = binary.AppendUvarint(e.buf, v.Uint())
	case reflect.Float32, reflect.Float64:
		e.buf = binary.AppendUvarint(e.buf, math.Float64bits(v.Float()))
	case reflect.String:
		e.str(v.String())
	case reflect.Pointer:
		e.pointer(v)
	case reflect.Interface:
		if v.IsNil() {
			e.int(tagNilValue)
			return
		}
		e.int(tagValue)
		e.str(v.Elem().Type().String())
		e.value(v.Elem())
	case reflect.Struct:
		if !walkedPackages[t.PkgPath()] {
			e.err = fmt.Errorf("%w: %s is not part of the model", errUnkeyable, t)
			return
		}
		for i := range t.NumField() {
			e.str(t.Field(i).Name)
			e.value(v.Field(i))
		}
	case reflect.Slice, reflect.Array:
		e.int(v.Len())
		for i := range v.Len() {
			e.value(v.Index(i))
		}
	case reflect.Map:
		e.mapValue(v)
	default:
		e.err = fmt.Errorf("%w: a %s has no canonical form", errUnkeyable, t)
	}
}

// pointer writes nil, a reference to an earlier visit, or the value.
func (e *modelEncoder) pointer(v reflect.Value) {
	if v.IsNil() {
		e.int(tagNilValue)
		return
	}
	k := pointerKey{v.Pointer(), v.Type()}
	if i, ok := e.seen[k]; ok {
		e.int(tagReference)
		e.int(i)
		return
	}
	e.seen[k] = len(e.seen)
	e.int(tagValue)
	e.value(v.Elem())
}

// mapValue writes the entries in key order; only string keys have one.
func (e *modelEncoder) mapValue(v reflect.Value) {
	if v.Type().Key().Kind() != reflect.String {
		e.err = fmt.Errorf("%w: a %s has no canonical order", errUnkeyable, v.Type())
		return
	}
	keys := v.MapKeys()
	slices.SortFunc(keys, func(a, b reflect.Value) int {
		switch {
		case a.String() < b.String():
			return -1
		case a.String() > b.String():
			return 1
		}
		return 0
	})
	e.int(len(keys))
	for _, k := range keys {
		e.str(k.String())
		e.value(v.MapIndex(k))
	}
}

// typesPackage writes what Generate reads of the type-checked package: its
// identity, the names its scope declares and the names of its imports.
func (e *modelEncoder) typesPackage(p *types.Package) {
	if p == nil {
		e.int(tagNilValue)
		return
	}
	e.int(tagValue)
	e.str(p.Path())
	e.str(p.Name())
	names := p.Scope().Names() // sorted by go/types
	e.int(len(names))
	for _, n := range names {
		e.str(n)
	}
	imports := p.Imports()
	e.int(len(imports))
	for _, imp := range imports {
		e.str(imp.Path())
		e.str(imp.Name())
	}
}

// encodingBuffers holds *[]byte for the model encodings: several kilobytes
// for ten methods, reused from package to package.
var encodingBuffers = sync.Pool{New: func() any { return new([]byte) }}
