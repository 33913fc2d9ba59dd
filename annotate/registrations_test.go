package annotate

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"testing"
)

func TestRegistrationsFindLiterals(t *testing.T) {
	cases := []struct {
		name                 string
		src                  string
		resources, entrances []string
	}{
		{"default import name", `package p
import "github.com/sentinelgen/sentinelgen/runtime"
var r = runtime.NewResource("a", runtime.WithResourceType(runtime.ResourceTypeRPC))
func f(ctx context.Context) { ctx = runtime.WithEntrance(ctx, "web") }`, []string{"a"}, []string{"web"}},
		{"renamed import", `package p
import sg "github.com/sentinelgen/sentinelgen/runtime"
var r = sg.NewResource(` + "`raw`" + `)
var s = runtime.NewResource("not the runtime")`, []string{"raw"}, nil},
		{"dot import", `package p
import . "github.com/sentinelgen/sentinelgen/runtime"
var r = NewResource("dotted")`, []string{"dotted"}, nil},
		{"another runtime", `package p
import "runtime"
var r = runtime.NewResource("x")`, nil, nil},
		{"names built at run time are invisible", `package p
import "github.com/sentinelgen/sentinelgen/runtime"
var name = "c"
var r = runtime.NewResource(name)
var s = runtime.NewResource("a" + "b")
func f() { runtime.NewResource() }`, nil, nil},
		{"package-level string constants are read", `package p
import "github.com/sentinelgen/sentinelgen/runtime"
const name, other = "c", 3
var r = runtime.NewResource(name)
var s = runtime.NewResource(other)
const entrance = "web"
func f(ctx context.Context) { ctx = runtime.WithEntrance(ctx, entrance) }`, []string{"c"}, []string{"web"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, "p.go", c.src, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			res, ent := map[string]bool{}, map[string]bool{}
			// The package scope as the loaders type-check it; the runtime's
			// import cannot be resolved here, which leaves constants alone.
			conf := types.Config{Importer: importer.Default(), Error: func(error) {}}
			pkg, _ := conf.Check("p", fset, []*ast.File{f}, nil)
			lookup := packageStringConst(pkg)
			for _, r := range registrations(fset, f, lookup) {
				if r.Kind == RegisterResource {
					res[r.Name] = true
				} else {
					ent[r.Name] = true
				}
			}
			if got := slices.Sorted(maps.Keys(res)); !slices.Equal(got, c.resources) {
				t.Errorf("resources %q, want %q", got, c.resources)
			}
			if got := slices.Sorted(maps.Keys(ent)); !slices.Equal(got, c.entrances) {
				t.Errorf("entrances %q, want %q", got, c.entrances)
			}
		})
	}
}
