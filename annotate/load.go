package annotate

import (
	"errors"
	"fmt"
	"go/token"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sentinelgen/sentinelgen/annotate/internal/loader"
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
	// Known, when not nil, is asked once go list has run, before any file
	// is parsed, whether the caller recorded the outcome of a load with
	// these inputs: a key hashing the configuration, every target's
	// listing and .go files, and its imports' export data. It may be asked
	// more than once (first with a key predicted from the previous run's
	// listing). When the load's own key is known, Load checks nothing and
	// returns ErrKnownInputs; the caller's record stands for the results.
	Known func(key string) bool
	// Keyed, when not nil, receives the inputs key of a load whose outcome
	// depends on nothing else, for the caller to record (through its own
	// Known) once it has judged that outcome. Loads that cannot be keyed
	// (the go/packages route, packages loaded for other platforms too)
	// do not call it.
	Keyed func(key string)
}

// ErrKnownInputs is Load's error when Options.Known knew the load's inputs:
// nothing was parsed or checked.
var ErrKnownInputs = errors.New("annotate: inputs known to the caller; nothing loaded")

// Load loads the packages matching patterns (relative to dir; "" means the
// working directory), checks each with Check and returns one *Package per
// loaded package that has no problem (one per generated file, for a
// package with directives in build-constrained files: see Package.File), sorted by import path, also when it
// has no resource (so that a left-over generated file can be deleted), and
// every Diagnostic, sorted by file, line and column. A package with any
// diagnostic, including an ordinary compile error, yields no model; a
// package with a syntax error yields those errors alone. err reports
// failures of loading itself: a go command that cannot run, a pattern that
// names no package. Resource names must be unique across all the packages
// loaded.
//
// The previous output of each target package (GeneratedFileName) is read as
// its package clause alone, so a stale file can never block regeneration.
// User code that refers to the names that file will hold again (GuardedT,
// NewGuardedT, GuardedF, ..., also through an import of another target
// package) then fails to type-check with "undefined"; exactly those errors
// are tolerated.
//
// Loading first tries a fast route that runs the go command once (go list
// -export -deps), parses the target packages and type-checks them against
// their dependencies' export data, overlapping that work with go list's.
// It applies when every target package compiles as it stands, the usual
// case; otherwise (a stale previous output, a compile error, cgo) it uses
// go/packages, which reports every list, parse and type error with its
// position. Both give the same models and diagnostics.
func Load(dir string, patterns []string, opts Options) ([]*Package, []Diagnostic, error) {
	var key string
	cfg := loader.Config{Dir: dir, Patterns: patterns, Tags: opts.Tags, Env: opts.Env, Verbose: opts.Verbose, Known: opts.Known}
	if opts.Keyed != nil {
		cfg.Keyed = func(k string) { key = k }
	}
	pkgs, diags, route, planned, err := loadPlanned(cfg)
	if err == nil && route == loader.RouteKnown {
		return nil, nil, ErrKnownInputs
	}
	// Loads for other platforms read inputs the key leaves out.
	if err == nil && key != "" && route == loader.RouteFast && !planned {
		opts.Keyed(key)
	}
	return pkgs, diags, err
}

// loadAndCheck is Load on cfg's route; it returns the route taken.
func loadAndCheck(cfg loader.Config) ([]*Package, []Diagnostic, loader.Route, error) {
	pkgs, diags, route, _, err := loadPlanned(cfg)
	return pkgs, diags, route, err
}

// loadPlanned is loadAndCheck that also reports whether any package was
// loaded for other platforms too.
func loadPlanned(cfg loader.Config) ([]*Package, []Diagnostic, loader.Route, bool, error) {
	start := time.Now()
	cfg.Previous = GeneratedFileName
	cfg.Accept = acceptCompiled
	loaded, route, err := loader.Load(cfg)
	if err != nil || route == loader.RouteKnown {
		return nil, nil, route, false, err
	}
	generated := generatedByPath(loaded)
	results := make([]checkResult, len(loaded))
	// Packages are checked in parallel: the checks only read the types,
	// which are complete.
	var wg sync.WaitGroup
	cpu := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, p := range loaded {
		wg.Go(func() {
			cpu <- struct{}{}
			defer func() { <-cpu }()
			results[i] = checkLoaded(p, generated)
		})
	}
	wg.Wait()
	models, diags := collect(results)
	models, diags, planned := everyPlatform(cfg, loaded, models, diags)
	verbosef(cfg.Verbose, "annotate: checked %d packages in %v: %d ok, %d diagnostics", len(results), time.Since(start), len(models), len(diags))
	return models, diags, route, planned, nil
}

// checkLoaded checks one loaded package: its syntax errors alone when it
// has any (its trees lack what the parser skipped, so every other finding
// would be suspect, as the go command also judges), else its list errors
// and what Check finds.
func checkLoaded(p *loader.Package, generated func(string) map[string]bool) checkResult {
	var syntax, listed []Diagnostic
	for _, e := range p.Errors {
		d := Diagnostic{Pos: e.Pos, Message: oneLine(e.Msg)}
		if e.Syntax {
			syntax = append(syntax, d)
		} else {
			listed = append(listed, d)
		}
	}
	if len(syntax) > 0 {
		return checkResult{diags: syntax}
	}
	if p.Types == nil { // not type-checked at all: nothing to check
		for _, e := range p.TypeErrors {
			listed = append(listed, Diagnostic{Pos: e.Fset.Position(e.Pos), Message: oneLine(e.Msg)})
		}
		return checkResult{diags: listed}
	}
	r := checkPackage(p.Fset, p.Files, p.Types, p.Info, CheckOptions{TypeErrors: p.TypeErrors, Generated: generated})
	r.diags = append(listed, r.diags...)
	return r
}

// acceptCompiled judges the fast route's packages, which compiled: only
// errors about the left-out previous output can arise there, and anything
// else is for go/packages to report with its full context.
func acceptCompiled(pkgs []*loader.Package) string {
	generated := generatedByPath(pkgs)
	for _, p := range pkgs {
		own := generated(p.Path)
		for _, e := range p.TypeErrors {
			if !isTolerated(e, p.Files, p.Info, own, generated) {
				return fmt.Sprintf("type error in %s: %s", p.Path, oneLine(e.Msg))
			}
		}
	}
	return ""
}

// generatedByPath returns the names generation will declare in each
// loaded package, by import path.
func generatedByPath(pkgs []*loader.Package) func(string) map[string]bool {
	byPath := make(map[string]map[string]bool, len(pkgs))
	for _, p := range pkgs {
		byPath[p.Path] = generatedNames(p.Fset, p.Files)
	}
	return func(path string) map[string]bool { return byPath[path] }
}

// collect judges names across packages and gathers the models of packages
// without diagnostics, sorted by path, and all diagnostics, sorted.
func collect(results []checkResult) ([]*Package, []Diagnostic) {
	crossPackageDuplicates(results)
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
	return models, diags
}

func verbosef(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format+"\n", args...)
	}
}

// crossPackageDuplicates reports resource names shared by resources of
// different packages; checkPackage already reported those within one.
func crossPackageDuplicates(results []checkResult) {
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
			byName[r.Name] = append(byName[r.Name], use{r, res.namePos[r], i})
		}
	}
	for i, res := range results {
		if res.model == nil {
			continue
		}
		for _, r := range res.model.Resources {
			for _, other := range byName[r.Name] {
				if other.pkg != i {
					results[i].diags = append(results[i].diags, duplicateName(r, res.namePos[r], other.r, other.at, results[other.pkg].model.Path))
				}
			}
		}
	}
}
