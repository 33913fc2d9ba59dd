package annotate

import (
	"go/token"
	"strconv"
	"strings"
	"testing"
)

// Directives written the Java way get messages in Go terms: the *Class
// attributes show the qualified handler, and the comma-separated form of
// an annotation says that arguments are separated by blanks.
func TestParseDirectiveJavaForms(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string // "col: message"
		keep []string // keys that survive
	}{
		{"blockHandlerClass", "//sentinel:resource blockHandlerClass=Handlers",
			[]string{`21: unknown key "blockHandlerClass"; the Java attribute blockHandlerClass has no key of its own here: name the function with its package, blockHandler=pkg.Func`}, nil},
		{"fallbackClass", "//sentinel:resource fallback=f fallbackClass=Handlers",
			[]string{`32: unknown key "fallbackClass"; the Java attribute fallbackClass has no key of its own here: name the function with its package, fallback=pkg.Func`}, []string{"fallback"}},
		{"comma form, quoted", `//sentinel:resource value="x", blockHandler="y"`,
			[]string{`30: ` + javaCommaForm}, []string{"blockHandler"}},
		{"comma form, unquoted", `//sentinel:resource name=x, blockHandler=y`,
			[]string{`27: ` + javaCommaForm}, []string{"blockHandler"}},
		// A list keeps its commas: a trailing one is the list's own problem.
		{"list is no comma form", `//sentinel:resource ignore=ErrA,ErrB`, nil, []string{"ignore"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, diags := ParseDirective(tt.text, token.Position{Filename: "f.go", Line: 1, Column: 1})
			var got []string
			for _, dg := range diags {
				got = append(got, strconv.Itoa(dg.Pos.Column)+": "+dg.Message)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			var keys []string
			for _, a := range d.Args {
				keys = append(keys, a.Key)
			}
			if strings.Join(keys, ",") != strings.Join(tt.keep, ",") {
				t.Errorf("kept keys %v; want %v", keys, tt.keep)
			}
		})
	}
}
