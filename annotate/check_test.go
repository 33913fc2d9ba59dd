package annotate

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeRuntime stands in for the runtime package: Check only needs the
// import path and the BlockError name, and type-checking in memory keeps
// these tests free of the go command.
const fakeRuntime = `package runtime

type BlockError struct{}

func (*BlockError) Error() string { return "blocked" }

func newBlockError() *BlockError { return nil }
`

// memImporter serves the fake runtime and the standard library.
type memImporter struct {
	std  types.Importer
	pkgs map[string]*types.Package
}

func (m memImporter) Import(path string) (*types.Package, error) {
	if p, ok := m.pkgs[path]; ok {
		return p, nil
	}
	return m.std.Import(path)
}

// typeCheck parses and checks the named sources as package example.com/p.
func typeCheck(t *testing.T, sources map[string]string) (*token.FileSet, []*ast.File, *types.Package, *types.Info) {
	t.Helper()
	fset := token.NewFileSet()
	rtFile, err := parser.ParseFile(fset, "runtime.go", fakeRuntime, 0)
	require.NoError(t, err)
	rt, err := (&types.Config{}).Check(RuntimePath, fset, []*ast.File{rtFile}, nil)
	require.NoError(t, err)
	imp := memImporter{std: importer.Default(), pkgs: map[string]*types.Package{RuntimePath: rt}}

	names := make([]string, 0, len(sources))
	for n := range sources {
		names = append(names, n)
	}
	sort.Strings(names)
	var files []*ast.File
	for _, n := range names {
		f, err := parser.ParseFile(fset, "/src/p/"+n, sources[n], parser.ParseComments)
		require.NoError(t, err)
		files = append(files, f)
	}
	info := &types.Info{
		Defs:      map[*ast.Ident]types.Object{},
		Uses:      map[*ast.Ident]types.Object{},
		Implicits: map[ast.Node]types.Object{},
		Scopes:    map[ast.Node]*types.Scope{},
	}
	pkg, err := (&types.Config{Importer: imp}).Check("example.com/p", fset, files, info)
	require.NoError(t, err)
	return fset, files, pkg, info
}

func check(t *testing.T, sources map[string]string) (*Package, []Diagnostic) {
	t.Helper()
	fset, files, pkg, info := typeCheck(t, sources)
	return Check(fset, files, pkg, info, CheckOptions{})
}

func messages(diags []Diagnostic) []string {
	var ms []string
	for _, d := range diags {
		ms = append(ms, d.Pos.String()+": "+d.Message)
	}
	return ms
}

const servicePrelude = `package p

import (
	"context"
	"errors"

	"github.com/sentinelgen/sentinelgen/runtime"
)

var ErrGone = errors.New("gone")

type Service struct{}

func (s *Service) blocked(ctx context.Context, id int, be *runtime.BlockError) (string, error) { return "", be }
func (s *Service) fallback(ctx context.Context, id int, err error) (string, error) { return "", err }
func shared() (string, error) { return "", nil }
`

func TestCheckModel(t *testing.T) {
	pkg, diags := check(t, map[string]string{"svc.go": servicePrelude + `
// Get is guarded.
//
//sentinel:resource blockHandler=blocked fallback=fallback defaultFallback=shared ignore=ErrGone entryType=in resourceType=cache
func (s *Service) Get(ctx context.Context, id int) (string, error) { return "", nil }

//sentinel:resource name=ping
func ping() error { return nil }
`})
	require.Empty(t, messages(diags))
	require.NotNil(t, pkg)
	assert.Equal(t, "example.com/p", pkg.Path)
	assert.Equal(t, "p", pkg.Name)
	assert.Equal(t, "/src/p", pkg.Dir)
	require.Len(t, pkg.Resources, 2)

	get := pkg.Resources[0]
	assert.Equal(t, "example.com/p.Service.Get", get.Name)
	assert.Equal(t, "Get", get.GeneratedName)
	assert.Equal(t, EntryIn, get.EntryType)
	assert.Equal(t, ResourceCache, get.ResourceType)
	assert.Equal(t, 1, get.Func.ErrorResult)
	assert.True(t, get.Func.HasContext)
	assert.Equal(t, &Receiver{TypeName: "Service", Pointer: true}, get.Func.Recv)
	require.NotNil(t, get.BlockHandler)
	assert.Equal(t, HandlerMethod, get.BlockHandler.Kind)
	assert.True(t, get.BlockHandler.TakesError)
	assert.Equal(t, 1, get.BlockHandler.Type.Params().Len()-2, "receiver is not among the handler's parameters")
	require.NotNil(t, get.DefaultFallback)
	assert.Equal(t, HandlerFunc, get.DefaultFallback.Kind)
	assert.Equal(t, "example.com/p", get.DefaultFallback.PkgPath)
	assert.False(t, get.DefaultFallback.TakesError)
	require.Len(t, get.Ignore, 1)
	assert.Equal(t, MatchValue, get.Ignore[0].Kind)

	ping := pkg.Resources[1]
	assert.Equal(t, "ping", ping.Name)
	assert.Equal(t, "guardedPing", ping.GeneratedName)
	assert.Nil(t, ping.Func.Recv)

	require.Len(t, pkg.Wrappers, 1)
	assert.Equal(t, "GuardedService", pkg.Wrappers[0].TypeName)
	assert.Equal(t, "NewGuardedService", pkg.Wrappers[0].Constructor)
	assert.Equal(t, []*Resource{get}, pkg.Wrappers[0].Methods)

	for _, name := range []string{"Service", "ErrGone", "shared", "ping", "context", "errors", "runtime"} {
		assert.True(t, pkg.Reserved[name], name)
	}
}

func TestCheckPositionsPointAtValues(t *testing.T) {
	src := servicePrelude + `
//sentinel:resource name=get blockHandler=fallback
func (s *Service) Get(ctx context.Context, id int) (string, error) { return "", nil }
`
	pkg, diags := check(t, map[string]string{"svc.go": src})
	assert.Nil(t, pkg, "no model when there is a diagnostic")
	require.Len(t, diags, 1)
	line := strings.Split(src, "\n")[diags[0].Pos.Line-1]
	assert.True(t, strings.HasPrefix(line[diags[0].Pos.Column-1:], "fallback\n") || line[diags[0].Pos.Column-1:] == "fallback",
		"column %d of %q", diags[0].Pos.Column, line)
	assert.Equal(t, "blockHandler fallback has the wrong signature: want func(ctx context.Context, id int, blockErr *runtime.BlockError) (string, error), have func(ctx context.Context, id int, err error) (string, error)", diags[0].Message)
	require.Len(t, diags[0].Related, 1)
	assert.Equal(t, 15, diags[0].Related[0].Pos.Line)
}

// A go/analysis pass sees the generated file among the package's files;
// what it declares must neither collide nor serve as a handler.
func TestCheckIgnoresGeneratedFile(t *testing.T) {
	user := servicePrelude + `
//sentinel:resource fallback=fallback
func (s *Service) Get(ctx context.Context, id int) (string, error) { return "", nil }

//sentinel:resource fallback=genOnly
func Ping() error { return nil }
`
	generated := `// Code generated by sentinelgen. DO NOT EDIT.

package p

type GuardedService struct{ *Service }

func NewGuardedService(s *Service) *GuardedService { return &GuardedService{s} }

func GuardedPing() error { return Ping() }

func genOnly() error { return nil }

//sentinel:resource name=inGenerated
func (g *GuardedService) Other() error { return nil }
`
	pkg, diags := check(t, map[string]string{"svc.go": user, GeneratedFileName: generated})
	assert.Nil(t, pkg)
	assert.Equal(t, []string{"/src/p/svc.go:21:30: fallback genOnly not found in package p"}, messages(diags))

	pkg, diags = check(t, map[string]string{"svc.go": strings.Replace(user, "fallback=genOnly", "", 1), GeneratedFileName: generated})
	require.Empty(t, messages(diags))
	assert.Len(t, pkg.Resources, 2)
	assert.False(t, pkg.Reserved["GuardedService"], "generated names are not the user's")
	assert.False(t, pkg.Reserved["genOnly"])
}

func TestCheckHandlerResolution(t *testing.T) {
	tests := []struct {
		name      string
		directive string
		want      []string // message prefixes; empty: must pass
	}{
		{"method before function", "fallback=fallback", nil},
		{"package function", "defaultFallback=shared", nil},
		{"suggests a method", "fallback=fallbak", []string{"fallback fallbak not found in the method set of Service or package p; did you mean fallback?"}},
		{"receiver type of another method", "blockHandler=Other", []string{"blockHandler Other is a method of Peer, not of Service"}},
		{"field", "fallback=Hook", []string{"fallback Hook is a field of Service, not a method"}},
		{"variable", "fallback=ErrGone", []string{"fallback ErrGone is a variable, not a function"}},
		{"import not in file", "fallback=strings.ToUpper", []string{"fallback strings.ToUpper: strings is not a package imported by svc.go"}},
		{"suggests in an import", "fallback=errors.iss", []string{"fallback errors.iss is not exported by package errors; did you mean Is?"}},
		{"unexported in import", "fallback=runtime.newBlockError", []string{"fallback runtime.newBlockError is not exported by package runtime"}},
		{"imported non-function", "fallback=runtime.BlockError", []string{"fallback runtime.BlockError is a type, not a function"}},
		{"promoted through embedding", "fallback=Promoted", nil},
		{"ambiguous promotion", "fallback=Twice", []string{"fallback Twice is ambiguous: several embedded fields of Service provide it at the same depth"}},
		{"no handler at all", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			decls := `type Service struct {
	Hook func()
	A
	*B
}
type A struct{}
type B struct{}
func (A) Promoted(ctx context.Context, id int) (string, error) { return "", nil }
func (A) Twice() {}
func (*B) Twice() {}
type Peer struct{}
func (Peer) Other() {}`
			src := strings.Replace(servicePrelude, "type Service struct{}", decls, 1) + `
//sentinel:resource ` + tt.directive + `
func (s *Service) Get(ctx context.Context, id int) (string, error) { return "", nil }
`
			_, diags := check(t, map[string]string{"svc.go": src})
			ms := messages(diags)
			require.Len(t, ms, len(tt.want), "%v", ms)
			for i, w := range tt.want {
				assert.Contains(t, ms[i], ": "+w)
			}
		})
	}
}

func TestCheckNoErrorResult(t *testing.T) {
	src := servicePrelude + `
//sentinel:resource
func (s *Service) Count() int { return 0 }

func (s *Service) countBlocked(be *runtime.BlockError) int { return 0 }

//sentinel:resource blockHandler=countBlocked
func (s *Service) Count2() int { return 0 }
`
	_, diags := check(t, map[string]string{"svc.go": src})
	assert.Equal(t, []string{"/src/p/svc.go:18:1: Count has no error result, so a blocked call can only be answered by a handler: add blockHandler, fallback or defaultFallback"}, messages(diags))
}

// Check judges the type errors it is given, as a go/analysis pass holds
// them: "undefined" errors for the names generation will declare stand,
// in this package or (through Generated) in an imported one; every other
// error is reported, on one line.
func TestCheckJudgesTypeErrors(t *testing.T) {
	fset, files, pkg, info := typeCheck(t, map[string]string{"svc.go": servicePrelude + `
//sentinel:resource
func (s *Service) Get(ctx context.Context, id int) (string, error) { return "", nil }
`})
	at := files[0].Name.Pos()
	errs := []types.Error{
		{Fset: fset, Pos: at, Msg: "undefined: GuardedService"},
		{Fset: fset, Pos: at, Msg: "undefined: NewGuardedService"},
		{Fset: fset, Pos: at, Msg: "undefined: errors.GuardedX"},
		{Fset: fset, Pos: at, Msg: "undefined: GuardedOther"},
		{Fset: fset, Pos: at, Msg: "cannot use x\n\thave M()\n\twant M(int)"},
	}
	_, diags := Check(fset, files, pkg, info, CheckOptions{TypeErrors: errs})
	assert.Equal(t, []string{
		"/src/p/svc.go:1:9: cannot use x have M() want M(int)",
		"/src/p/svc.go:1:9: undefined: GuardedOther",
		"/src/p/svc.go:1:9: undefined: errors.GuardedX",
	}, messages(diags))

	generated := func(path string) map[string]bool { return map[string]bool{"GuardedX": path == "errors"} }
	_, diags = Check(fset, files, pkg, info, CheckOptions{TypeErrors: errs[:3], Generated: generated})
	assert.Empty(t, diags, "names generated in an imported package stand too")
}
