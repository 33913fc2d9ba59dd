package annotate

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sentinelgen/sentinelgen/annotate/internal/loader"
)

// scanned is what the files of one package directory say beyond the files
// one load type-checks.
type scanned struct {
	// constrained are the distinct build constraints of the package's
	// non-test files that hold a directive, by their String.
	constrained map[string]constrainedFile
	// diags report directives no build will generate: in test files, or
	// in files no platform includes.
	diags []Diagnostic
}

// constrainedFile is one build constraint and the first directive under it.
type constrainedFile struct {
	expr constraint.Expr
	at   token.Position // the first directive of a file with that constraint
}

// scanDir reads every Go file of p's directory: the loaded ones, for
// their constraints, and the others (test files, files of other
// platforms), which are parsed for their comments alone. A directive in a
// test file is reported: sentinelgen reads the package without its tests,
// so that guard would silently not exist.
func scanDir(p *loader.Package) scanned {
	s := scanned{constrained: map[string]constrainedFile{}}
	loaded := map[string]bool{}
	dir := p.Dir
	for _, f := range p.Files {
		name := p.Fset.Position(f.Package).Filename
		loaded[filepath.Base(name)] = true
		dir = filepath.Dir(name)
		if IsGeneratedFile(filepath.Base(name)) {
			continue
		}
		s.note(p.Fset, f)
	}
	if dir == "" {
		return s
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return s
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || loaded[name] || IsGeneratedFile(name) ||
			strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".") {
			continue
		}
		path := filepath.Join(dir, name)
		src, err := os.ReadFile(path)
		if err != nil || !bytes.Contains(bytes.ToLower(src), []byte("sentinel")) {
			continue // no directive can be in it
		}
		f, err := parser.ParseFile(fset, path, src, parser.ParseComments|parser.SkipObjectResolution)
		if f == nil || err != nil && f.Package == token.NoPos {
			continue
		}
		if strings.HasSuffix(name, "_test.go") {
			for _, at := range directives(fset, f) {
				s.diags = append(s.diags, testFileDiagnostic(at))
			}
			continue
		}
		s.note(fset, f)
	}
	return s
}

// note records f's constraint when f holds a directive (or a near miss,
// which the load for its platforms reports).
func (s *scanned) note(fset *token.FileSet, f *ast.File) {
	x := fileConstraint(fset, f)
	if x == nil {
		return
	}
	at := directives(fset, f)
	if len(at) == 0 {
		return
	}
	key := x.String()
	if prev, ok := s.constrained[key]; !ok || positionLess(at[0], prev.at) {
		s.constrained[key] = constrainedFile{expr: x, at: at[0]}
	}
}

// directives returns the positions of a file's comments that are a
// directive or a near miss of one.
func directives(fset *token.FileSet, f *ast.File) []token.Position {
	var out []token.Position
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if strings.HasPrefix(c.Text, DirectivePrefix) || nearMiss(c.Text) != "" {
				out = append(out, fset.Position(c.Slash))
			}
		}
	}
	return out
}

func positionLess(a, b token.Position) bool {
	return a.Filename < b.Filename || a.Filename == b.Filename && a.Offset < b.Offset
}

// sortedConstraints returns the constraints in a stable order.
func (s *scanned) sortedConstraints() []constrainedFile {
	keys := make([]string, 0, len(s.constrained))
	for k := range s.constrained {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]constrainedFile, len(keys))
	for i, k := range keys {
		out[i] = s.constrained[k]
	}
	return out
}

// testFileDiagnostic reports a directive (or near miss) in a _test.go file:
// the generator's and the Analyzer's message.
func testFileDiagnostic(at token.Position) Diagnostic {
	return newDiagnostic(at, "%s in a test file: sentinelgen generates only from a package's non-test files, so this would guard nothing; move the function to a non-test file or remove the directive", ResourceDirective)
}

// unbuiltFileDiagnostic reports a directive in a file whose build
// constraint x no configuration satisfies.
func unbuiltFileDiagnostic(at token.Position, x fmt.Stringer) Diagnostic {
	return newDiagnostic(at, "%s in a file no build includes (//go:build %s); nothing would be generated for it: change the constraint or remove the directive", ResourceDirective, x)
}
