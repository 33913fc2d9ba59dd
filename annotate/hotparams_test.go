package annotate

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hotSource declares one guarded method per parameter shape; each method's
// name says which kind its single parameter after ctx must get.
const hotSource = `package p

import (
	"context"
	"time"
)

type SKU string
type Qty int32
type Flags uint8
type Tags []string
type Key struct{ id int }
func (k Key) ParamFlowKey() string { return "" }
type PtrKey struct{}
func (*PtrKey) ParamFlowKey() string { return "" }
type WrongKey string
func (WrongKey) ParamFlowKey() int { return 0 }
type Keyer interface{ ParamFlowKey() string }
type Box struct{ n int }
type Number interface{ ~int | ~int64 }
type Mixed interface{ ~int | ~string }

type S struct{}

//sentinel:resource
func (S) String(ctx context.Context, v string) error { return nil }
//sentinel:resource
func (S) NamedString(ctx context.Context, v SKU) error { return nil }
//sentinel:resource
func (S) Int(ctx context.Context, v int) error { return nil }
//sentinel:resource
func (S) NamedInt(ctx context.Context, v Qty) error { return nil }
//sentinel:resource
func (S) Duration(ctx context.Context, v time.Duration) error { return nil }
//sentinel:resource
func (S) Uint(ctx context.Context, v Flags) error { return nil }
//sentinel:resource
func (S) Uintptr(ctx context.Context, v uintptr) error { return nil }
//sentinel:resource
func (S) Float(ctx context.Context, v float32) error { return nil }
//sentinel:resource
func (S) Bool(ctx context.Context, v bool) error { return nil }
//sentinel:resource
func (S) KeyMethod(ctx context.Context, v Key) error { return nil }
//sentinel:resource
func (S) KeyMethodPtr(ctx context.Context, v *PtrKey) error { return nil }
//sentinel:resource
func (S) KeyMethodAddr(ctx context.Context, v PtrKey) error { return nil }
//sentinel:resource
func (S) KeyMethodIface(ctx context.Context, v Keyer) error { return nil }
//sentinel:resource
func (S) WrongKeyIsString(ctx context.Context, v WrongKey) error { return nil }
//sentinel:resource
func (S) Strings(ctx context.Context, v []string) error { return nil }
//sentinel:resource
func (S) NamedStrings(ctx context.Context, v Tags) error { return nil }
//sentinel:resource
func (S) Ints(ctx context.Context, v ...int64) error { return nil }
//sentinel:resource
func (S) Struct(ctx context.Context, v Box) error { return nil }
//sentinel:resource
func (S) Pointer(ctx context.Context, v *string) error { return nil }
//sentinel:resource
func (S) Map(ctx context.Context, v map[string]int) error { return nil }
//sentinel:resource
func (S) Complex(ctx context.Context, v complex128) error { return nil }
//sentinel:resource
func (S) Any(ctx context.Context, v any) error { return nil }
//sentinel:resource
func (S) Keys(ctx context.Context, v []Key) error { return nil }
//sentinel:resource
func (S) Array(ctx context.Context, v [2]string) error { return nil }

//sentinel:resource
func GenericNumber[T Number](ctx context.Context, v T) error { return nil }
//sentinel:resource
func GenericMixed[T Mixed](ctx context.Context, v T) error { return nil }
//sentinel:resource
func GenericComparable[T comparable](ctx context.Context, v T) error { return nil }
//sentinel:resource
func GenericKeyer[T Keyer](ctx context.Context, v T) error { return nil }
//sentinel:resource
func GenericSlice[T ~string](ctx context.Context, v []T) error { return nil }
`

// TestHotParamKinds classifies every parameter shape through go/types:
// named types count by their underlying type, the key method wins, and
// slices of basic kinds are checked element by element.
func TestHotParamKinds(t *testing.T) {
	model, diags := check(t, map[string]string{"p.go": hotSource})
	require.Empty(t, diags)
	type want struct {
		kind     ParamKind
		slice    bool
		nilCheck bool
	}
	wants := map[string]want{
		"String":            {kind: ParamString},
		"NamedString":       {kind: ParamString},
		"Int":               {kind: ParamInt},
		"NamedInt":          {kind: ParamInt},
		"Duration":          {kind: ParamInt},
		"Uint":              {kind: ParamUint},
		"Uintptr":           {kind: ParamUint},
		"Float":             {kind: ParamFloat},
		"Bool":              {kind: ParamBool},
		"KeyMethod":         {kind: ParamKeyMethod},
		"KeyMethodPtr":      {kind: ParamKeyMethod, nilCheck: true},
		"KeyMethodAddr":     {kind: ParamKeyMethod},
		"KeyMethodIface":    {kind: ParamKeyMethod, nilCheck: true},
		"WrongKeyIsString":  {kind: ParamString},
		"Strings":           {kind: ParamString, slice: true},
		"NamedStrings":      {kind: ParamString, slice: true},
		"Ints":              {kind: ParamInt, slice: true},
		"Struct":            {},
		"Pointer":           {},
		"Map":               {},
		"Complex":           {},
		"Any":               {},
		"Keys":              {},
		"Array":             {},
		"GenericNumber":     {kind: ParamInt},
		"GenericMixed":      {},
		"GenericComparable": {},
		"GenericKeyer":      {kind: ParamKeyMethod},
		"GenericSlice":      {kind: ParamString, slice: true},
	}
	require.Len(t, model.Resources, len(wants))
	for _, r := range model.Resources {
		w, ok := wants[r.Func.Name]
		require.True(t, ok, r.Func.Name)
		require.Len(t, r.HotParams, 1, r.Func.Name)
		p := r.HotParams[0]
		assert.Equal(t, w, want{p.Kind, p.Slice, p.NilCheck}, "%s: got kind %s", r.Func.Name, p.Kind)
		assert.Equal(t, "v", p.Name, r.Func.Name)
		assert.Equal(t, 1, p.Index, r.Func.Name)
		assert.Same(t, r.Func.Params[1].Type, p.Type, r.Func.Name)
		assert.True(t, strings.HasSuffix(p.Pos.Filename, "p.go") && p.Pos.Line > 0, "%s: position %v", r.Func.Name, p.Pos)
	}
}

// TestHotParamsCountAfterContext: a leading context.Context is not a hot
// parameter, so index 0 is the first business argument; without one, every
// parameter counts; unnamed and blank parameters keep their place.
func TestHotParamsCountAfterContext(t *testing.T) {
	model, diags := check(t, map[string]string{"p.go": `package p

import "context"

//sentinel:resource
func WithCtx(ctx context.Context, sku string, qty int) error { return nil }
//sentinel:resource
func NoCtx(sku string, _ int, ctx context.Context) error { return nil }
//sentinel:resource
func Unnamed(context.Context, string) error { return nil }
//sentinel:resource
func Nothing(ctx context.Context) error { return nil }
`})
	require.Empty(t, diags)
	got := map[string][]string{}
	for _, r := range model.Resources {
		names := []string{}
		for _, p := range r.HotParams {
			names = append(names, p.Name+":"+p.Kind.String()+":"+string(rune('0'+p.Index)))
		}
		got[r.Func.Name] = names
	}
	assert.Equal(t, map[string][]string{
		"WithCtx": {"sku:string:1", "qty:signed integer:2"},
		"NoCtx":   {"sku:string:0", "_:signed integer:1", "ctx:cannot be a key:2"},
		"Unnamed": {":string:1"},
		"Nothing": {},
	}, got)
}
