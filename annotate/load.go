package annotate

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/tools/go/packages"
)

// Options configures Load.
type Options struct {
	// Tags are build tags, as for go build -tags.
	Tags []string
	// Env is the go command's environment; nil means the current process's.
	Env []string
	// Verbose, when not nil, receives one line per load phase with its
	// duration and counts.
	Verbose io.Writer
}

// loadMode asks for syntax and types of the target packages only. Without
// NeedDeps, go/packages type-checks dependencies from the compiler's export
// data instead of from source, which is what keeps loading fast.
const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedSyntax |
	packages.NeedTypes | packages.NeedTypesInfo

// Load loads the packages matching patterns (relative to dir; "" means the
// working directory), checks every directive and returns one *Package per
// loaded package that has no problem, sorted by import path, also when it has no resource (so that
// a left-over generated file can be deleted), and every Diagnostic, sorted by
// file, line and column. A package with any diagnostic, including an
// ordinary compile error, yields no model. err reports failures of loading
// itself: a go command that cannot run, a pattern that names no package.
//
// The previous output of each target package (GeneratedFileName) is read as
// its package clause alone, so a stale file can never block regeneration.
// User code that refers to the names that file will hold again (GuardedT,
// NewGuardedT, GuardedF, ..., also through an import of another target
// package) then fails to type-check with "undefined"; exactly those errors
// are tolerated.
//
// The file is left out by the parser hook rather than by an overlay: with
// any overlay, go/packages distrusts all export data and type-checks every
// dependency, the standard library included, from source (about 3x the
// time and memory). The go command still compiles the real file to produce
// export data; its complaints about that file are ignored, since the
// source type-check of target packages is what counts.
func Load(dir string, patterns []string, opts Options) ([]*Package, []Diagnostic, error) {
	return load(dir, patterns, opts, nil)
}

// load is Load with resource names required to be unique only among
// packages that scope maps to the same string (all packages when scope is
// nil). Tests use it to load many independent cases in one go list run.
func load(dir string, patterns []string, opts Options, scope func(pkgPath string) string) ([]*Package, []Diagnostic, error) {
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	cfg := &packages.Config{Dir: dir, Env: opts.Env}
	if len(opts.Tags) > 0 {
		cfg.BuildFlags = []string{"-tags=" + strings.Join(opts.Tags, ",")}
	}
	var previous atomic.Int32
	cfg.ParseFile = func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
		if filepath.Base(filename) == GeneratedFileName {
			previous.Add(1)
			return parser.ParseFile(fset, filename, src, parser.PackageClauseOnly)
		}
		return parser.ParseFile(fset, filename, src, parser.AllErrors|parser.ParseComments|parser.SkipObjectResolution)
	}
	start := time.Now()
	cfg.Mode = loadMode
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, nil, fmt.Errorf("annotate: %w", err)
	}
	verbosef(opts.Verbose, "annotate: loaded %d packages in %v, leaving out %d previous %s",
		len(pkgs), time.Since(start), previous.Load(), GeneratedFileName)
	if err := patternErrors(pkgs, patterns); err != nil {
		return nil, nil, err
	}

	start = time.Now()
	results := make([]checkResult, len(pkgs))
	emitted := map[string]map[string]bool{}
	for i, p := range pkgs {
		if p.Types == nil || p.TypesInfo == nil || len(p.Syntax) == 0 {
			// Nothing to check, and no directory to write to: a package of
			// test files only, or one that failed to load.
			continue
		}
		results[i] = checkPackage(p.Fset, p.Syntax, p.Types, p.TypesInfo)
		emitted[p.PkgPath] = results[i].emitted
	}
	for i, p := range pkgs {
		results[i].diags = append(results[i].diags, loadErrors(p, emitted, results[i].quals)...)
	}
	crossPackageDuplicates(results, scope)

	var models []*Package
	var diags []Diagnostic
	for _, r := range results {
		diags = append(diags, r.diags...)
		if len(r.diags) == 0 && r.model != nil {
			models = append(models, r.model)
		}
	}
	slices.SortFunc(models, func(a, b *Package) int { return strings.Compare(a.Path, b.Path) })
	sortDiagnostics(diags)
	verbosef(opts.Verbose, "annotate: checked %d packages in %v: %d ok, %d diagnostics", len(pkgs), time.Since(start), len(models), len(diags))
	return models, diags, nil
}

func verbosef(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format+"\n", args...)
	}
}

// patternErrors turns target packages that do not exist (a pattern naming a
// missing directory or an unknown import path) into a loader error, and
// fails when nothing matched at all.
func patternErrors(pkgs []*packages.Package, patterns []string) error {
	if len(pkgs) == 0 {
		return fmt.Errorf("annotate: no packages match %s", strings.Join(patterns, " "))
	}
	var errs []error
	for _, p := range pkgs {
		if len(p.GoFiles) > 0 || len(p.CompiledGoFiles) > 0 || len(p.Syntax) > 0 {
			continue
		}
		for _, e := range p.Errors {
			errs = append(errs, fmt.Errorf("annotate: %s: %s", p.ID, e.Msg))
		}
	}
	return errors.Join(errs...)
}

// loadErrors converts a package's list, parse and type errors, except the
// tolerated "undefined" errors for names that generation will declare.
// quals are the import names used by directives, per file.
func loadErrors(p *packages.Package, emitted map[string]map[string]bool, quals map[string]map[string]string) []Diagnostic {
	var diags []Diagnostic
	for _, e := range p.Errors {
		switch {
		case e.Kind == packages.TypeError:
			continue // taken from p.TypeErrors below, with exact positions
		case e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# "):
			// The compiler's output from building export data: the same
			// errors as the type checker's, which are judged one by one,
			// or errors in the previous output, which is being replaced.
			continue
		case filepath.Base(parsePosition(e.Pos).Filename) == GeneratedFileName:
			// The go command's view of the previous output, such as an
			// import of a package that no longer exists.
			continue
		}
		diags = append(diags, Diagnostic{Pos: parsePosition(e.Pos), Message: e.Msg})
	}
	for _, e := range p.TypeErrors {
		if isTolerated(e, p, emitted) {
			continue
		}
		pos := e.Fset.Position(e.Pos)
		diags = append(diags, Diagnostic{Pos: pos, Message: e.Msg + unusedImportHint(e, p, quals[pos.Filename])})
	}
	return diags
}

// unusedImportHint explains an "imported and not used" error for an import
// that the file's directives name: Go does not count comments as uses.
func unusedImportHint(e types.Error, p *packages.Package, quals map[string]string) string {
	if len(quals) == 0 || !strings.Contains(e.Msg, " imported") || !strings.HasSuffix(e.Msg, " not used") {
		return ""
	}
	f := fileAt(p, e.Pos)
	if f == nil {
		return ""
	}
	for _, spec := range f.Imports {
		if spec.Pos() > e.Pos || e.Pos > spec.End() {
			continue
		}
		pn := p.TypesInfo.PkgNameOf(spec)
		if pn == nil {
			return ""
		}
		if example, ok := quals[pn.Name()]; ok {
			return "; a directive does not count as a use: the file also needs one in code, such as var _ = " + example
		}
	}
	return ""
}

// isTolerated reports whether e is "undefined: X" or "undefined: q.X" where
// X is a name that generation will declare in p or in the target package
// that q imports.
func isTolerated(e types.Error, p *packages.Package, emitted map[string]map[string]bool) bool {
	name, ok := strings.CutPrefix(e.Msg, "undefined: ")
	if !ok {
		return false
	}
	qual, sel, qualified := strings.Cut(name, ".")
	if !qualified {
		return emitted[p.PkgPath][name]
	}
	f := fileAt(p, e.Pos)
	if f == nil {
		return false
	}
	for _, spec := range f.Imports {
		if pn := p.TypesInfo.PkgNameOf(spec); pn != nil && pn.Name() == qual {
			return emitted[pn.Imported().Path()][sel]
		}
	}
	return false
}

// fileAt returns the syntax tree of p holding pos.
func fileAt(p *packages.Package, pos token.Pos) *ast.File {
	for _, f := range p.Syntax {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// parsePosition parses the "file:line:col" (or "file:line", or "-") form
// that go/packages gives list and parse errors.
func parsePosition(s string) token.Position {
	if s == "" || s == "-" {
		return token.Position{}
	}
	var p token.Position
	rest := s
	nums := []*int{&p.Column, &p.Line}
	for _, n := range nums {
		i := strings.LastIndexByte(rest, ':')
		if i < 0 {
			break
		}
		v, err := strconv.Atoi(rest[i+1:])
		if err != nil {
			break
		}
		*n = v
		rest = rest[:i]
	}
	if p.Line == 0 { // only one number: it was the line
		p.Line, p.Column = p.Column, 0
	}
	p.Filename = rest
	return p
}

// crossPackageDuplicates reports resource names shared by resources of
// different packages; checkPackage already reported those within one.
func crossPackageDuplicates(results []checkResult, scope func(string) string) {
	if scope == nil {
		scope = func(string) string { return "" }
	}
	type use struct {
		r   *Resource
		at  token.Position
		pkg int
	}
	byName := map[string][]use{}
	for i, res := range results {
		if res.model == nil {
			continue
		}
		for _, r := range res.model.Resources {
			key := scope(res.model.Path) + "\x00" + r.Name
			byName[key] = append(byName[key], use{r, res.namePos[r], i})
		}
	}
	for i, res := range results {
		if res.model == nil {
			continue
		}
		for _, r := range res.model.Resources {
			for _, other := range byName[scope(res.model.Path)+"\x00"+r.Name] {
				if other.pkg != i {
					results[i].diags = append(results[i].diags, duplicateName(r, res.namePos[r], other.r, other.at, results[other.pkg].model.Path))
				}
			}
		}
	}
}
