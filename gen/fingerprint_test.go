package gen

import (
	"bytes"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"testing"

	"github.com/sentinelgen/sentinelgen/annotate"
)

// fingerprintedFields lists, per model type, the fields modelFingerprint
// writes; unreadFields those it leaves out because Generate never reads
// them (where the package and its declarations are, not what they are).
// Every field of the model must be in one of the two.
var (
	fingerprintedFields = map[string][]string{
		"Package":      {"Path", "Name", "Types", "Resources", "Wrappers", "Reserved"},
		"Resource":     {"Name", "Func", "BlockHandler", "Fallback", "DefaultFallback", "Ignore", "Trace", "EntryType", "ResourceType", "GeneratedName"},
		"Func":         {"Name", "Recv", "TypeParams", "Params", "Results", "Variadic", "HasContext", "ErrorResult"},
		"Receiver":     {"TypeName", "Pointer", "TypeParams"},
		"TypeParam":    {"Name", "Constraint"},
		"Var":          {"Name", "Type"},
		"Wrapper":      {"Recv", "TypeName", "Constructor", "Methods"},
		"Handler":      {"Role", "Kind", "Written", "PkgPath", "Name", "TakesError", "Type"},
		"ErrorMatcher": {"Kind", "Written", "PkgPath", "Name", "Type"},
	}
	unreadFields = map[string][]string{
		"Package":      {"Dir", "Registrations"},
		"Registration": {"Kind", "Name", "Pos"},
		"Resource":     {"Pos"},
		"Func":         {"Pos"},
		"Handler":      {"Pos", "DeclPos"},
		"ErrorMatcher": {"Pos"},
	}
)

// TestFingerprintCoversTheModel walks the model's types: a field added to
// annotate without a decision here would let the cache answer for a model
// that differs in it.
func TestFingerprintCoversTheModel(t *testing.T) {
	seen := make(map[string]bool)
	var walk func(reflect.Type)
	walk = func(typ reflect.Type) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || typ.PkgPath() != reflect.TypeFor[annotate.Package]().PkgPath() || seen[typ.Name()] {
			return
		}
		seen[typ.Name()] = true
		for f := range typ.Fields() {
			name := typ.Name() + "." + f.Name
			in := slices.Contains(fingerprintedFields[typ.Name()], f.Name)
			if in == slices.Contains(unreadFields[typ.Name()], f.Name) {
				t.Errorf("%s: list it in exactly one of fingerprintedFields and unreadFields (and in modelFingerprint if it is read by Generate)", name)
			}
			walk(f.Type)
		}
	}
	walk(reflect.TypeFor[annotate.Package]())
	for typ := range fingerprintedFields {
		if !seen[typ] {
			t.Errorf("fingerprintedFields names %s, which the model no longer has", typ)
		}
	}
}

// TestFingerprintIsCanonical loads the same package twice: the types are
// different objects, the fingerprint must be the same.
func TestFingerprintIsCanonical(t *testing.T) {
	a, b := benchPackage(t), benchPackage(t)
	if a.Resources[0].Func.Params[1].Type == b.Resources[0].Func.Params[1].Type && a.Types == b.Types {
		t.Fatal("the two loads share their types; the test proves nothing")
	}
	fa, errA := modelFingerprint(a)
	fb, errB := modelFingerprint(b)
	if errA != nil || errB != nil || fa != fb {
		t.Fatalf("fingerprints %x (%v) and %x (%v); want equal", fa, errA, fb, errB)
	}
}

// TestPositionsDoNotReachTheOutput backs leaving positions out of the
// fingerprint: moving every declaration changes neither.
func TestPositionsDoNotReachTheOutput(t *testing.T) {
	pkg := benchPackage(t)
	before, err := Generate(pkg)
	if err != nil {
		t.Fatal(err)
	}
	fpBefore, _ := modelFingerprint(pkg)
	moved := token.Position{Filename: "elsewhere.go", Offset: 999, Line: 99, Column: 9}
	for _, r := range pkg.Resources {
		r.Pos, r.Func.Pos = moved, moved
		for _, h := range handlers(r) {
			h.Pos, h.DeclPos = moved, moved
		}
		for i := range r.Ignore {
			r.Ignore[i].Pos = moved
		}
		for i := range r.Trace {
			r.Trace[i].Pos = moved
		}
	}
	after, err := Generate(pkg)
	if err != nil || !bytes.Equal(before, after) {
		t.Fatalf("moving the declarations changed the output (err %v)", err)
	}
	if fpAfter, _ := modelFingerprint(pkg); fpAfter != fpBefore {
		t.Fatal("moving the declarations changed the fingerprint")
	}
}

// TestFingerprintChangesWithTheModel changes the model one field at a time
// (each change is undone before the next) and wants a new fingerprint for
// each, and a new output for those that show in it.
func TestFingerprintChangesWithTheModel(t *testing.T) {
	pkg := benchPackage(t)
	r0 := pkg.Resources[0] // id string, limit int; ignore=ErrNotFound
	r1 := pkg.Resources[1] // in *parent.Item
	w := pkg.Wrappers[0]
	intType, stringType := types.Typ[types.Int], types.Typ[types.String]
	swap := func(p *string, v string) func() { old := *p; *p = v; return func() { *p = old } }
	setBool := func(p *bool) func() { old := *p; *p = !old; return func() { *p = old } }

	cases := []struct {
		name       string
		change     func() (undo func())
		sameOutput bool // the change does not show in the output
	}{
		{"package path", func() func() { return swap(&pkg.Path, pkg.Path+"x") }, true},
		{"package name", func() func() { return swap(&pkg.Name, "other") }, false},
		{"reserved name", func() func() {
			pkg.Reserved["resServiceMethod00"] = true
			return func() { delete(pkg.Reserved, "resServiceMethod00") }
		}, false},
		{"resource name", func() func() { return swap(&r0.Name, "renamed") }, false},
		{"generated name", func() func() { return swap(&r0.GeneratedName, "Other") }, true},
		{"entry type", func() func() { r0.EntryType = annotate.EntryIn; return func() { r0.EntryType = annotate.EntryOut } }, false},
		{"resource type", func() func() {
			r0.ResourceType = annotate.ResourceDB
			return func() { r0.ResourceType = annotate.ResourceCommon }
		}, false},
		{"func name", func() func() { return swap(&r0.Func.Name, "Renamed") }, false},
		{"param name", func() func() { return swap(&r0.Func.Params[1].Name, "key") }, false},
		{"param type", func() func() {
			old := r0.Func.Params[2].Type
			r0.Func.Params[2].Type = stringType
			return func() { r0.Func.Params[2].Type = old }
		}, false},
		{"param type's package name", func() func() {
			named := r1.Func.Params[1].Type.(*types.Pointer).Elem().(*types.Named)
			other := types.NewNamed(types.NewTypeName(token.NoPos, types.NewPackage(named.Obj().Pkg().Path(), "renamed"), "Item", nil), named.Underlying(), nil)
			old := r1.Func.Params[1].Type
			r1.Func.Params[1].Type = types.NewPointer(other)
			return func() { r1.Func.Params[1].Type = old }
			// The other uses of the package, in the handlers' signatures, still
			// give the import its name: a change the output does not show.
		}, true},
		{"result type", func() func() {
			old := r0.Func.Results[0].Type
			r0.Func.Results[0].Type = intType
			return func() { r0.Func.Results[0].Type = old }
		}, false},
		{"has context", func() func() { return setBool(&r0.Func.HasContext) }, false},
		{"error result", func() func() { r0.Func.ErrorResult = -1; return func() { r0.Func.ErrorResult = 1 } }, false},
		{"receiver pointer", func() func() { return setBool(&w.Recv.Pointer) }, true},
		{"handler written", func() func() { return swap(&r0.Fallback.Written, "other") }, false},
		{"handler name", func() func() { return swap(&r0.Fallback.Name, "other") }, false},
		{"handler takes error", func() func() { return setBool(&r0.Fallback.TakesError) }, false},
		{"handler signature", func() func() {
			old := r0.Fallback.Type
			r0.Fallback.Type = types.NewSignatureType(nil, nil, nil, nil, old.Results(), false)
			return func() { r0.Fallback.Type = old }
		}, false},
		{"handler removed", func() func() {
			old := r0.BlockHandler
			r0.BlockHandler = nil
			return func() { r0.BlockHandler = old }
		}, false},
		{"ignore written", func() func() { return swap(&r0.Ignore[0].Written, "io.EOF") }, false},
		{"ignore to trace", func() func() {
			r0.Trace, r0.Ignore = r0.Ignore, nil
			return func() { r0.Ignore, r0.Trace = r0.Trace, nil }
		}, false},
		{"wrapper type name", func() func() { return swap(&w.TypeName, "Other") }, false},
		{"wrapper constructor", func() func() { return swap(&w.Constructor, "Other") }, false},
		{"wrapper method order", func() func() {
			w.Methods[0], w.Methods[1] = w.Methods[1], w.Methods[0]
			return func() { w.Methods[0], w.Methods[1] = w.Methods[1], w.Methods[0] }
		}, false},
	}
	base, err := modelFingerprint(pkg)
	if err != nil {
		t.Fatal(err)
	}
	baseOut, err := Generate(pkg)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		undo := c.change()
		fp, err := modelFingerprint(pkg)
		out, genErr := Generate(pkg)
		undo()
		if err != nil || fp == base {
			t.Errorf("%s: fingerprint unchanged (err %v)", c.name, err)
		}
		if !c.sameOutput && genErr == nil && bytes.Equal(out, baseOut) {
			t.Errorf("%s: the output did not change; the case does not show the fingerprint must", c.name)
		}
	}
	if again, _ := modelFingerprint(pkg); again != base {
		t.Fatal("the cases did not restore the model")
	}
}
