package lint

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/sentinelgen/sentinelgen/annotate"
	"github.com/sentinelgen/sentinelgen/internal/astutil"
)

// undeclaredNames returns the resource names the directives of the
// packages that did not check would declare: those with a diagnostic in
// code. Such a package declares nothing until it is fixed, yet its rules
// are not for unknown resources: reporting each of them as unknown would
// bury the one directive error that is the cause under one error per rule.
//
// annotate keeps no model of a package that does not check, so the
// directives are read here again, from the non-test Go files of each such
// directory (build constraints aside: a name from a file of another
// platform is no unknown resource either). A name is the directive's name
// value or, without one, the default <import path>.[<Type>.]<Func>; a
// directive too broken to give either is left out, and its rules are
// reported as unknown, with the cause named.
func undeclaredNames(code []annotate.Diagnostic) map[string]bool {
	names := map[string]bool{}
	dirs := map[string]bool{}
	for _, d := range code {
		if filepath.IsAbs(d.Pos.Filename) {
			dirs[filepath.Dir(d.Pos.Filename)] = true
		}
	}
	for dir := range dirs {
		pkgPath := importPath(dir)
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue // the code's diagnostics already say what is wrong
		}
		fset := token.NewFileSet()
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || name == annotate.GeneratedFileName {
				continue
			}
			// A file with a syntax error still gives the declarations
			// before the error.
			f, _ := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments|parser.SkipObjectResolution)
			if f == nil {
				continue
			}
			for _, decl := range f.Decls {
				if fn, ok := decl.(*ast.FuncDecl); ok && fn.Doc != nil {
					if n := directiveName(fset, fn, pkgPath); n != "" {
						names[n] = true
					}
				}
			}
		}
	}
	return names
}

// directiveName is the resource name fn's directive gives, "" when fn has
// none or it names nothing readable.
func directiveName(fset *token.FileSet, fn *ast.FuncDecl, pkgPath string) string {
	for _, c := range fn.Doc.List {
		rest, ok := strings.CutPrefix(c.Text, annotate.ResourceDirective)
		if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			continue
		}
		d, _ := annotate.ParseDirective(c.Text, fset.Position(c.Pos()))
		if arg, ok := d.Lookup(annotate.KeyName); ok {
			return arg.Value
		}
		if pkgPath == "" {
			return ""
		}
		if recv := astutil.RecvTypeName(fn.Recv); recv != "" {
			return pkgPath + "." + recv + "." + fn.Name.Name
		}
		return pkgPath + "." + fn.Name.Name
	}
	return ""
}

// importPath is the import path of the package in dir, from the module
// line of the go.mod above it; "" when there is none.
func importPath(dir string) string {
	for d := dir; ; {
		if mod := modulePath(filepath.Join(d, "go.mod")); mod != "" {
			rel, err := filepath.Rel(d, dir)
			if err != nil {
				return ""
			}
			return path.Join(mod, filepath.ToSlash(rel))
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// modulePath reads the module path of a go.mod file, "" when it cannot.
func modulePath(gomod string) string {
	f, err := os.Open(gomod)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			return strings.Trim(strings.TrimSpace(strings.SplitN(rest, "//", 2)[0]), `"`)
		}
	}
	return ""
}
