package annotate

import (
	"fmt"
	"go/token"
	"io"
	"slices"
	"strings"
	"time"
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

// Load loads the packages matching patterns (relative to dir; "" means the
// working directory), checks every directive and returns one *Package per
// loaded package that has no problem, sorted by import path, also when it
// has no resource (so that a left-over generated file can be deleted), and
// every Diagnostic, sorted by file, line and column. A package with any
// diagnostic, including an ordinary compile error, yields no model. err
// reports failures of loading itself: a go command that cannot run, a
// pattern that names no package.
//
// The previous output of each target package (GeneratedFileName) is read as
// its package clause alone, so a stale file can never block regeneration.
// User code that refers to the names that file will hold again (GuardedT,
// NewGuardedT, GuardedF, ..., also through an import of another target
// package) then fails to type-check with "undefined"; exactly those errors
// are tolerated.
//
// Load first tries a fast path that runs the go command once (go list
// -export -deps), parses the target packages and type-checks them against
// their dependencies' export data, overlapping that work with go list's.
// It applies when every target package compiles as it stands, the usual
// case; otherwise (a stale previous output, a compile error, cgo) Load
// uses go/packages, which reports every list, parse and type error with
// its position. Both give the same models and diagnostics.
func Load(dir string, patterns []string, opts Options) ([]*Package, []Diagnostic, error) {
	return load(dir, patterns, opts, nil)
}

// load is Load with resource names required to be unique only among
// packages that scope maps to the same string (all packages when scope is
// nil). Tests use it to load many independent cases in one go list run.
func load(dir string, patterns []string, opts Options, scope func(pkgPath string) string) ([]*Package, []Diagnostic, error) {
	pkgs, diags, _, err := loadVia(routeAuto, dir, patterns, opts, scope)
	return pkgs, diags, err
}

// loadRoute names a loader. loadVia is asked for routeAuto or
// routePackages and reports routeFast or routePackages as taken.
type loadRoute uint8

const (
	routeAuto     loadRoute = iota // the fast path when it applies, else go/packages
	routeFast                      // one go list run, export data for dependencies
	routePackages                  // go/packages
)

// loadVia is load on the given route; it returns the route taken, so that
// tests can compare the two loaders and see which one ran.
func loadVia(route loadRoute, dir string, patterns []string, opts Options, scope func(string) string) ([]*Package, []Diagnostic, loadRoute, error) {
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	start := time.Now()
	var results []checkResult
	taken := routePackages
	if route != routePackages {
		var ok bool
		if results, ok = loadFast(dir, patterns, opts); ok {
			taken = routeFast
		}
	}
	if taken == routePackages {
		var err error
		if results, err = loadWithPackages(dir, patterns, opts); err != nil {
			return nil, nil, taken, err
		}
	}
	models, diags := collect(results, scope)
	verbosef(opts.Verbose, "annotate: checked %d packages in %v: %d ok, %d diagnostics", len(results), time.Since(start), len(models), len(diags))
	return models, diags, taken, nil
}

// collect judges names across packages and gathers the models of packages
// without diagnostics, sorted by path, and all diagnostics, sorted.
func collect(results []checkResult, scope func(string) string) ([]*Package, []Diagnostic) {
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
	return models, diags
}

func verbosef(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format+"\n", args...)
	}
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
