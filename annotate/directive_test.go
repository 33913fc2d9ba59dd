package annotate

import (
	"go/token"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// at is the position of a directive that starts at line 7, column 1, with
// byte offset 100 in its file.
var at = token.Position{Filename: "svc.go", Offset: 100, Line: 7, Column: 1}

func TestParseDirectiveArgs(t *testing.T) {
	type arg struct {
		key, value string
		keyCol     int
		valueCol   int
		quoted     bool
	}
	tests := []struct {
		name string
		text string
		want []arg
	}{
		{"no arguments", "//sentinel:resource", nil},
		{"trailing blanks", "//sentinel:resource \t ", nil},
		{"one pair", "//sentinel:resource name=createOrder",
			[]arg{{"name", "createOrder", 21, 26, false}}},
		{"several pairs and tabs", "//sentinel:resource name=a\tblockHandler=b  fallback=pkg.F",
			[]arg{{"name", "a", 21, 26, false}, {"blockHandler", "b", 28, 41, false}, {"fallback", "pkg.F", 44, 53, false}}},
		{"quoted value with blanks and =", `//sentinel:resource name="GET /a?b=c" entryType=in`,
			[]arg{{"name", "GET /a?b=c", 21, 26, true}, {"entryType", "in", 39, 49, false}}},
		{"quoted value with escapes", `//sentinel:resource name="a\"b\u00e9"`,
			[]arg{{"name", `a"bé`, 21, 26, true}}},
		{"quoted handler", `//sentinel:resource fallback="f"`,
			[]arg{{"fallback", "f", 21, 30, true}}},
		{"all keys", "//sentinel:resource name=n blockHandler=b fallback=f defaultFallback=d ignore=E trace=T entryType=out resourceType=mq",
			[]arg{{"name", "n", 21, 26, false}, {"blockHandler", "b", 28, 41, false}, {"fallback", "f", 43, 52, false},
				{"defaultFallback", "d", 54, 70, false}, {"ignore", "E", 72, 79, false}, {"trace", "T", 81, 87, false},
				{"entryType", "out", 89, 99, false}, {"resourceType", "mq", 103, 116, false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, diags := ParseDirective(tt.text, at)
			assert.Empty(t, diags)
			assert.Equal(t, at, d.Pos)
			var got []arg
			for _, a := range d.Args {
				got = append(got, arg{a.Key, a.Value, a.KeyPos.Column, a.ValuePos.Column, a.Quoted})
				// Offsets move with columns: the directive is on one line.
				assert.Equal(t, at.Offset+a.ValuePos.Column-at.Column, a.ValuePos.Offset, a.Key)
				assert.Equal(t, at.Line, a.KeyPos.Line)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParseDirectiveColumnsMatchSource(t *testing.T) {
	// Each value's column, counted from the directive's own column, must
	// land on the value's first byte in the text.
	text := `//sentinel:resource   name="x y"  fallback=handlers.Fallback ignore=ErrA,*B`
	pos := token.Position{Filename: "f.go", Line: 3, Column: 2, Offset: 40}
	d, diags := ParseDirective(text, pos)
	assert.Empty(t, diags)
	for _, a := range d.Args {
		i := a.ValuePos.Column - pos.Column
		assert.True(t, strings.HasPrefix(text[i:], map[bool]string{true: `"`, false: a.Value}[a.Quoted]), "%s at %d", a.Key, i)
		assert.Equal(t, a.Key, text[a.KeyPos.Column-pos.Column:][:len(a.Key)])
	}
}

func TestParseDirectiveErrors(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string // "col: message prefix"
		keep []string // keys that survive
	}{
		{"unknown key with suggestion", "//sentinel:resource fallbak=f",
			[]string{`21: unknown key "fallbak"; did you mean fallback?`}, nil},
		{"java key", "//sentinel:resource exceptionsToTrace=E",
			[]string{`21: unknown key "exceptionsToTrace"; the Java attribute exceptionsToTrace is spelt trace here`}, nil},
		{"unknown key without suggestion", "//sentinel:resource zzz=1 name=a",
			[]string{`21: unknown key "zzz"`}, []string{"name"}},
		{"duplicate key keeps the first", "//sentinel:resource name=a name=b",
			[]string{"28: duplicate key name"}, []string{"name"}},
		{"missing value", "//sentinel:resource name= fallback=f",
			[]string{"26: missing value for name"}, []string{"fallback"}},
		{"missing value at end", "//sentinel:resource name=",
			[]string{"26: missing value for name"}, nil},
		{"empty quoted value", `//sentinel:resource name=""`,
			[]string{"26: missing value for name"}, nil},
		{"key without =", "//sentinel:resource name",
			[]string{`21: malformed argument "name": want key=value`}, nil},
		{"= without key", "//sentinel:resource =x name=a",
			[]string{`21: malformed argument "=x": want key=value`}, []string{"name"}},
		{"bad key byte", "//sentinel:resource na-me=x",
			[]string{`23: malformed argument "na-me=x": a key is letters and digits followed by '='`}, nil},
		{"unquoted =", "//sentinel:resource name=a=b entryType=in",
			[]string{"27: malformed value for name: a value containing '=' must be quoted"}, []string{"entryType"}},
		{"partly quoted", `//sentinel:resource name=a"b"`,
			[]string{"27: malformed value for name: quote the whole value, not a part of it"}, nil},
		{"unterminated quote", `//sentinel:resource name="abc fallback=f`,
			[]string{"26: unterminated quoted value for name"}, nil},
		{"escaped quote does not end", `//sentinel:resource name="ab\"`,
			[]string{"26: unterminated quoted value for name"}, nil},
		{"invalid escape", `//sentinel:resource name="a\qb"`,
			[]string{"26: malformed quoted value for name: not a valid Go string"}, nil},
		{"text after quote", `//sentinel:resource name="a"b`,
			[]string{"29: malformed value for name: want a blank after the closing quote"}, nil},
		{"bad entryType", "//sentinel:resource entryType=inbound",
			[]string{`31: malformed value for entryType: want in or out, have "inbound"`}, nil},
		{"bad resourceType", "//sentinel:resource resourceType=http",
			[]string{"34: malformed value for resourceType: want one of common"}, nil},
		{"bad handler", "//sentinel:resource blockHandler=a.b.c",
			[]string{"34: malformed value for blockHandler: want a name (handler) or a qualified name (pkg.Handler)"}, nil},
		{"keyword handler", "//sentinel:resource fallback=func",
			[]string{"30: malformed value for fallback"}, nil},
		{"list entries", "//sentinel:resource ignore=A,,**B,c.d.e",
			[]string{"30: malformed value for ignore: empty entry in the list",
				`31: malformed entry "**B" in ignore`, `35: malformed entry "c.d.e" in ignore`}, nil},
		{"name with blanks around", `//sentinel:resource name=" a"`,
			[]string{"26: malformed value for name: a resource name may not start or end with blanks"}, nil},
		{"not the directive", "//sentinel:resources name=a",
			[]string{"1: not a //sentinel:resource directive"}, nil},
		{"all problems reported", "//sentinel:resource a=1 b=2 name",
			[]string{`21: unknown key "a"`, `25: unknown key "b"`, `29: malformed argument "name"`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, diags := ParseDirective(tt.text, at)
			if assert.Len(t, diags, len(tt.want)) {
				for i, w := range tt.want {
					col, msg, _ := strings.Cut(w, ": ")
					assert.Equal(t, col, itoa(diags[i].Pos.Column), "diagnostic %d: %s", i, diags[i].Message)
					assert.True(t, strings.HasPrefix(diags[i].Message, msg), "diagnostic %d: have %q, want prefix %q", i, diags[i].Message, msg)
				}
			}
			var keys []string
			for _, a := range d.Args {
				keys = append(keys, a.Key)
			}
			assert.Equal(t, tt.keep, keys)
		})
	}
}

func TestDuplicateKeyRelated(t *testing.T) {
	_, diags := ParseDirective("//sentinel:resource fallback=a fallback=b", at)
	if assert.Len(t, diags, 1) && assert.Len(t, diags[0].Related, 1) {
		assert.Equal(t, 21, diags[0].Related[0].Pos.Column)
		assert.Equal(t, 32, diags[0].Pos.Column)
	}
}

func TestArgItems(t *testing.T) {
	tests := []struct {
		text string
		want []string // "col:text"
	}{
		{"//sentinel:resource ignore=A,*b.C,D", []string{"28:A", "30:*b.C", "35:D"}},
		{`//sentinel:resource ignore="A, B ,C"`, []string{"29:A", "32:B", "35:C"}},
		// With escapes, exact columns are unknown: entries point at the value.
		{`//sentinel:resource trace="A,\u0042"`, []string{"27:A", "27:B"}},
	}
	for _, tt := range tests {
		d, diags := ParseDirective(tt.text, at)
		assert.Empty(t, diags)
		var got []string
		for _, it := range d.Args[0].Items() {
			got = append(got, itoa(it.Pos.Column)+":"+it.Text)
		}
		assert.Equal(t, tt.want, got, tt.text)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
