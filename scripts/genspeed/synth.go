package main

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"text/template"
)

// synthModule is the shape of the generated test module.
type synthModule struct {
	Path     string // module path
	Packages int    // number of packages, svc/p000 ... svc/pNNN
	Methods  int    // annotated methods per package
	Repo     string // absolute directory of a copy of the sentinelgen module, for the replace directive
}

// synthPackage is what one package's templates see.
type synthPackage struct {
	Module  string
	Name    string // p007
	Parent  string // name of the imported package, "" for the root of the tree
	Methods []synthMethod
}

// synthMethod is one annotated method. Shape picks one of a few signatures
// so that the checker sees local, imported, slice and multi-result types.
type synthMethod struct {
	Exported string // Method03
	Local    string // method03
	Resource string // p007.method03
	Shape    int
}

func packageName(i int) string { return fmt.Sprintf("p%03d", i) }

// parentOf places the packages in a binary tree: package i imports package
// (i-1)/2, so imports reach about log2(n) levels deep and every package but
// the root depends on another package of the module.
func parentOf(i int) int { return (i - 1) / 2 }

// write creates the module under dir: go.mod, a go.sum copied from the repo
// (the module graph reaches the repo's dependencies) and the packages.
func (m synthModule) write(dir string) error {
	gomod := fmt.Sprintf("module %s\n\ngo 1.26.0\n\nrequire %s v0.0.0\n\nreplace %s => %s\n",
		m.Path, sentinelModule, sentinelModule, m.Repo)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		return err
	}
	sum, err := os.ReadFile(filepath.Join(m.Repo, "go.sum"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		return err
	}
	for i := range m.Packages {
		if err := m.writePackage(dir, m.pkg(i)); err != nil {
			return err
		}
	}
	return nil
}

func (m synthModule) pkg(i int) synthPackage {
	p := synthPackage{Module: m.Path, Name: packageName(i)}
	if i > 0 {
		p.Parent = packageName(parentOf(i))
	}
	for j := range m.Methods {
		p.Methods = append(p.Methods, synthMethod{
			Exported: fmt.Sprintf("Method%02d", j),
			Local:    fmt.Sprintf("method%02d", j),
			Resource: fmt.Sprintf("%s.method%02d", p.Name, j),
			Shape:    j % 3,
		})
	}
	return p
}

func (m synthModule) writePackage(root string, p synthPackage) error {
	dir := filepath.Join(root, "svc", p.Name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, tmpl := range map[string]*template.Template{"service.go": serviceTmpl, "helpers.go": helpersTmpl} {
		var buf bytes.Buffer
		if err := tmpl.Execute(&buf, p); err != nil {
			return fmt.Errorf("%s/%s: %w", p.Name, name, err)
		}
		src, err := format.Source(buf.Bytes())
		if err != nil {
			return fmt.Errorf("%s/%s: %w\n%s", p.Name, name, err, buf.Bytes())
		}
		if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// The parent's Item when there is one, else the package's own: keeps the
// templates free of a branch at every use.
func (p synthPackage) ParentItem() string {
	if p.Parent == "" {
		return "Item"
	}
	return p.Parent + ".Item"
}

// serviceTmpl is a package's annotated service: three method shapes, each
// with a blockHandler and a fallback, and an ignored not-found error.
var serviceTmpl = template.Must(template.New("service").Parse(`// Package {{.Name}} is a synthetic service for measuring sentinelgen.
package {{.Name}}

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
{{if .Parent}}
	"{{.Module}}/svc/{{.Parent}}"{{end}}
	"github.com/sentinelgen/sentinelgen/runtime"
)

// ErrNotFound reports a missing item; it is ignored by the guards.
var ErrNotFound = errors.New("{{.Name}}: not found")

// Item is the entity this service manages.
type Item struct {
	ID      string
	Parent  *{{.ParentItem}}
	Tags    []string
	Updated time.Time
}

// Service serves items, backed by its parent package's service.
type Service struct {
{{- if .Parent}}
	parent *{{.Parent}}.Service{{end}}
	items  map[string]*Item
}
{{range .Methods}}
{{if eq .Shape 0 -}}
// {{.Exported}} looks an item up by id.
//
//sentinel:resource name={{.Resource}} blockHandler={{.Local}}Blocked fallback={{.Local}}Fallback ignore=ErrNotFound
func (s *Service) {{.Exported}}(ctx context.Context, id string, limit int) (*Item, error) {
	it, ok := s.items[id]
	if !ok {
		return nil, ErrNotFound
	}
	if limit > 0 && len(it.Tags) > limit {
		return nil, fmt.Errorf("{{.Local}}: %d tags over limit %d", len(it.Tags), limit)
	}
	return it, nil
}

func (s *Service) {{.Local}}Blocked(ctx context.Context, id string, limit int, blocked *runtime.BlockError) (*Item, error) {
	return nil, blocked
}

func (s *Service) {{.Local}}Fallback(ctx context.Context, id string, limit int, err error) (*Item, error) {
	return &Item{ID: id}, nil
}
{{else if eq .Shape 1 -}}
// {{.Exported}} derives an item from one of the parent's.
//
//sentinel:resource name={{.Resource}} blockHandler={{.Local}}Blocked fallback={{.Local}}Fallback
func (s *Service) {{.Exported}}(ctx context.Context, in *{{$.ParentItem}}) (*Item, error) {
	if in == nil {
		return nil, errors.New("{{.Local}}: nil input")
	}
	return &Item{ID: strings.ToUpper(in.ID), Parent: in, Updated: time.Now()}, nil
}

func (s *Service) {{.Local}}Blocked(ctx context.Context, in *{{$.ParentItem}}, blocked *runtime.BlockError) (*Item, error) {
	return nil, blocked
}

func (s *Service) {{.Local}}Fallback(ctx context.Context, in *{{$.ParentItem}}) (*Item, error) {
	return &Item{Parent: in}, nil
}
{{else -}}
// {{.Exported}} lists the items among ids and counts the missing ones.
//
//sentinel:resource name={{.Resource}} blockHandler={{.Local}}Blocked fallback={{.Local}}Fallback
func (s *Service) {{.Exported}}(ctx context.Context, ids []string) ([]Item, int, error) {
	var out []Item
	missing := 0
	for _, id := range ids {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		if it, ok := s.items[id]; ok {
			out = append(out, *it)
		} else {
			missing++
		}
	}
	return out, missing, nil
}

func (s *Service) {{.Local}}Blocked(ctx context.Context, ids []string, blocked *runtime.BlockError) ([]Item, int, error) {
	return nil, len(ids), blocked
}

func (s *Service) {{.Local}}Fallback(ctx context.Context, ids []string, err error) ([]Item, int, error) {
	return nil, len(ids), nil
}
{{end}}{{end}}`))

// helpersTmpl is a second, unannotated file, as real packages have.
var helpersTmpl = template.Must(template.New("helpers").Parse(`package {{.Name}}

import (
	"slices"
	"strconv"
	"sync"
)

var cache sync.Map

// Key builds the cache key of an item.
func Key(it *Item, n int) string {
	return it.ID + "#" + strconv.Itoa(n)
}

// SortedTags returns the item's tags in order.
func SortedTags(it *Item) []string {
	tags := slices.Clone(it.Tags)
	slices.Sort(tags)
	cache.Store(it.ID, tags)
	return tags
}
`))
