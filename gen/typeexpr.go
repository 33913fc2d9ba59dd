package gen

import (
	"fmt"
	"go/types"
	"strconv"

	"github.com/dave/jennifer/jen"
)

// typeExpr writes go/types types back as Go source for the generated file.
//
// Type parameters are written by position, not by their declared name: a
// method of a generic type may rename its receiver's type parameters
// (func (c *Cache[A, B]) Get(k A)), and its handlers may use yet other names,
// but the wrapper declares them once, with the type's own names. tparams
// holds those names; nil means "use each parameter's own name".
type typeExpr struct {
	tparams []string
}

// code returns the source form of t.
func (x typeExpr) code(t types.Type) jen.Code {
	switch t := t.(type) {
	case *types.Basic:
		if t.Kind() == types.UnsafePointer {
			return jen.Qual("unsafe", "Pointer")
		}
		return jen.Id(t.Name())
	case *types.Alias:
		return x.named(t.Obj(), t.TypeArgs())
	case *types.Named:
		return x.named(t.Obj(), t.TypeArgs())
	case *types.TypeParam:
		if i := t.Index(); x.tparams != nil && i < len(x.tparams) {
			return jen.Id(x.tparams[i])
		}
		return jen.Id(t.Obj().Name())
	case *types.Pointer:
		return jen.Op("*").Add(x.code(t.Elem()))
	case *types.Slice:
		return jen.Index().Add(x.code(t.Elem()))
	case *types.Array:
		return jen.Index(jen.Lit(int(t.Len()))).Add(x.code(t.Elem()))
	case *types.Map:
		return jen.Map(x.code(t.Key())).Add(x.code(t.Elem()))
	case *types.Chan:
		return x.chanType(t)
	case *types.Signature:
		return jen.Func().Add(x.signature(t, nil))
	case *types.Struct:
		return x.structType(t)
	case *types.Interface:
		return x.interfaceType(t)
	case *types.Union:
		return x.union(t)
	}
	// The model only carries types of declared signatures, all covered above.
	panic(fmt.Sprintf("gen: unsupported type %T (%v)", t, t))
}

func (x typeExpr) named(obj *types.TypeName, args *types.TypeList) jen.Code {
	var s *jen.Statement
	if obj.Pkg() == nil { // error, comparable, any
		s = jen.Id(obj.Name())
	} else {
		s = jen.Qual(obj.Pkg().Path(), obj.Name())
	}
	if args.Len() > 0 {
		codes := make([]jen.Code, args.Len())
		for i := range args.Len() {
			codes[i] = x.code(args.At(i))
		}
		s = s.Types(codes...)
	}
	return s
}

func (x typeExpr) chanType(t *types.Chan) jen.Code {
	elem := x.code(t.Elem())
	switch t.Dir() {
	case types.SendOnly:
		return jen.Chan().Op("<-").Add(elem)
	case types.RecvOnly:
		return jen.Op("<-").Chan().Add(elem)
	}
	// "chan <-chan T" would parse as "chan<- (chan T)".
	if inner, ok := t.Elem().(*types.Chan); ok && inner.Dir() == types.RecvOnly {
		return jen.Chan().Parens(elem)
	}
	return jen.Chan().Add(elem)
}

// signature writes "(params) results" for sig. paramNames, when not nil,
// names the parameters (one per parameter); otherwise they are unnamed.
func (x typeExpr) signature(sig *types.Signature, paramNames []string) *jen.Statement {
	params := make([]jen.Code, sig.Params().Len())
	for i := range sig.Params().Len() {
		p := sig.Params().At(i)
		var typ jen.Code
		if sig.Variadic() && i == sig.Params().Len()-1 {
			typ = jen.Op("...").Add(x.code(p.Type().(*types.Slice).Elem()))
		} else {
			typ = x.code(p.Type())
		}
		if paramNames != nil {
			params[i] = jen.Id(paramNames[i]).Add(typ)
		} else {
			params[i] = typ
		}
	}
	return jen.Params(params...).Add(x.results(sig.Results()))
}

// results writes a result list: nothing, one bare type, or a parenthesised
// list of types. Result names are dropped: they are no part of the type.
func (x typeExpr) results(tuple *types.Tuple) jen.Code {
	switch tuple.Len() {
	case 0:
		return jen.Null()
	case 1:
		return x.code(tuple.At(0).Type())
	}
	codes := make([]jen.Code, tuple.Len())
	for i := range tuple.Len() {
		codes[i] = x.code(tuple.At(i).Type())
	}
	return jen.Params(codes...)
}

func (x typeExpr) structType(t *types.Struct) jen.Code {
	fields := make([]jen.Code, t.NumFields())
	for i := range t.NumFields() {
		f := t.Field(i)
		var s *jen.Statement
		if f.Embedded() {
			s = jen.Add(x.code(f.Type()))
		} else {
			s = jen.Id(f.Name()).Add(x.code(f.Type()))
		}
		if tag := t.Tag(i); tag != "" {
			s = s.Op(strconv.Quote(tag))
		}
		fields[i] = s
	}
	return jen.Struct(fields...)
}

func (x typeExpr) interfaceType(t *types.Interface) jen.Code {
	var elems []jen.Code
	for i := range t.NumEmbeddeds() {
		elems = append(elems, x.code(t.EmbeddedType(i)))
	}
	for i := range t.NumExplicitMethods() {
		m := t.ExplicitMethod(i)
		elems = append(elems, jen.Id(m.Name()).Add(x.signature(m.Type().(*types.Signature), nil)))
	}
	if t.IsImplicit() && len(elems) == 1 {
		// A constraint written inline, as in [T ~int | ~string].
		return elems[0]
	}
	return jen.Interface(elems...)
}

func (x typeExpr) union(t *types.Union) jen.Code {
	terms := make([]jen.Code, t.Len())
	for i := range t.Len() {
		term := t.Term(i)
		if term.Tilde() {
			terms[i] = jen.Op("~").Add(x.code(term.Type()))
		} else {
			terms[i] = x.code(term.Type())
		}
	}
	return jen.Union(terms...)
}

// sliceElem is the element type of a variadic parameter's slice type.
func sliceElem(t types.Type) types.Type {
	return t.Underlying().(*types.Slice).Elem()
}
