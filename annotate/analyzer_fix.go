package annotate

import (
	"bytes"
	"go/ast"
	"go/printer"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/sentinelgen/sentinelgen/internal/suggest"
)

// Fix is one way to resolve a Diagnostic: a message for the user and the
// edits that make it.
type Fix struct {
	Message string
	Edits   []TextEdit
}

// TextEdit replaces the text from Pos to End (equal for an insertion) with
// NewText. Both positions carry the file name and the byte offset.
type TextEdit struct {
	Pos, End token.Position
	NewText  string
}

// renameFixes offers to replace a misspelt handler name with the closest
// candidate; prefix is what stays in front of it ("pkg." or "").
func renameFixes(arg Arg, prefix, name string, candidates []string) []Fix {
	best := suggest.Closest(name, candidates)
	if best == "" {
		return nil
	}
	return []Fix{{
		Message: "Replace " + arg.Value + " with " + prefix + best,
		Edits:   []TextEdit{valueEdit(arg, prefix+best)},
	}}
}

// valueEdit replaces a directive value as written (quotes included).
func valueEdit(arg Arg, text string) TextEdit {
	written := arg.raw
	if written == "" {
		written = arg.Value
		if arg.Quoted {
			written = strconv.Quote(arg.Value)
		}
	}
	if arg.Quoted {
		text = strconv.Quote(text)
	}
	end := arg.ValuePos
	end.Offset += len(written)
	end.Column += len(written)
	return TextEdit{Pos: arg.ValuePos, End: end, NewText: text}
}

// missingHandlerFixes answers a handler that is not found: the closest
// existing name when there is one, otherwise a stub with the exact signature
// inserted after the annotated declaration.
func (c *checker) missingHandlerFixes(role HandlerRole, arg Arg, name string, candidates []string, site handlerSite) []Fix {
	if fixes := renameFixes(arg, "", name, candidates); fixes != nil {
		return fixes
	}
	if site.decl == nil || site.decl.Type.TypeParams != nil || !token.IsIdentifier(name) {
		return nil
	}
	fw := c.fileWriter(site.file)
	var b strings.Builder
	b.WriteString("\n\n// ")
	b.WriteString(name + " is the " + roleKeys[role] + " of " + site.fn.Name + ".\nfunc ")
	if recv := site.decl.Recv; recv != nil && len(recv.List) == 1 {
		b.WriteString("(")
		if names := recv.List[0].Names; len(names) == 1 {
			b.WriteString(names[0].Name + " ")
		}
		b.WriteString(c.nodeText(recv.List[0].Type) + ") ")
	}
	b.WriteString(name + "(")
	var params []string
	if role != RoleDefaultFallback {
		for _, p := range site.fn.Params {
			n := p.Name
			if n == "" {
				n = "_"
			}
			params = append(params, n+" "+fw.typeText(p.Type))
		}
	}
	errName := "err"
	if role == RoleBlockHandler {
		errName = uniqueParam("blockErr", site.fn.Params)
		params = append(params, errName+" *"+fw.runtimeName()+".BlockError")
	} else {
		errName = uniqueParam("err", site.fn.Params)
		if role == RoleDefaultFallback {
			errName = "err"
		}
		params = append(params, errName+" error")
	}
	b.WriteString(strings.Join(params, ", ") + ") ")
	b.WriteString(fw.resultsText(site.sig.Results()))
	b.WriteString(" {\n\treturn ")
	var zeros []string
	for v := range site.sig.Results().Variables() {
		if types.Identical(v.Type(), errorType) {
			zeros = append(zeros, errName)
		} else {
			zeros = append(zeros, fw.zeroText(v.Type()))
		}
	}
	b.WriteString(strings.Join(zeros, ", ") + "\n}")
	at := c.position(site.decl.End())
	edits := append(fw.importEdits(), TextEdit{Pos: at, End: at, NewText: b.String()})
	return []Fix{{Message: "Add " + roleKeys[role] + " " + name + " after " + site.fn.Name, Edits: edits}}
}

// uniqueParam returns name, or name with a digit when a parameter of the
// annotated function already has it.
func uniqueParam(name string, params []Var) string {
	for i := 0; ; i++ {
		n := name
		if i > 0 {
			n += strconv.Itoa(i + 1)
		}
		taken := false
		for _, p := range params {
			taken = taken || p.Name == n
		}
		if !taken {
			return n
		}
	}
}

// signatureFixes rewrites a handler's parameters and results when its
// leading parameters already match the annotated function's, so only the
// trailing parameter or the results differ. The handler keeps its own
// parameter names; the body is the user's to adapt.
func (c *checker) signatureFixes(role HandlerRole, h *Handler, site handlerSite) []Fix {
	if h.Kind == HandlerFunc && h.PkgPath != c.pkg.Path() {
		return nil // another package's function is not ours to edit
	}
	sig := h.Type
	if sig.Variadic() || sig.TypeParams() != nil || site.sig.TypeParams() != nil {
		return nil
	}
	var base []Var
	if role != RoleDefaultFallback {
		base = site.fn.Params
	}
	n := len(base)
	params := sig.Params()
	if params.Len() != n && params.Len() != n+1 {
		return nil
	}
	for i := range n {
		if !types.Identical(params.At(i).Type(), base[i].Type) {
			return nil
		}
	}
	decl, file := c.funcDeclAt(h.DeclPos)
	if decl == nil {
		return nil
	}
	fw := c.fileWriter(file)
	named := params.Len() > 0 && params.At(0).Name() != "" || params.Len() == 0 && (n == 0 || base[0].Name != "")
	var parts []string
	param := func(name, typ string) {
		if !named {
			parts = append(parts, typ)
			return
		}
		if name == "" {
			name = "_"
		}
		parts = append(parts, name+" "+typ)
	}
	for i := range n {
		param(params.At(i).Name(), fw.typeText(params.At(i).Type()))
	}
	trailing := func(def string) string {
		if params.Len() == n+1 && params.At(n).Name() != "" {
			return params.At(n).Name()
		}
		return def
	}
	switch {
	case role == RoleBlockHandler:
		param(trailing("blockErr"), "*"+fw.runtimeName()+".BlockError")
	case params.Len() == n+1:
		param(trailing("err"), "error")
	}
	text := "(" + strings.Join(parts, ", ") + ")"
	if res := fw.resultsText(site.sig.Results()); res != "" {
		text += " " + res
	}
	edits := append(fw.importEdits(), TextEdit{
		Pos:     c.position(decl.Type.Params.Pos()),
		End:     c.position(decl.Type.End()),
		NewText: text,
	})
	return []Fix{{Message: "Change the signature of " + h.Name + " to what " + roleKeys[role] + " of " + site.fn.Name + " needs", Edits: edits}}
}

// funcDeclAt finds the function declaration whose name is at pos, in the
// user's files (never the generated one).
func (c *checker) funcDeclAt(pos token.Position) (*ast.FuncDecl, *ast.File) {
	for _, f := range c.files {
		if c.position(f.Package).Filename != pos.Filename || baseName(pos.Filename) == GeneratedFileName {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && c.position(fd.Name.Pos()).Offset == pos.Offset {
				return fd, f
			}
		}
	}
	return nil, nil
}

// nodeText prints a syntax node as the source has it.
func (c *checker) nodeText(n ast.Node) string {
	var buf bytes.Buffer
	if err := printer.Fprint(&buf, c.fset, n); err != nil {
		return ""
	}
	return buf.String()
}

// fileWriter writes types as one file spells them: with the names the
// file gives its imports, adding the runtime import when a fix needs it.
type fileWriter struct {
	c        *checker
	file     *ast.File
	names    map[string]string // import path -> name in the file
	taken    map[string]bool   // names the file's imports use
	needsRT  bool
	rtAsName string
}

func (c *checker) fileWriter(f *ast.File) *fileWriter {
	fw := &fileWriter{c: c, file: f, names: map[string]string{}, taken: map[string]bool{}}
	for _, spec := range f.Imports {
		path, err := strconv.Unquote(spec.Path.Value)
		name := c.importName(spec)
		if err != nil || name == "" || name == "_" || name == "." {
			continue
		}
		fw.names[path] = name
		fw.taken[name] = true
	}
	return fw
}

func (fw *fileWriter) qualifier(p *types.Package) string {
	if p == fw.c.pkg {
		return ""
	}
	if n, ok := fw.names[p.Path()]; ok {
		return n
	}
	if p.Path() == RuntimePath {
		return fw.runtimeName()
	}
	return p.Name()
}

func (fw *fileWriter) typeText(t types.Type) string { return types.TypeString(t, fw.qualifier) }

// runtimeName is the file's name for the runtime package, which an import
// edit adds when the file does not import it yet.
func (fw *fileWriter) runtimeName() string {
	if n, ok := fw.names[RuntimePath]; ok {
		return n
	}
	if !fw.needsRT {
		fw.needsRT = true
		fw.rtAsName = "runtime"
		if fw.taken["runtime"] {
			fw.rtAsName = "sentinelruntime"
		}
	}
	return fw.rtAsName
}

// importEdits adds the runtime import when a written type needed it: into
// the file's last parenthesised import declaration, into a block made of
// a single import "x", or after the package clause. Two fixes of one file
// make identical edits, which drivers merge.
func (fw *fileWriter) importEdits() []TextEdit {
	if !fw.needsRT {
		return nil
	}
	spec := strconv.Quote(RuntimePath)
	if fw.rtAsName != "runtime" {
		spec = fw.rtAsName + " " + spec
	}
	var last *ast.GenDecl
	for _, d := range fw.file.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			last = gd
		}
	}
	switch {
	case last != nil && last.Rparen.IsValid():
		at := fw.c.position(last.Rparen)
		return []TextEdit{{Pos: at, End: at, NewText: "\t" + spec + "\n"}}
	case last != nil && len(last.Specs) == 1:
		// import "x" becomes a block holding both.
		return []TextEdit{{
			Pos:     fw.c.position(last.Pos()),
			End:     fw.c.position(last.End()),
			NewText: "import (\n\t" + fw.c.nodeText(last.Specs[0]) + "\n\t" + spec + "\n)",
		}}
	case last != nil:
		at := fw.c.position(last.End())
		return []TextEdit{{Pos: at, End: at, NewText: "\nimport " + spec}}
	}
	at := fw.c.position(fw.file.Name.End())
	return []TextEdit{{Pos: at, End: at, NewText: "\n\nimport " + spec}}
}

// resultsText writes a result list without names: "", "T" or "(T, U)".
func (fw *fileWriter) resultsText(res *types.Tuple) string {
	var parts []string
	for v := range res.Variables() {
		parts = append(parts, fw.typeText(v.Type()))
	}
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// zeroText writes the zero value of t as an expression.
func (fw *fileWriter) zeroText(t types.Type) string {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return "false"
		case u.Info()&types.IsString != 0:
			return `""`
		case u.Info()&types.IsNumeric != 0:
			return "0"
		}
		return "nil"
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		if _, isParam := types.Unalias(t).(*types.TypeParam); isParam {
			return "*new(" + fw.typeText(t) + ")"
		}
		return "nil"
	case *types.Struct, *types.Array:
		return fw.typeText(t) + "{}"
	}
	return "*new(" + fw.typeText(t) + ")"
}
