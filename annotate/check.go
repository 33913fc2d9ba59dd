package annotate

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// CheckOptions is what Check needs besides the package itself.
type CheckOptions struct {
	// TypeErrors are the errors type-checking the package reported (as a
	// go/analysis pass holds them in TypeErrors). They are reported as
	// diagnostics, except "undefined" errors for the names the generated
	// file will declare (GuardedT, NewGuardedT, GuardedF, ...), which
	// stand while that file is being replaced.
	TypeErrors []types.Error
	// Generated returns the names generation will declare in the package
	// with the given import path, so that "undefined: q.GuardedT" is
	// tolerated too where q is another package being generated; nil
	// tolerates only the package's own names.
	Generated func(pkgPath string) map[string]bool
}

// Check runs every directive check on one type-checked package and returns
// its model, or nil and the diagnostics (positioned at the offending
// directive key or value) when there is any problem. It is what Load runs
// on every package it loads, and it takes exactly what a go/analysis pass
// provides. info must hold Defs and Scopes (and preferably Implicits), as
// go/packages with NeedTypesInfo and go/analysis passes provide. files are
// the package's syntax trees; a file named GeneratedFileName among them is
// skipped, and what it declares counts neither as a handler nor as a name
// collision, so Check gives the same answer with or without the previous
// output in place (as a go/analysis pass sees it).
//
// Resource names are judged within the package; Load also judges them
// across the packages it loads.
func Check(fset *token.FileSet, files []*ast.File, pkg *types.Package, info *types.Info, opts CheckOptions) (*Package, []Diagnostic) {
	r := checkPackage(fset, files, pkg, info, opts)
	if len(r.diags) > 0 {
		return nil, r.diags
	}
	return r.model, nil
}

// checkResult is what checkPackage learns about one package: the model
// (complete only when diags is empty), the diagnostics, and where each
// resource's name is given (its name value, or the directive when the name
// is the default), for Load to judge names across packages.
type checkResult struct {
	model   *Package
	diags   []Diagnostic
	namePos map[*Resource]token.Position
}

// annotated is a function declaration carrying a directive.
type annotated struct {
	decl *ast.FuncDecl
	file *ast.File
	dir  *Directive
}

// checker holds the state of one checkPackage call.
type checker struct {
	fset  *token.FileSet
	files []*ast.File // the package's syntax, where a handler's declaration is found for a fix
	pkg   *types.Package
	info  *types.Info
	diags []Diagnostic
	// emitted holds the package-level names gen will declare, derived from
	// the directives' syntax alone so that it is known even when checks fail.
	emitted map[string]bool
	namePos map[*Resource]token.Position
	// quals maps a file name to the import names its directives qualify
	// values with, each with one value that does, for the hint on an
	// import that only directives use.
	quals map[string]map[string]string
}

func checkPackage(fset *token.FileSet, files []*ast.File, pkg *types.Package, info *types.Info, opts CheckOptions) checkResult {
	c := &checker{
		fset:    fset,
		files:   files,
		pkg:     pkg,
		info:    info,
		emitted: generatedNames(fset, files),
		namePos: map[*Resource]token.Position{},
		quals:   map[string]map[string]string{},
	}
	model := &Package{Path: pkg.Path(), Name: pkg.Name(), File: GeneratedFileName, Types: pkg, Reserved: map[string]bool{}}
	var found []annotated
	for _, f := range files {
		name := fset.Position(f.Package).Filename
		if model.Dir == "" {
			model.Dir = filepath.Dir(name)
		}
		if IsGeneratedFile(filepath.Base(name)) {
			continue
		}
		found = append(found, c.collect(f)...)
		c.reserveImports(f, model.Reserved)
		model.Registrations = append(model.Registrations, registrations(fset, f, packageStringConst(pkg))...)
	}
	for _, name := range pkg.Scope().Names() {
		if c.isUserObject(pkg.Scope().Lookup(name)) {
			model.Reserved[name] = true
		}
	}
	slices.SortFunc(found, func(a, b annotated) int {
		pa, pb := fset.Position(a.decl.Pos()), fset.Position(b.decl.Pos())
		return cmp.Or(cmp.Compare(pa.Filename, pb.Filename), cmp.Compare(pa.Offset, pb.Offset))
	})
	for _, a := range found {
		if r := c.resource(a); r != nil {
			model.Resources = append(model.Resources, r)
		}
	}
	model.Wrappers = c.wrappers(model.Resources)
	c.checkCollisions(model, files)
	c.checkDuplicateNames(model.Resources)
	c.typeErrors(opts.TypeErrors, files, opts.Generated)
	sortDiagnostics(c.diags)
	return checkResult{model: model, diags: c.diags, namePos: c.namePos}
}

func (c *checker) report(pos token.Position, format string, args ...any) *Diagnostic {
	c.diags = append(c.diags, newDiagnostic(pos, format, args...))
	return &c.diags[len(c.diags)-1]
}

func (c *checker) position(p token.Pos) token.Position { return c.fset.Position(p) }

// isUserObject reports whether obj is declared by the user's code, that is,
// not in a previously generated file.
func (c *checker) isUserObject(obj types.Object) bool {
	if obj == nil {
		return false
	}
	return !IsGeneratedFile(filepath.Base(c.position(obj.Pos()).Filename))
}

// qualifier writes types of this package unqualified and others with their
// package name, as the user would write them in this package.
func (c *checker) qualifier(p *types.Package) string {
	if p == c.pkg {
		return ""
	}
	return p.Name()
}

// reserveImports adds the names a file gives its imports.
func (c *checker) reserveImports(f *ast.File, reserved map[string]bool) {
	for _, spec := range f.Imports {
		if name := c.importName(spec); name != "" && name != "_" && name != "." {
			reserved[name] = true
		}
	}
}

// importName is the name an import declares in its file: its explicit
// name, or the imported package's own name.
func (c *checker) importName(spec *ast.ImportSpec) string {
	if spec.Name != nil {
		return spec.Name.Name
	}
	if pn := c.info.PkgNameOf(spec); pn != nil {
		return pn.Name()
	}
	path, err := strconv.Unquote(spec.Path.Value)
	if err != nil {
		return ""
	}
	for _, imp := range c.pkg.Imports() {
		if imp.Path() == path {
			return imp.Name()
		}
	}
	return ""
}

// collect finds the directives of one file: those in the doc comment of a
// function declaration are returned, every other one is reported.
func (c *checker) collect(f *ast.File) []annotated {
	funcDocs := map[*ast.CommentGroup]*ast.FuncDecl{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Doc != nil {
			funcDocs[fd.Doc] = fd
		}
	}
	var misplacedDocs map[*ast.CommentGroup]string // built on first need
	var out []annotated
	for _, cg := range f.Comments {
		var first *ast.Comment
		for _, cm := range cg.List {
			pos := c.position(cm.Slash)
			if msg := nearMiss(cm.Text); msg != "" {
				if funcDocs[cg] == nil {
					msg += ", in the doc comment of a func (directly above the func line)"
				}
				c.report(pos, "%s", msg)
				continue
			}
			if !strings.HasPrefix(cm.Text, DirectivePrefix) {
				continue
			}
			if word := directiveWord(cm.Text); word != "resource" {
				c.report(pos, "unknown directive %s%s%s", DirectivePrefix, word, didYouMean(word, []string{"resource"}))
				continue
			}
			fd := funcDocs[cg]
			if fd == nil {
				if misplacedDocs == nil {
					misplacedDocs = docOwners(f)
				}
				c.misplaced(pos, misplacedDocs[cg])
				continue
			}
			if first != nil {
				c.report(pos, "more than one %s on %s; merge them into one", ResourceDirective, fd.Name.Name).Related =
					[]RelatedInfo{{Pos: c.position(first.Slash), Message: "first " + ResourceDirective + " here"}}
				continue
			}
			first = cm
			d, diags := ParseDirective(cm.Text, pos)
			c.diags = append(c.diags, diags...)
			c.noteQualifiers(d)
			out = append(out, annotated{decl: fd, file: f, dir: d})
		}
	}
	return out
}

// noteQualifiers records the import names a directive's values use.
func (c *checker) noteQualifiers(d *Directive) {
	note := func(value string) {
		if qual, _, ok := strings.Cut(strings.TrimPrefix(value, "*"), "."); ok {
			m := c.quals[d.Pos.Filename]
			if m == nil {
				m = map[string]string{}
				c.quals[d.Pos.Filename] = m
			}
			if _, seen := m[qual]; !seen {
				m[qual] = strings.TrimPrefix(value, "*")
			}
		}
	}
	for _, a := range d.Args {
		switch a.Key {
		case KeyBlockHandler, KeyFallback, KeyDefaultFallback:
			note(a.Value)
		case KeyIgnore, KeyTrace:
			for _, it := range a.Items() {
				note(it.Text)
			}
		}
	}
}

// directiveWord returns the word after "//sentinel:".
func directiveWord(text string) string {
	w := text[len(DirectivePrefix):]
	if i := strings.IndexAny(w, " \t"); i >= 0 {
		w = w[:i]
	}
	return w
}

func (c *checker) misplaced(pos token.Position, owner string) {
	if owner == "" {
		c.report(pos, "%s is not in the doc comment of a function or method; put it directly above the func line, with no blank line between", ResourceDirective)
		return
	}
	c.report(pos, "%s on %s; it applies only to functions and methods", ResourceDirective, owner)
}

// docOwners describes what each non-function doc comment of f belongs to.
func docOwners(f *ast.File) map[*ast.CommentGroup]string {
	owners := map[*ast.CommentGroup]string{}
	if f.Doc != nil {
		owners[f.Doc] = "the package clause"
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GenDecl:
			if n.Doc != nil {
				owners[n.Doc] = genDeclOwner(n)
			}
		case *ast.TypeSpec:
			if n.Doc != nil {
				owners[n.Doc] = "type " + n.Name.Name
			}
		case *ast.ValueSpec:
			if n.Doc != nil {
				owners[n.Doc] = "a var or const declaration"
			}
		case *ast.ImportSpec:
			if n.Doc != nil {
				owners[n.Doc] = "an import"
			}
		case *ast.InterfaceType:
			for _, m := range n.Methods.List {
				if m.Doc != nil {
					owners[m.Doc] = "an interface method"
				}
			}
			return false
		case *ast.StructType:
			for _, fl := range n.Fields.List {
				if fl.Doc != nil {
					owners[fl.Doc] = "a struct field"
				}
			}
			return true
		}
		return true
	})
	return owners
}

// genDeclOwner names a declaration by its single spec when it has one.
func genDeclOwner(d *ast.GenDecl) string {
	if !d.Lparen.IsValid() && len(d.Specs) == 1 {
		switch s := d.Specs[0].(type) {
		case *ast.TypeSpec:
			return "type " + s.Name.Name
		case *ast.ValueSpec:
			return d.Tok.String() + " " + s.Names[0].Name
		}
	}
	switch d.Tok {
	case token.TYPE:
		return "a type declaration"
	case token.VAR:
		return "a var declaration"
	case token.CONST:
		return "a const declaration"
	case token.IMPORT:
		return "an import declaration"
	}
	return "a declaration"
}
