package annotate

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

// loadWithPackages is the general path: go/packages, which tolerates
// packages that do not compile and reports list, parse and type errors with
// their positions. It returns one checkResult per loaded package, its load
// errors included.
//
// The previous output of each target package (GeneratedFileName) is read as
// its package clause alone, by the parser hook rather than by an overlay:
// with any overlay, go/packages distrusts all export data and type-checks
// every dependency, the standard library included, from source (about 3x
// the time and memory). The go command still compiles the real file to
// produce export data; its complaints about that file are ignored, since
// the source type-check of target packages is what counts.
func loadWithPackages(dir string, patterns []string, opts Options) ([]checkResult, error) {
	cfg := &packages.Config{Dir: dir, Env: opts.Env, Mode: packagesMode}
	if len(opts.Tags) > 0 {
		cfg.BuildFlags = []string{"-tags=" + strings.Join(opts.Tags, ",")}
	}
	var previous atomic.Int32
	cfg.ParseFile = func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
		if filepath.Base(filename) == GeneratedFileName {
			previous.Add(1)
			return parser.ParseFile(fset, filename, src, parser.PackageClauseOnly)
		}
		return parser.ParseFile(fset, filename, src, userFileMode)
	}
	start := time.Now()
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("annotate: %w", err)
	}
	verbosef(opts.Verbose, "annotate: loaded %d packages in %v, leaving out %d previous %s",
		len(pkgs), time.Since(start), previous.Load(), GeneratedFileName)
	if err := patternErrors(pkgs, patterns); err != nil {
		return nil, err
	}

	results := make([]checkResult, len(pkgs))
	emitted := map[string]map[string]bool{}
	for i, p := range pkgs {
		if p.Types == nil || p.TypesInfo == nil || len(p.Syntax) == 0 || hasSyntaxErrors(p) {
			// Nothing to check, and no directory to write to: a package of
			// test files only, or one that failed to load. A package with
			// a syntax error is not checked either: its trees lack what the
			// parser skipped, so every finding would be suspect.
			continue
		}
		results[i] = checkPackage(p.Fset, p.Syntax, p.Types, p.TypesInfo)
		emitted[p.PkgPath] = results[i].emitted
	}
	for i, p := range pkgs {
		results[i].diags = append(results[i].diags, loadErrors(p, emitted, results[i].quals)...)
	}
	return results, nil
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

// loadErrors converts a package's list, parse and type errors, except the
// tolerated "undefined" errors for names that generation will declare.
// quals are the import names used by directives, per file.
func loadErrors(p *packages.Package, emitted map[string]map[string]bool, quals map[string]map[string]string) []Diagnostic {
	var diags []Diagnostic
	if hasSyntaxErrors(p) {
		// As the go command does: the syntax errors alone. Type errors,
		// and the go command's own view of the broken file, only echo what
		// the parser left out (an import "not used" by a lost function).
		for _, e := range p.Errors {
			if e.Kind == packages.ParseError {
				diags = append(diags, Diagnostic{Pos: parsePosition(e.Pos), Message: oneLine(e.Msg)})
			}
		}
		return diags
	}
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
		diags = append(diags, Diagnostic{Pos: parsePosition(e.Pos), Message: oneLine(e.Msg)})
	}
	if len(p.TypeErrors) > 0 {
		tp := typedPackage{path: p.PkgPath, files: p.Syntax, info: p.TypesInfo}
		diags = append(diags, typeErrorDiagnostics(p.TypeErrors, tp, emitted, quals)...)
	}
	return diags
}

// hasSyntaxErrors reports whether a file of p failed to parse.
func hasSyntaxErrors(p *packages.Package) bool {
	for _, e := range p.Errors {
		if e.Kind == packages.ParseError {
			return true
		}
	}
	return false
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
