package annotate

import (
	"go/token"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDiagnosticFormat(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	d := Diagnostic{
		Pos:     token.Position{Filename: filepath.Join(wd, "svc", "svc.go"), Line: 12, Column: 34},
		Message: "blockHandler x has the wrong signature",
		Related: []RelatedInfo{{Pos: token.Position{Filename: "/elsewhere/h.go", Line: 3, Column: 6}, Message: "x declared here"}},
	}
	// String leaves the name as the position holds it: callers that want
	// it shorter say relative to what, with Format.
	assert.Equal(t, filepath.Join(wd, "svc", "svc.go")+":12:34: blockHandler x has the wrong signature", d.String())
	assert.Equal(t, "svc/svc.go:12:34: blockHandler x has the wrong signature\n\t/elsewhere/h.go:3:6: x declared here", d.Format(wd))
	assert.Equal(t, "svc.go:12:34: blockHandler x has the wrong signature\n\t/elsewhere/h.go:3:6: x declared here", d.Format(filepath.Join(wd, "svc")))
	assert.Equal(t, "no position", Diagnostic{Message: "no position"}.String())
}

func TestSortDiagnostics(t *testing.T) {
	ds := []Diagnostic{
		{Pos: token.Position{Filename: "b.go", Line: 1, Column: 1}, Message: "4"},
		{Pos: token.Position{Filename: "a.go", Line: 2, Column: 1}, Message: "3"},
		{Pos: token.Position{Filename: "a.go", Line: 1, Column: 9}, Message: "2"},
		{Pos: token.Position{Filename: "a.go", Line: 1, Column: 2}, Message: "1"},
	}
	sortDiagnostics(ds)
	var got string
	for _, d := range ds {
		got += d.Message
	}
	assert.Equal(t, "1234", got)
}

// Every message becomes one line: the parser's quoted raw string is cut,
// the type checker's indented continuation lines are joined.
func TestOneLine(t *testing.T) {
	assert.Equal(t, "expected declaration, found `//sentinel:resource name=x...",
		oneLine("expected declaration, found `//sentinel:resource name=x\nfunc F() {}\n\nvar a = 1\n`"))
	assert.Equal(t, "cannot use s as I value: S does not implement I (wrong type for method M) have M() want M(int)",
		oneLine("cannot use s as I value: S does not implement I (wrong type for method M)\n\t\thave M()\n\t\twant M(int)"))
	assert.Equal(t, "plain", oneLine("plain"))
}
