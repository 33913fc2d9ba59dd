package gen

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"
)

func TestTypeExprWritesEveryKindOfType(t *testing.T) {
	other := types.NewPackage("example.com/other", "other")
	req := types.NewNamed(types.NewTypeName(token.NoPos, other, "Req", nil), types.NewStruct(nil, nil), nil)
	intT := types.Typ[types.Int]
	strT := types.Typ[types.String]
	errT := types.Universe.Lookup("error").Type()

	tparam := types.NewTypeParam(types.NewTypeName(token.NoPos, nil, "A", nil), types.Universe.Lookup("any").Type())
	types.NewSignatureType(nil, nil, []*types.TypeParam{tparam}, nil, nil, false) // binds the index

	params := types.NewTuple(types.NewVar(token.NoPos, nil, "a", intT), types.NewVar(token.NoPos, nil, "xs", types.NewSlice(strT)))
	results := types.NewTuple(types.NewVar(token.NoPos, nil, "", intT), types.NewVar(token.NoPos, nil, "", errT))
	variadic := types.NewSignatureType(nil, nil, nil, params, results, true)

	fields := []*types.Var{
		types.NewField(token.NoPos, nil, "Name", strT, false),
		types.NewField(token.NoPos, other, "Req", req, true),
	}
	iface := types.NewInterfaceType([]*types.Func{
		types.NewFunc(token.NoPos, nil, "Close", types.NewSignatureType(nil, nil, nil, nil, types.NewTuple(types.NewVar(token.NoPos, nil, "", errT)), false)),
	}, nil)
	iface.Complete()
	union := types.NewUnion([]*types.Term{types.NewTerm(true, intT), types.NewTerm(false, strT)})

	tests := []struct {
		typ  types.Type
		want string
	}{
		{types.NewPointer(req), "*other.Req"},
		{types.NewArray(intT, 4), "[4]int"},
		{types.NewMap(strT, types.NewSlice(req)), "map[string][]other.Req"},
		{types.NewChan(types.SendRecv, intT), "chan int"},
		{types.NewChan(types.SendOnly, intT), "chan<- int"},
		{types.NewChan(types.RecvOnly, intT), "<-chan int"},
		{types.NewChan(types.SendRecv, types.NewChan(types.RecvOnly, intT)), "chan (<-chan int)"},
		{variadic, "func(int, ...string) (int, error)"},
		{types.NewStruct(fields, []string{`json:"name"`, ""}), "struct {\n\tName string \"json:\\\"name\\\"\"\n\tother.Req\n}"},
		{iface, "interface {\n\tClose() error\n}"},
		{tparam, "K"}, // written by position with the wrapper's names
		{types.Typ[types.UnsafePointer], "unsafe.Pointer"},
	}
	x := typeExpr{tparams: []string{"K"}}
	for _, tt := range tests {
		// Rendered in a declaration: jennifer gofmts what it renders.
		got := strings.TrimPrefix(fmt.Sprintf("%#v", jen.Var().Id("_").Add(x.code(tt.typ))), "var _ ")
		if got != tt.want {
			t.Errorf("%v: got %q; want %q", tt.typ, got, tt.want)
		}
	}
	// A union only exists inside a constraint.
	got := fmt.Sprintf("%#v", jen.Type().Id("C").Interface(x.code(union)))
	if want := "type C interface {\n\t~int | string\n}"; got != want {
		t.Errorf("union: got %q; want %q", got, want)
	}
}
