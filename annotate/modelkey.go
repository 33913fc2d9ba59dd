package annotate

import (
	"encoding/binary"
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// ErrUnkeyable is returned for a model the encoder cannot describe
// completely. The generation cache then renders, and a generated file
// carries no fingerprint: a key that misses part of the input could map two
// different outputs to one entry.
var ErrUnkeyable = errors.New("model cannot be encoded")

// errUnkeyable is ErrUnkeyable under the name the encoder's code uses.
var errUnkeyable = ErrUnkeyable

// encoding selects what of the model an encoding holds.
type encoding uint8

const (
	// fullEncoding is everything reachable from the model, positions and
	// the package scope included: the generation cache's key, which must
	// change whenever anything Generate reads does.
	fullEncoding encoding = iota
	// outputEncoding is what the generated file is made of and a
	// go/analysis pass of any platform computes alike (see Fingerprint).
	outputEncoding
	numEncodings
)

// AppendModelKey appends to buf a canonical encoding of everything
// reachable from pkg: two models with equal encodings give equal output
// from the same generator, whoever built them. It is the generation
// cache's key (gen.Cache); it fails with ErrUnkeyable for a model holding
// a value it cannot write canonically.
//
// The encoding is derived from the model's types by reflection, so a field
// added to the model is in it without anyone listing it; nothing is left
// out, positions included (an edit above a directive costs that package one
// render). Structs of package annotate and go/token are walked field by
// field; a pointer met again is written as a
// reference to its first visit, which keeps the sharing Generate relies on
// (a wrapper's methods are the package's resources); map keys are sorted.
// Values from go/types are written as what Generate reads of them (see
// typeKey and typesPackageKey) instead of as their internal graphs. A value
// of any other foreign type, or of a kind without a canonical form (func,
// chan), makes the model unkeyable rather than half-described.
func AppendModelKey(buf []byte, pkg *Package) ([]byte, error) {
	return encodeModel(buf, pkg, fullEncoding)
}

func encodeModel(buf []byte, pkg *Package, enc encoding) (out []byte, err error) {
	defer func() {
		// A model broken enough to panic here (a nil where a value
		// belongs) is for Generate to report.
		if p := recover(); p != nil {
			out, err = buf, fmt.Errorf("%w: %v", errUnkeyable, p)
		}
	}()
	seen := seenMaps.Get().(map[uintptr]visit)
	defer func() {
		clear(seen)
		seenMaps.Put(seen)
	}()
	e := modelEncoder{typeKey: typeKey{buf: buf}, seen: seen}
	encoderFor(reflect.TypeOf(pkg), enc)(&e, reflect.ValueOf(pkg))
	return e.buf, e.err
}

// modelEncoder writes the generic part of the encoding; typeKey, which it
// embeds, writes the go/types part and holds the buffer.
type modelEncoder struct {
	typeKey
	seen map[uintptr]visit // the pointers met so far, by address
}

// visit is the first visit of a pointer: its type and its order.
type visit struct {
	typ   reflect.Type
	order int
}

// The model's own packages, whose structs are walked field by field.
var walkedPackages = map[string]bool{
	reflect.TypeFor[Package]().PkgPath():        true,
	reflect.TypeFor[token.Position]().PkgPath(): true,
}

var (
	typesTypeType    = reflect.TypeFor[types.Type]()
	typesPackageType = reflect.TypeFor[*types.Package]()
	positionType     = reflect.TypeFor[token.Position]()
	packageType      = reflect.TypeFor[Package]()
)

// Tags of the generic encoding's variable shapes.
const (
	tagNilValue = iota
	tagValue
	tagReference
)

// value writes a value of any type, for an interface's dynamic value.
func (e *modelEncoder) value(v reflect.Value, enc encoding) {
	if e.err == nil {
		encoderFor(v.Type(), enc)(e, v)
	}
}

// encodeFunc writes one value of the type it was made for.
type encodeFunc func(e *modelEncoder, v reflect.Value)

// encoders caches the encodeFunc of each type met, so that the reflection
// on a type (its fields, its methods) happens once per process, not once
// per value: it is most of the cost otherwise.
var encoders [numEncodings]sync.Map // reflect.Type -> encodeFunc, per encoding

func encoderFor(t reflect.Type, enc encoding) encodeFunc {
	encoders := &encoders[enc]
	if f, ok := encoders.Load(t); ok {
		return f.(encodeFunc)
	}
	// A recursive type meets itself while its encoder is being made: it
	// finds this stand-in, which waits for the real one.
	var wg sync.WaitGroup
	var real encodeFunc
	wg.Add(1)
	f, loaded := encoders.LoadOrStore(t, encodeFunc(func(e *modelEncoder, v reflect.Value) {
		wg.Wait()
		real(e, v)
	}))
	if loaded {
		return f.(encodeFunc)
	}
	real = newEncoder(t, enc)
	wg.Done()
	encoders.Store(t, real)
	return real
}

// newEncoder makes the encodeFunc of t, with those of its element and field
// types, so that writing a value looks nothing up.
func newEncoder(t reflect.Type, enc encoding) encodeFunc {
	switch {
	case t == positionType && enc == outputEncoding:
		// No position reaches the generated file, and they name files by
		// absolute path, which differs from one checkout to the next.
		return func(*modelEncoder, reflect.Value) {}
	case t == typesPackageType:
		return func(e *modelEncoder, v reflect.Value) { e.typesPackage(v.Interface().(*types.Package), enc) }
	case t == typesTypeType || (t.Kind() != reflect.Interface && t.Implements(typesTypeType)):
		return func(e *modelEncoder, v reflect.Value) {
			if v.IsNil() {
				e.int(tagNilValue)
				return
			}
			e.int(tagValue)
			e.typ(v.Interface().(types.Type))
		}
	}
	switch t.Kind() {
	case reflect.Bool:
		return func(e *modelEncoder, v reflect.Value) { e.bool(v.Bool()) }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(e *modelEncoder, v reflect.Value) { e.buf = binary.AppendVarint(e.buf, v.Int()) }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(e *modelEncoder, v reflect.Value) { e.buf = binary.AppendUvarint(e.buf, v.Uint()) }
	case reflect.Float32, reflect.Float64:
		return func(e *modelEncoder, v reflect.Value) {
			e.buf = binary.AppendUvarint(e.buf, math.Float64bits(v.Float()))
		}
	case reflect.String:
		return func(e *modelEncoder, v reflect.Value) { e.str(v.String()) }
	case reflect.Pointer:
		elem := encoderFor(t.Elem(), enc)
		return func(e *modelEncoder, v reflect.Value) { e.pointer(v, elem) }
	case reflect.Interface:
		return func(e *modelEncoder, v reflect.Value) {
			if v.IsNil() {
				e.int(tagNilValue)
				return
			}
			e.int(tagValue)
			e.str(v.Elem().Type().String())
			e.value(v.Elem(), enc)
		}
	case reflect.Struct:
		return structEncoder(t, enc)
	case reflect.Slice, reflect.Array:
		elem := encoderFor(t.Elem(), enc)
		return func(e *modelEncoder, v reflect.Value) {
			e.int(v.Len())
			for i := range v.Len() {
				elem(e, v.Index(i))
			}
		}
	case reflect.Map:
		if t.Key().Kind() == reflect.String {
			elem := encoderFor(t.Elem(), enc)
			return func(e *modelEncoder, v reflect.Value) { e.mapValue(v, elem) }
		}
	}
	err := fmt.Errorf("%w: a %s has no canonical form", errUnkeyable, t)
	return func(e *modelEncoder, _ reflect.Value) { e.err = err }
}

// structEncoder writes the fields in order, for the model's own structs
// only. Their names are not written: the tool's identity, which starts
// every key, fixes the model's types and so their layout.
func structEncoder(t reflect.Type, enc encoding) encodeFunc {
	if !walkedPackages[t.PkgPath()] {
		err := fmt.Errorf("%w: %s is not part of the model", errUnkeyable, t)
		return func(e *modelEncoder, _ reflect.Value) { e.err = err }
	}
	encs := make([]encodeFunc, t.NumField())
	for i := range encs {
		if enc == outputEncoding && t == packageType && notInOutput[t.Field(i).Name] {
			encs[i] = func(*modelEncoder, reflect.Value) {}
			continue
		}
		encs[i] = encoderFor(t.Field(i).Type, enc)
	}
	return func(e *modelEncoder, v reflect.Value) {
		for i, f := range encs {
			if e.err != nil {
				return
			}
			f(e, v.Field(i))
		}
	}
}

// pointer writes nil, a reference to an earlier visit, or the value.
func (e *modelEncoder) pointer(v reflect.Value, elem encodeFunc) {
	if v.IsNil() {
		e.int(tagNilValue)
		return
	}
	addr := v.Pointer()
	if s, ok := e.seen[addr]; ok {
		if s.typ != v.Type() {
			// A struct and its first field share an address; the model
			// has no such pointers, and a key must not guess.
			e.err = fmt.Errorf("%w: two pointers of types %s and %s to one address", errUnkeyable, s.typ, v.Type())
			return
		}
		e.int(tagReference)
		e.int(s.order)
		return
	}
	e.seen[addr] = visit{v.Type(), len(e.seen)}
	e.int(tagValue)
	elem(e, v.Elem())
}

// mapValue writes the entries in key order (only maps with string keys are
// given this encoder).
func (e *modelEncoder) mapValue(v reflect.Value, elem encodeFunc) {
	keys := v.MapKeys()
	slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
	e.int(len(keys))
	for _, k := range keys {
		e.str(k.String())
		elem(e, v.MapIndex(k))
	}
}

// typesPackage writes what Generate reads of the type-checked package: its
// identity, the names its scope declares and the names of its imports (the
// identity alone in the output encoding).
func (e *modelEncoder) typesPackage(p *types.Package, enc encoding) {
	if p == nil {
		e.int(tagNilValue)
		return
	}
	e.int(tagValue)
	e.str(p.Path())
	e.str(p.Name())
	if enc == outputEncoding {
		return
	}
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

// seenMaps holds the encoders' pointer maps: several hundred entries for
// ten methods, reused from package to package rather than grown anew for
// each.
var seenMaps = sync.Pool{New: func() any { return make(map[uintptr]visit, 256) }}
