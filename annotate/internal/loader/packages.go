package loader

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/tools/go/packages"
)

// packagesMode asks for syntax and types of the target packages only.
// Without NeedDeps, go/packages type-checks dependencies from the
// compiler's export data instead of from source.
const packagesMode = packages.NeedName | packages.NeedFiles | packages.NeedSyntax |
	packages.NeedTypes | packages.NeedTypesInfo

// loadWithPackages is the general route: go/packages, which tolerates
// packages that do not compile and reports list, parse and type errors with
// their positions.
//
// Previous files are read as their package clause alone by the parser
// hook rather than by an overlay: with any overlay, go/packages distrusts
// all export data and type-checks every dependency, the standard library
// included, from source (about 3x the time and memory). The go command
// still compiles the real file to produce export data; its complaints
// about that file are dropped, since the source type-check of target
// packages is what counts.
func loadWithPackages(cfg Config) ([]*Package, error) {
	pcfg := &packages.Config{Dir: cfg.Dir, Env: cfg.Env, Mode: packagesMode}
	if len(cfg.Tags) > 0 {
		pcfg.BuildFlags = []string{"-tags=" + strings.Join(cfg.Tags, ",")}
	}
	var previous atomic.Int32
	pcfg.ParseFile = func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
		work.parsed.Add(1)
		if cfg.isPrevious(filename) {
			previous.Add(1)
			return parser.ParseFile(fset, filename, src, parser.PackageClauseOnly)
		}
		return parser.ParseFile(fset, filename, src, userFileMode)
	}
	start := time.Now()
	pkgs, err := packages.Load(pcfg, cfg.Patterns...)
	if err != nil {
		return nil, fmt.Errorf("annotate: %w", err)
	}
	verbosef(cfg.Verbose, "annotate: loaded %d packages in %v, leaving out %d previous %s",
		len(pkgs), time.Since(start), previous.Load(), cfg.Previous)
	if err := patternErrors(pkgs, cfg.Patterns); err != nil {
		return nil, err
	}
	out := make([]*Package, 0, len(pkgs))
	for _, p := range pkgs {
		lp := &Package{Path: p.PkgPath, Name: p.Name, Dir: p.Dir, Fset: p.Fset, Files: p.Syntax, TypeErrors: p.TypeErrors, Errors: cfg.listErrors(p)}
		if p.Types != nil && p.TypesInfo != nil && len(p.Syntax) > 0 {
			lp.Types, lp.Info = p.Types, p.TypesInfo
			work.checked.Add(1)
		}
		if len(p.Syntax) == 0 && len(lp.Errors) == 0 {
			// A package of test files only: nothing to check, and no
			// directory to write to, but its test files are looked at.
			lp.TypeErrors = nil
		}
		out = append(out, lp)
	}
	return out, nil
}

// isPrevious reports whether the file is a Previous one: Previous itself,
// or one of its per-build-constraint siblings (for "x.go", "x_*.go" other
// than a test file), which a generator writes for platforms other than
// the one loaded, and which may be the one the go command includes here.
func (cfg *Config) isPrevious(filename string) bool {
	if cfg.Previous == "" {
		return false
	}
	base := filepath.Base(filename)
	if base == cfg.Previous {
		return true
	}
	stem := strings.TrimSuffix(cfg.Previous, ".go") + "_"
	return strings.HasPrefix(base, stem) && strings.HasSuffix(base, ".go") && !strings.HasSuffix(base, "_test.go")
}

// userFileMode is how both loaders parse the user's files.
const userFileMode = parser.AllErrors | parser.ParseComments | parser.SkipObjectResolution

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

// listErrors converts a package's list and parse errors. Type errors are
// left to TypeErrors, which has exact positions.
func (cfg *Config) listErrors(p *packages.Package) []Error {
	var errs []Error
	for _, e := range p.Errors {
		switch {
		case e.Kind == packages.TypeError:
			continue
		case e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# "):
			// The compiler's output from building export data: the same
			// errors as the type checker's, or errors in a Previous file.
			continue
		case cfg.isPrevious(parsePosition(e.Pos).Filename):
			// The go command's view of a Previous file, such as an import
			// of a package that no longer exists.
			continue
		}
		errs = append(errs, Error{Pos: parsePosition(e.Pos), Msg: e.Msg, Syntax: e.Kind == packages.ParseError})
	}
	return errs
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
