package astutil

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

func TestRecvTypeName(t *testing.T) {
	src := `package p
func F() {}
func (T) A() {}
func (t *T) B() {}
func (t T[P]) C() {}
func (t *T[P, Q]) D() {}
func (t (*T)) E() {}
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"F": "", "A": "T", "B": "T", "C": "T", "D": "T", "E": "T"}
	for _, d := range f.Decls {
		fn := d.(*ast.FuncDecl)
		if got := RecvTypeName(fn.Recv); got != want[fn.Name.Name] {
			t.Errorf("%s: RecvTypeName = %q, want %q", fn.Name.Name, got, want[fn.Name.Name])
		}
	}
}
