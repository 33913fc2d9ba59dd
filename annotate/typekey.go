package annotate

import (
	"encoding/binary"
	"fmt"
	"go/types"
)

// typeKey encodes go/types types for the cache key as everything typeExpr
// and packageCollector read from them. Unlike the model, whose encoding is
// derived by reflection, types are written by hand: their internals are a
// graph of scopes and objects far larger than what the generated file
// shows. The kinds below are go/types' closed set, the one typeExpr
// switches on; a kind it does not know makes the model unkeyable, so the
// package is rendered. The first error sticks.
type typeKey struct {
	buf []byte
	err error
}

func (e *typeKey) int(n int) {
	e.buf = binary.AppendVarint(e.buf, int64(n))
}

func (e *typeKey) bool(b bool) {
	if b {
		e.int(1)
	} else {
		e.int(0)
	}
}

// str writes s with its length first, so that no two values share an
// encoding by running one into the next.
func (e *typeKey) str(s string) {
	e.int(len(s))
	e.buf = append(e.buf, s...)
}

// Tags of the type encoding, one per kind of type.
const (
	tagNil = iota
	tagBasic
	tagAlias
	tagNamed
	tagTypeParam
	tagPointer
	tagSlice
	tagArray
	tagMap
	tagChan
	tagSignature
	tagStruct
	tagInterface
	tagUnion
)

// typ writes a type as everything typeExpr and packageCollector read from
// it. A named type or alias stops at its name, package and type arguments
// (its underlying type is not written in the generated file), and a type
// parameter at its index and name (its constraint is written where it is
// declared), so the walk always ends, even on recursive types.
func (e *typeKey) typ(t types.Type) {
	switch t := t.(type) {
	case nil:
		e.int(tagNil)
	case *types.Basic:
		e.int(tagBasic)
		e.int(int(t.Kind()))
		e.str(t.Name())
	case *types.Alias:
		e.int(tagAlias)
		e.object(t.Obj())
		e.typeList(t.TypeArgs())
	case *types.Named:
		e.int(tagNamed)
		e.object(t.Obj())
		e.typeList(t.TypeArgs())
	case *types.TypeParam:
		e.int(tagTypeParam)
		e.int(t.Index())
		e.str(t.Obj().Name())
	case *types.Pointer:
		e.int(tagPointer)
		e.typ(t.Elem())
	case *types.Slice:
		e.int(tagSlice)
		e.typ(t.Elem())
	case *types.Array:
		e.int(tagArray)
		e.int(int(t.Len()))
		e.typ(t.Elem())
	case *types.Map:
		e.int(tagMap)
		e.typ(t.Key())
		e.typ(t.Elem())
	case *types.Chan:
		e.int(tagChan)
		e.int(int(t.Dir()))
		e.typ(t.Elem())
	case *types.Signature:
		e.int(tagSignature)
		e.bool(t.Variadic())
		tps := t.TypeParams()
		e.int(tps.Len())
		for i := range tps.Len() {
			e.typ(tps.At(i))
		}
		e.tuple(t.Params())
		e.tuple(t.Results())
	case *types.Struct:
		e.int(tagStruct)
		e.int(t.NumFields())
		for i := range t.NumFields() {
			f := t.Field(i)
			e.str(f.Name())
			e.bool(f.Embedded())
			e.str(t.Tag(i))
			e.typ(f.Type())
		}
	case *types.Interface:
		e.int(tagInterface)
		e.bool(t.IsImplicit())
		e.int(t.NumEmbeddeds())
		for i := range t.NumEmbeddeds() {
			e.typ(t.EmbeddedType(i))
		}
		e.int(t.NumExplicitMethods())
		for i := range t.NumExplicitMethods() {
			m := t.ExplicitMethod(i)
			e.str(m.Name())
			e.typ(m.Type())
		}
	case *types.Union:
		e.int(tagUnion)
		e.int(t.Len())
		for i := range t.Len() {
			e.bool(t.Term(i).Tilde())
			e.typ(t.Term(i).Type())
		}
	default:
		e.err = fmt.Errorf("%w: type %T", errUnkeyable, t)
	}
}

// object writes a type's name with its package's path and declared name:
// the generated file imports the path under a name derived from the latter.
func (e *typeKey) object(obj *types.TypeName) {
	e.str(obj.Name())
	if pkg := obj.Pkg(); pkg != nil {
		e.str(pkg.Path())
		e.str(pkg.Name())
	} else {
		e.int(-1)
	}
}

func (e *typeKey) typeList(l *types.TypeList) {
	e.int(l.Len())
	for i := range l.Len() {
		e.typ(l.At(i))
	}
}

func (e *typeKey) tuple(t *types.Tuple) {
	e.int(t.Len())
	for i := range t.Len() {
		e.typ(t.At(i).Type())
	}
}
