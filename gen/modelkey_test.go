package gen

import (
	"bytes"
	"go/token"
	"go/types"
	"reflect"
	"testing"

	"github.com/sentinelgen/sentinelgen/annotate"
)

// The reflect types the field walk stops at, as the encoder does.
var (
	typesTypeType    = reflect.TypeFor[types.Type]()
	typesPackageType = reflect.TypeFor[*types.Package]()
)

// modelKey is the model's cache key under a fixed tool identity.
func modelKey(t *testing.T, pkg *annotate.Package) string {
	t.Helper()
	k := NewCache(t.TempDir(), []byte("tool")).key(pkg)
	if !k.Valid() {
		t.Fatal("the model has no cache key")
	}
	return k.String()
}

// TestModelKeyIsCanonical loads the same package twice: the types are
// different objects, the key must be the same.
func TestModelKeyIsCanonical(t *testing.T) {
	a, b := benchPackage(t), benchPackage(t)
	if a.Resources[0].Func.Params[1].Type == b.Resources[0].Func.Params[1].Type && a.Types == b.Types {
		t.Fatal("the two loads share their types; the test proves nothing")
	}
	if ka, kb := modelKey(t, a), modelKey(t, b); ka != kb {
		t.Fatalf("keys %s and %s; want equal", ka, kb)
	}
}

// TestEveryModelFieldIsInTheKey changes each string, bool and integer
// reachable in the model, one at a time, and wants a new key for each. The
// walk is by reflection, like the encoding, so a field added to the model
// is tested without being listed here.
func TestEveryModelFieldIsInTheKey(t *testing.T) {
	pkg := benchPackage(t)
	base := modelKey(t, pkg)
	seen := make(map[uintptr]bool)
	var changed int
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() || seen[v.Pointer()] || v.Type() == typesPackageType || v.Type().Implements(typesTypeType) {
				return
			}
			seen[v.Pointer()] = true
			walk(v.Elem(), path)
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i), path+"."+v.Type().Field(i).Name)
			}
		case reflect.Slice:
			for i := range v.Len() {
				walk(v.Index(i), path+"[]")
			}
		case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Uint8:
			old := reflect.New(v.Type()).Elem()
			old.Set(v)
			switch v.Kind() {
			case reflect.String:
				v.SetString(v.String() + "x")
			case reflect.Bool:
				v.SetBool(!v.Bool())
			case reflect.Int, reflect.Int8:
				v.SetInt(v.Int() + 1)
			default:
				v.SetUint(v.Uint() + 1)
			}
			if modelKey(t, pkg) == base {
				t.Errorf("%s: changing it leaves the key as it was", path)
			}
			v.Set(old)
			changed++
		}
	}
	walk(reflect.ValueOf(pkg), "Package")
	if changed < 100 {
		t.Fatalf("changed %d fields; the walk missed the model", changed)
	}
	if modelKey(t, pkg) != base {
		t.Fatal("the walk did not restore the model")
	}
}

// TestModelKeyChangesWithWhatGenerateReads covers what the field walk
// cannot: the go/types values, the reserved names, and the sharing of
// resources between a wrapper and the package.
func TestModelKeyChangesWithWhatGenerateReads(t *testing.T) {
	pkg := benchPackage(t)
	r0 := pkg.Resources[0] // id string, limit int; ignore=ErrNotFound
	r1 := pkg.Resources[1] // in *parent.Item
	w := pkg.Wrappers[0]
	cases := []struct {
		name   string
		change func() (undo func())
	}{
		{"reserved name", func() func() {
			pkg.Reserved["resServiceMethod00"] = true
			return func() { delete(pkg.Reserved, "resServiceMethod00") }
		}},
		{"param type", func() func() {
			old := r0.Func.Params[2].Type
			r0.Func.Params[2].Type = types.Typ[types.String]
			return func() { r0.Func.Params[2].Type = old }
		}},
		{"param type's package name", func() func() {
			named := r1.Func.Params[1].Type.(*types.Pointer).Elem().(*types.Named)
			other := types.NewNamed(types.NewTypeName(token.NoPos, types.NewPackage(named.Obj().Pkg().Path(), "renamed"), "Item", nil), named.Underlying(), nil)
			old := r1.Func.Params[1].Type
			r1.Func.Params[1].Type = types.NewPointer(other)
			return func() { r1.Func.Params[1].Type = old }
		}},
		{"handler signature", func() func() {
			old := r0.Fallback.Type
			r0.Fallback.Type = types.NewSignatureType(nil, nil, nil, nil, old.Results(), false)
			return func() { r0.Fallback.Type = old }
		}},
		{"handler removed", func() func() {
			old := r0.BlockHandler
			r0.BlockHandler = nil
			return func() { r0.BlockHandler = old }
		}},
		{"ignore to trace", func() func() {
			r0.Trace, r0.Ignore = r0.Ignore, nil
			return func() { r0.Ignore, r0.Trace = r0.Trace, nil }
		}},
		{"wrapper method order", func() func() {
			w.Methods[0], w.Methods[1] = w.Methods[1], w.Methods[0]
			return func() { w.Methods[0], w.Methods[1] = w.Methods[1], w.Methods[0] }
		}},
		{"wrapper method not the package's resource", func() func() {
			old := w.Methods[0]
			clone := *old
			w.Methods[0] = &clone // equal values, but not the resource Generate names
			return func() { w.Methods[0] = old }
		}},
		{"package scope", func() func() {
			old := pkg.Types
			pkg.Types = types.NewPackage(old.Path(), old.Name())
			for _, name := range old.Scope().Names() {
				pkg.Types.Scope().Insert(old.Scope().Lookup(name))
			}
			pkg.Types.Scope().Insert(types.NewVar(token.NoPos, pkg.Types, "resServiceMethod00", types.Typ[types.Int]))
			return func() { pkg.Types = old }
		}},
	}
	base := modelKey(t, pkg)
	baseOut, err := Generate(pkg)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		undo := c.change()
		k := modelKey(t, pkg)
		out, genErr := Generate(pkg)
		undo()
		if k == base {
			t.Errorf("%s: key unchanged", c.name)
		}
		if genErr == nil && bytes.Equal(out, baseOut) && c.name != "param type's package name" {
			t.Errorf("%s: the output did not change; the case does not show the key must", c.name)
		}
	}
	if modelKey(t, pkg) != base {
		t.Fatal("the cases did not restore the model")
	}
}
