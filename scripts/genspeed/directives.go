package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// directiveLine is the directive added to every chosen function and
// method: no handler and the default resource name (<import
// path>.<Type>.<Method>, <import path>.<Func>), which is unique across the
// module by construction.
const directiveLine = "//sentinel:resource"

// addDirectives adds a //sentinel:resource directive to every function and
// method under dir that an existing module's users would plausibly guard, chosen by a
// mechanical rule so that the count is the same on every run:
//
//   - a method of a non-generic type, or a non-generic package-level
//     function, with a body, whose last result is an error (so that it
//     needs no handler);
//   - in a non-test file of a package other than main that is neither
//     generated nor, unless withConstrained, build-constrained (a
//     constrained directive makes sentinelgen load and check that package
//     for other platforms too, on every run: a different measurement);
//   - unless the package already declares a name the generator would add
//     for it (GuardedT and NewGuardedT, GuardedF).
//
// Directories named testdata or vendor, or starting with "." or "_", are
// skipped as the go command skips them. It returns the number of
// directives added. A file that already holds a directive is left alone,
// so running it twice adds nothing the second time.
func addDirectives(dir string, withConstrained bool) (int, error) {
	byDir := map[string][]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != dir && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			byDir[filepath.Dir(path)] = append(byDir[filepath.Dir(path)], path)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	total := 0
	for _, d := range slices.Sorted(maps.Keys(byDir)) {
		n, err := addDirectivesToPackage(byDir[d], withConstrained)
		if err != nil {
			return total, err
		}
		total += n
	}
	return total, nil
}

// addDirectivesToPackage applies addDirectives' rule to the files of one
// directory.
func addDirectivesToPackage(paths []string, withConstrained bool) (int, error) {
	fset := token.NewFileSet()
	files := make([]*ast.File, 0, len(paths))
	for _, path := range paths {
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return 0, err
		}
		files = append(files, f)
	}
	// A name the generator would declare, already declared in any file of
	// the package (constrained ones included), rules out the functions and
	// methods it would be declared for.
	declared := map[string]bool{}
	for _, f := range files {
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if decl.Recv == nil {
					declared[decl.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, spec := range decl.Specs {
					switch spec := spec.(type) {
					case *ast.TypeSpec:
						declared[spec.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range spec.Names {
							declared[n.Name] = true
						}
					}
				}
			}
		}
	}
	total := 0
	for i, f := range files {
		if f.Name.Name == "main" || ast.IsGenerated(f) || (!withConstrained && constrained(paths[i], f)) || hasDirective(f) {
			continue
		}
		var lines []int // lines of the chosen methods' func keywords
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || !chosen(fd) || slices.ContainsFunc(generatedNames(fd), func(n string) bool { return declared[n] }) {
				continue
			}
			lines = append(lines, fset.Position(fd.Type.Func).Line)
		}
		if len(lines) == 0 {
			continue
		}
		if err := insertBefore(paths[i], lines, directiveLine); err != nil {
			return total, err
		}
		total += len(lines)
	}
	return total, nil
}

// chosen applies the rule to one declaration.
func chosen(fd *ast.FuncDecl) bool {
	if fd.Type.TypeParams != nil || fd.Body == nil {
		return false // generic, or implemented elsewhere (assembly, linkname)
	}
	if fd.Recv != nil && (len(fd.Recv.List) != 1 || receiverName(fd) == "") {
		return false
	}
	results := fd.Type.Results
	if results == nil || len(results.List) == 0 {
		return false
	}
	last, ok := results.List[len(results.List)-1].Type.(*ast.Ident)
	return ok && last.Name == "error"
}

// generatedNames are the names sentinelgen declares for fd's resource: the
// guarded type and its constructor for a method, the guarded function for
// a function.
func generatedNames(fd *ast.FuncDecl) []string {
	name := fd.Name.Name
	if fd.Recv != nil {
		name = receiverName(fd)
	}
	guarded := "guarded" + upperFirst(name)
	if ast.IsExported(name) {
		guarded = "Guarded" + name
	}
	if fd.Recv == nil {
		return []string{guarded}
	}
	return []string{guarded, "new" + upperFirst(guarded)}
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// receiverName is the name of a method's receiver type, or "" for a
// generic type (T[K]), which the rule leaves out.
func receiverName(fd *ast.FuncDecl) string {
	t := fd.Recv.List[0].Type
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// constrained reports whether the build includes f only on some platforms
// or tags: a //go:build line, or a _GOOS / _GOARCH suffix in its name.
func constrained(path string, f *ast.File) bool {
	for _, g := range f.Comments {
		if g.Pos() >= f.Package {
			break
		}
		for _, c := range g.List {
			if constraint.IsGoBuild(c.Text) || constraint.IsPlusBuild(c.Text) {
				return true
			}
		}
	}
	name := strings.TrimSuffix(filepath.Base(path), ".go")
	parts := strings.Split(name, "_")
	for _, p := range parts[1:] {
		if knownOS[p] || knownArch[p] {
			return true
		}
	}
	return false
}

// knownOS and knownArch are the GOOS and GOARCH values a file name suffix
// can carry (go tool dist list).
var (
	knownOS = setOf("aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios", "js", "linux",
		"netbsd", "openbsd", "plan9", "solaris", "wasip1", "windows", "zos")
	knownArch = setOf("386", "amd64", "arm", "arm64", "loong64", "mips", "mipsle", "mips64", "mips64le",
		"ppc64", "ppc64le", "riscv64", "s390x", "wasm")
)

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// hasDirective reports whether f already holds a //sentinel: comment.
func hasDirective(f *ast.File) bool {
	for _, g := range f.Comments {
		for _, c := range g.List {
			if strings.HasPrefix(c.Text, "//sentinel:") {
				return true
			}
		}
	}
	return false
}

// insertBefore rewrites path with text on a line of its own before each of
// the given (1-based) lines, indented as that line is. A line directly
// below a doc comment joins it, which is where a directive belongs.
func insertBefore(path string, lines []int, text string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	at := make(map[int]bool, len(lines))
	for _, l := range lines {
		at[l] = true
	}
	var out bytes.Buffer
	for i, line := range bytes.SplitAfter(src, []byte("\n")) {
		if at[i+1] {
			indent := line[:len(line)-len(bytes.TrimLeft(line, " \t"))]
			out.Write(indent)
			out.WriteString(text)
			out.WriteByte('\n')
		}
		out.Write(line)
	}
	if len(at) > 0 && out.Len() == len(src) {
		return fmt.Errorf("%s: no line to insert before", path)
	}
	return os.WriteFile(path, out.Bytes(), 0o644)
}
