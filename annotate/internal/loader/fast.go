package loader

import (
	"cmp"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// loadFast is the fast route: a single go list run (the least any
// type-correct tool pays), the target packages parsed while it runs and
// type-checked from source against their dependencies' export data. From
// the second run in a directory on, the type-checking runs during go list
// too, against the previous listing (see speculate.go). Function bodies
// are not type-checked: the go command has just compiled every target, so
// they hold no error a declaration-level checker depends on.
//
// Types come from source rather than from the targets' own export data
// because export data leaves out unexported package-level declarations
// (handlers such as createOrderFallback are typically unexported) and
// keeps only the line of each position, not its column.
//
// why says, when not "", why the route does not apply.
func loadFast(cfg Config) (pkgs []*Package, known bool, why string) {
	start := time.Now()
	fset := token.NewFileSet()
	type listing struct {
		list *packageList
		err  error
	}
	listed := make(chan listing, 1)
	go func() {
		list, err := goList(cfg)
		listed <- listing{list, err}
	}()
	// The sizes of types depend on the target architecture, which the go
	// command decides (GOARCH in the environment, go env -w, the
	// toolchain's default): it is asked, beside go list.
	type archAnswer struct {
		goarch string
		err    error
	}
	arch := make(chan archAnswer, 1)
	go func() {
		goarch, err := goArch(cfg)
		arch <- archAnswer{goarch, err}
	}()

	cacheFile := listCacheFile(cfg)
	was := readListing(cacheFile)
	files := newDirHashes()
	// When the previous listing and today's files give inputs the caller
	// knows, this run most likely has nothing to do: nothing is parsed
	// while go list runs, so that the go command has the machine to itself.
	// Hashing the files before they are parsed also means that a file
	// edited meanwhile leaves a key of its old content, which the next run
	// does not match, rather than a key of content that was never checked.
	predicted, hopeful := "", false
	if (cfg.Known != nil || cfg.Keyed != nil) && was != nil {
		if k, ok := inputKey(cfg, was, files); ok && cfg.Known != nil && cfg.Known(k) {
			predicted, hopeful = k, true
		}
	}
	var pf *prefetch
	var guess checked
	if !hopeful {
		pf = startPrefetch(fset, cfg)
		if was != nil {
			guess = was.check(fset, pf.wait(), was.targets, cfg)
		}
	}

	l, a := <-listed, <-arch
	var parsed map[string]parsedFile
	if pf != nil {
		parsed = pf.finish()
	}
	if err := cmp.Or(l.err, a.err); err != nil {
		return nil, false, err.Error()
	}
	list := l.list
	list.goarch = a.goarch
	verbosef(cfg.Verbose, "annotate: go list -export -deps: %d packages, %d targets in %v, %d files parsed meanwhile",
		len(list.byPath), len(list.targets), time.Since(start), len(parsed))
	key, keyed := "", false
	if cfg.Known != nil || cfg.Keyed != nil {
		key, keyed = inputKey(cfg, list, files)
	}
	if keyed && cfg.Known != nil && (key == predicted || cfg.Known(key)) {
		verbosef(cfg.Verbose, "annotate: inputs unchanged since a recorded run (%d targets): nothing parsed or type-checked", len(list.targets))
		if key != predicted {
			writeListing(cacheFile, list)
		}
		return nil, true, ""
	}
	if keyed && cfg.Keyed != nil {
		defer func() {
			if why == "" {
				cfg.Keyed(key)
			}
		}()
	}
	if was != nil && !hopeful && guess.why == "" && list.ineligible(list.targets) == "" && sameInputs(was, list, guess.exportsRead) {
		verbosef(cfg.Verbose, "annotate: type-checked %d packages while go list ran, against the previous listing, which still holds", len(guess.pkgs))
		return guess.pkgs, false, ""
	}
	c := list.check(fset, parsed, list.targets, cfg)
	if c.why != "" {
		return nil, false, c.why
	}
	writeListing(cacheFile, list)
	return c.pkgs, false, ""
}

// checked is the outcome of type-checking the targets of a listing: one
// package per target that has Go files, in order, and the dependencies
// whose export data was read; or why the fast route does not apply.
type checked struct {
	pkgs        []*Package
	exportsRead []string
	why         string
}

// fastPackage is one target package on the fast route.
type fastPackage struct {
	listed *listedPackage
	pkg    *Package
	done   chan struct{} // closed once pkg.Types is set
}

// check type-checks targets, which must be packages of list, parsing their
// files into fset unless parsed already holds them, and asks cfg.Accept
// about the outcome.
func (list *packageList) check(fset *token.FileSet, parsed map[string]parsedFile, targets []*listedPackage, cfg Config) checked {
	if why := list.ineligible(targets); why != "" {
		return checked{why: why}
	}
	var pkgs []*fastPackage
	var testOnly []*Package
	for _, t := range targets {
		if len(t.GoFiles) == 0 { // test files only: nothing to type-check, as on the go/packages route
			testOnly = append(testOnly, &Package{Path: t.ImportPath, Name: t.Name, Dir: t.Dir, Fset: fset})
			continue
		}
		pkgs = append(pkgs, &fastPackage{listed: t, pkg: &Package{Path: t.ImportPath, Name: t.Name, Dir: t.Dir, Fset: fset}, done: make(chan struct{})})
	}

	start := time.Now()
	files, previous, err := parseTargets(fset, parsed, pkgs, cfg)
	if err != nil {
		return checked{why: err.Error()}
	}
	verbosef(cfg.Verbose, "annotate: parsed %d files in %v, leaving out %d previous %s", files, time.Since(start), previous, cfg.Previous)

	start = time.Now()
	imp := newExportImporter(fset, list)
	checkAll(fset, pkgs, imp, types.SizesFor("gc", list.goarch))
	out := make([]*Package, len(pkgs))
	for i, p := range pkgs {
		out[i] = p.pkg
	}
	out = append(out, testOnly...)
	verbosef(cfg.Verbose, "annotate: type-checked %d packages in %v, reading export data of %d dependencies",
		len(pkgs), time.Since(start), len(imp.read))
	c := checked{pkgs: out, exportsRead: slices.Collect(maps.Keys(imp.read))}
	if cfg.Accept != nil {
		c.why = cfg.Accept(out)
	}
	return c
}

// checkAll type-checks pkgs, in parallel as far as their imports of each
// other allow.
func checkAll(fset *token.FileSet, pkgs []*fastPackage, imp *exportImporter, sizes types.Sizes) {
	byPath := make(map[string]*fastPackage, len(pkgs))
	for _, p := range pkgs {
		byPath[p.listed.ImportPath] = p
	}
	cpu := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for _, p := range pkgs {
		wg.Go(func() {
			defer close(p.done)
			// A target imported by another is type-checked first and used
			// from source, as go/packages does: its export data would
			// include its previous output.
			for _, path := range p.listed.Imports {
				if dep := byPath[path]; dep != nil {
					<-dep.done
				}
			}
			cpu <- struct{}{}
			defer func() { <-cpu }()
			p.typeCheck(fset, sizes, func(path string) (*types.Package, error) {
				path = p.listed.resolve(path)
				if dep := byPath[path]; dep != nil {
					return dep.pkg.Types, nil
				}
				return imp.load(path)
			})
		})
	}
	wg.Wait()
}

// ineligible says why the fast path cannot load targets, or returns "".
func (list *packageList) ineligible(targets []*listedPackage) string {
	if len(targets) == 0 {
		return "no package matched"
	}
	isTarget := make(map[string]bool, len(targets))
	for _, t := range targets {
		isTarget[t.ImportPath] = true
	}
	for _, t := range targets {
		switch {
		case t.Error != nil:
			return t.ImportPath + ": " + firstLine(t.Error.Err)
		case len(t.DepsErrors) > 0:
			return t.ImportPath + ": " + firstLine(t.DepsErrors[0].Err)
		case len(t.CgoFiles) > 0:
			return t.ImportPath + " uses cgo"
		case t.Export == "" && len(t.GoFiles) > 0:
			return t.ImportPath + " was not compiled"
		}
	}
	if dep := list.dependencyOnTarget(targets, isTarget); dep != "" {
		return "dependency " + dep + " imports a target package"
	}
	return ""
}

// dependencyOnTarget returns a non-target package that a target imports
// and that itself depends on a target, or "". Its export data would bring
// a second copy of that target's types, which could not be identical to
// the ones checked from source.
func (list *packageList) dependencyOnTarget(targets []*listedPackage, isTarget map[string]bool) string {
	reaches := map[string]bool{}
	var reachesTarget func(path string) bool
	reachesTarget = func(path string) bool {
		if r, seen := reaches[path]; seen {
			return r
		}
		reaches[path] = false
		if p := list.byPath[path]; p != nil {
			for _, imp := range p.Imports {
				if isTarget[imp] || reachesTarget(imp) {
					reaches[path] = true
					return true
				}
			}
		}
		return false
	}
	for _, t := range targets {
		for _, imp := range t.Imports {
			if !isTarget[imp] && reachesTarget(imp) {
				return imp
			}
		}
	}
	return ""
}

// typeCheck type-checks the package's declarations, recording what a
// declaration-level checker needs.
func (p *fastPackage) typeCheck(fset *token.FileSet, sizes types.Sizes, importer importerFunc) {
	work.checked.Add(1)
	conf := types.Config{
		Importer:         importer,
		Sizes:            sizes,
		IgnoreFuncBodies: true,
		Error: func(err error) {
			var te types.Error
			if !errors.As(err, &te) {
				// Not expected from go/types; kept so that it is not lost.
				te = types.Error{Fset: fset, Msg: err.Error()}
			}
			p.pkg.TypeErrors = append(p.pkg.TypeErrors, te)
		},
	}
	if m := p.listed.Module; m != nil && m.GoVersion != "" {
		conf.GoVersion = "go" + m.GoVersion
	}
	p.pkg.Info = &types.Info{
		Defs:      map[*ast.Ident]types.Object{},
		Implicits: map[ast.Node]types.Object{},
		Scopes:    map[ast.Node]*types.Scope{},
	}
	p.pkg.Types = types.NewPackage(p.listed.ImportPath, p.listed.Name)
	_ = types.NewChecker(&conf, fset, p.pkg.Types, p.pkg.Info).Files(p.pkg.Files) // errors went to conf.Error
}

// importerFunc adapts a function to types.Importer.
type importerFunc func(path string) (*types.Package, error)

// Import implements types.Importer.
func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// parseTargets parses every file of pkgs that parsed does not hold, in
// parallel, Previous files as their package clause only, as the go/packages
// route does. It returns the number of files and of Previous files, and the
// first parse error.
func parseTargets(fset *token.FileSet, parsed map[string]parsedFile, pkgs []*fastPackage, cfg Config) (files, previous int, err error) {
	type job struct {
		pkg  *fastPackage
		i    int
		name string
	}
	var jobs []job
	for _, p := range pkgs {
		names := p.listed.files()
		p.pkg.Files = make([]*ast.File, len(names))
		for i, name := range names {
			if cfg.isPrevious(name) {
				previous++
			}
			if pf, ok := parsed[name]; ok {
				if pf.err != nil {
					return 0, 0, pf.err
				}
				p.pkg.Files[i] = pf.file
				continue
			}
			jobs = append(jobs, job{p, i, name})
		}
		files += len(names)
	}
	errs := make([]error, len(jobs))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(jobs)) {
		wg.Go(func() {
			for {
				k := int(next.Add(1) - 1)
				if k >= len(jobs) {
					return
				}
				j := jobs[k]
				j.pkg.pkg.Files[j.i], errs[k] = parseFile(fset, j.name, cfg)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return 0, 0, err
		}
	}
	return files, previous, nil
}

func parseFile(fset *token.FileSet, name string, cfg Config) (*ast.File, error) {
	work.parsed.Add(1)
	src, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	mode := userFileMode
	if cfg.isPrevious(name) {
		mode = parser.PackageClauseOnly
	}
	return parser.ParseFile(fset, name, src, mode)
}

// firstLine returns the first line of a go command error, skipping the
// "# package" header the compiler's output starts with.
func firstLine(s string) string {
	for line := range strings.Lines(s) {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "# ") {
			return line
		}
	}
	return strings.TrimSpace(s)
}
