package doclinks

import (
	"fmt"
	"go/ast"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"

	"github.com/sentinelgen/sentinelgen/internal/astutil"
)

// modulePath is the import path prefix of every module in this repository;
// a package's directory is its import path with the prefix taken off.
const modulePath = "github.com/sentinelgen/sentinelgen"

// pkgGoDev is how documentation links to a package's reference text.
const pkgGoDev = "https://pkg.go.dev/"

// A goPackage is what a pkg.go.dev link into a package can point at.
type goPackage struct {
	ids     map[string]bool // Name, Type.Method, Type.Field
	headers map[string]bool // hdr-... anchors of the package comment
}

// loadPackage reads the non-test Go files of dir (whatever their build
// constraints) and collects the anchors pkg.go.dev gives their package.
func loadPackage(dir string) (*goPackage, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	p := &goPackage{ids: map[string]bool{}, headers: map[string]bool{}}
	fset := token.NewFileSet()
	found := false
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		found = true
		if f.Doc != nil {
			var cp comment.Parser
			for _, b := range cp.Parse(f.Doc.Text()).Content {
				if h, ok := b.(*comment.Heading); ok {
					p.headers[h.DefaultID()] = true
				}
			}
		}
		for _, d := range f.Decls {
			p.addDecl(d)
		}
	}
	if !found {
		return nil, fmt.Errorf("%s holds no Go package", dir)
	}
	return p, nil
}

func (p *goPackage) addDecl(d ast.Decl) {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil || len(d.Recv.List) == 0 {
			p.ids[d.Name.Name] = true
			return
		}
		if recv := astutil.RecvTypeName(d.Recv); recv != "" {
			p.ids[recv+"."+d.Name.Name] = true
		}
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				p.ids[s.Name.Name] = true
				if st, ok := s.Type.(*ast.StructType); ok {
					for _, f := range st.Fields.List {
						for _, n := range f.Names {
							p.ids[s.Name.Name+"."+n.Name] = true
						}
					}
				}
			case *ast.ValueSpec:
				for _, n := range s.Names {
					p.ids[n.Name] = true
				}
			}
		}
	}
}

// checkGoDev checks a pkg.go.dev link: when it points into this repository,
// the package must exist under root and the fragment, if any, must name one
// of its identifiers or doc-comment headings. Links to other modules are
// not checked. pkgs caches the packages read so far.
func checkGoDev(root, target string, pkgs map[string]*goPackage) error {
	rest, ok := strings.CutPrefix(target, pkgGoDev)
	if !ok {
		return nil
	}
	rest, frag, _ := strings.Cut(rest, "#")
	rest, _, _ = strings.Cut(rest, "?")
	rest, _, _ = strings.Cut(rest, "@") // a version
	if rest != modulePath && !strings.HasPrefix(rest, modulePath+"/") {
		return nil
	}
	rel := strings.TrimPrefix(strings.TrimPrefix(rest, modulePath), "/")
	dir := filepath.Join(root, filepath.FromSlash(rel))
	p, ok := pkgs[dir]
	if !ok {
		var err error
		if p, err = loadPackage(dir); err != nil {
			return fmt.Errorf("package %s: %v", rest, err)
		}
		pkgs[dir] = p
	}
	switch {
	case frag == "":
	case strings.HasPrefix(frag, "hdr-"):
		if !p.headers[frag] {
			return fmt.Errorf("package %s has no doc-comment section %s", rest, frag)
		}
	case !p.ids[frag]:
		return fmt.Errorf("package %s declares no %s", rest, frag)
	}
	return nil
}
