// Package loader loads Go packages as parsed and type-checked trees, the
// input annotate's checker takes, so that the checker never depends on how
// packages were found. It has two routes behind one function:
//
//   - the fast route runs the go command once (go list -export -deps),
//     parses the target packages while it runs and type-checks them from
//     source against their dependencies' export data; from the second run
//     in a directory on it type-checks during go list too, against the
//     previous listing (see speculate.go). It applies when every target
//     compiles as it stands, the usual case.
//   - otherwise go/packages loads, which reports every list, parse and type
//     error with its position.
//
// Both give the same trees and types for code that compiles.
package loader

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"io"
)

// Config says what to load and how.
type Config struct {
	// Dir is the directory patterns are relative to ("" means the working
	// directory).
	Dir string
	// Patterns are package patterns, as for go list; none means ".".
	Patterns []string
	// Tags are build tags, as for go build -tags.
	Tags []string
	// Env is the go command's environment; nil means the current process's.
	Env []string
	// Verbose, when not nil, receives one line per load phase with its
	// duration and counts.
	Verbose io.Writer
	// Previous is the base name of files read as their package clause
	// alone (a generator's previous output, about to be replaced), so that
	// a stale one cannot stand in the way. The go command's complaints
	// about such files are dropped.
	Previous string
	// Accept judges the type errors of the fast route's packages, which
	// compiled, so that only errors about the left-out Previous files can
	// arise: it returns why the packages cannot stand as loaded, and the
	// go/packages route then loads instead. Nil accepts any packages.
	Accept func([]*Package) string
	// Route selects the loader; the zero value is RouteAuto.
	Route Route
	// Known, when not nil, is asked on the fast route, once go list has
	// run and before anything is parsed, whether the caller recorded the
	// outcome of a load with these inputs (key: see inputKey). When it
	// answers true, Load parses and type-checks nothing and returns no
	// packages and RouteKnown: the caller's record stands for them. When
	// the previous listing in the directory gives a key it knows, nothing
	// is parsed while go list runs either.
	Known func(key string) bool
	// Keyed, when not nil, receives the inputs key of a load that the fast
	// route checked, for the caller to record once it has judged the
	// outcome. A load that cannot be keyed calls it with nothing.
	Keyed func(key string)
}

// Route names a loader.
type Route uint8

const (
	// RouteAuto is the fast route when it applies, else go/packages.
	RouteAuto Route = iota
	// RouteFast is one go list run with export data for dependencies.
	RouteFast
	// RoutePackages is go/packages.
	RoutePackages
	// RouteKnown is the fast route's go list alone: Config.Known knew the
	// inputs, so nothing was parsed or type-checked.
	RouteKnown
)

func (r Route) String() string {
	switch r {
	case RouteFast:
		return "fast"
	case RoutePackages:
		return "go/packages"
	case RouteKnown:
		return "known inputs"
	}
	return "auto"
}

// Package is one loaded target package.
type Package struct {
	Path  string // import path
	Name  string // package name
	Dir   string // the package's directory
	Fset  *token.FileSet
	Files []*ast.File // the Go files, Previous as its package clause only
	// Types and Info are nil for a package that could not be type-checked
	// at all. Info holds Defs, Implicits and Scopes at least (Types and
	// Uses as well on the go/packages route).
	Types *types.Package
	Info  *types.Info
	// TypeErrors are the type checker's errors. Function bodies are not
	// type-checked on the fast route: the go command has just compiled
	// them.
	TypeErrors []types.Error
	// Errors are the go command's and the parser's errors about the
	// package, except those about Previous files.
	Errors []Error
}

// Error is a list or syntax error.
type Error struct {
	Pos    token.Position
	Msg    string
	Syntax bool // a parse error: the file's tree lacks what the parser skipped
}

// Load loads the packages cfg names on the route it selects and returns
// one Package per target package, and the route taken. A package of test
// files only has no Files and no Types: it is returned so that its
// directory can be looked at.
// err reports failures of loading itself: a go command that cannot run, a
// pattern that names no package.
func Load(cfg Config) ([]*Package, Route, error) {
	if len(cfg.Patterns) == 0 {
		cfg.Patterns = []string{"."}
	}
	if cfg.Route != RoutePackages {
		pkgs, known, why := loadFast(cfg)
		if known {
			return nil, RouteKnown, nil
		}
		if why == "" {
			return pkgs, RouteFast, nil
		}
		if cfg.Route == RouteFast {
			return nil, RouteFast, fmt.Errorf("fast route not taken: %s", why)
		}
		verbosef(cfg.Verbose, "annotate: fast path not taken: %s; loading with go/packages", why)
	}
	pkgs, err := loadWithPackages(cfg)
	return pkgs, RoutePackages, err
}

func verbosef(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format+"\n", args...)
	}
}
