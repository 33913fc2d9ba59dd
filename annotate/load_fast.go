package annotate

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// loadFast is Load's fast path: a single go list run (the least any
// type-correct tool pays), the target packages parsed while it runs and
// type-checked from source against their dependencies' export data, then
// checked. From the second run in a directory on, the type-checking and
// checks run during go list too, against the previous listing (see
// load_speculate.go). Function bodies are not type-checked: the go command has just
// compiled every target, so they hold no error the model depends on.
//
// Types come from source rather than from the targets' own export data
// because export data leaves out unexported package-level declarations
// (handlers such as createOrderFallback are typically unexported) and
// keeps only the line of each position, not its column.
//
// ok is false, after the reason is written to opts.Verbose, when the fast
// path does not apply and go/packages must load instead.
func loadFast(dir string, patterns []string, opts Options) (results []checkResult, ok bool) {
	return loadFastCached(dir, patterns, opts, listCacheFile(listCacheDir(), dir, patterns, opts))
}

// loadFastCached is loadFast keeping the listing for speculation in
// cacheFile ("" for none).
func loadFastCached(dir string, patterns []string, opts Options, cacheFile string) (results []checkResult, ok bool) {
	start := time.Now()
	fset := token.NewFileSet()
	pf := startPrefetch(fset, dir, patterns)
	type listing struct {
		list *packageList
		err  error
	}
	listed := make(chan listing, 1)
	go func() {
		list, err := goList(dir, patterns, opts)
		listed <- listing{list, err}
	}()

	was := readListing(cacheFile)
	var guess checked
	if was != nil {
		guess = was.check(fset, pf.wait(), was.targets, Options{})
	}

	l := <-listed
	parsed := pf.finish()
	if l.err != nil {
		verbosef(opts.Verbose, "annotate: fast path not taken: %v", l.err)
		return nil, false
	}
	list := l.list
	verbosef(opts.Verbose, "annotate: go list -export -deps: %d packages, %d targets in %v, %d files parsed meanwhile",
		len(list.byPath), len(list.targets), time.Since(start), len(parsed))
	if was != nil && guess.why == "" && list.ineligible(list.targets) == "" && sameInputs(was, list, guess.exportsRead) {
		verbosef(opts.Verbose, "annotate: checked %d packages while go list ran, against the previous listing, which still holds", len(guess.results))
		return guess.results, true
	}
	c := list.check(fset, parsed, list.targets, opts)
	if c.why != "" {
		verbosef(opts.Verbose, "annotate: fast path not taken: %s; loading with go/packages", c.why)
		return nil, false
	}
	writeListing(cacheFile, list)
	return c.results, true
}

// checked is the outcome of checking the targets of a listing: one result
// per target that has Go files, in order, and the dependencies whose
// export data was read; or why the fast path does not apply.
type checked struct {
	results     []checkResult
	exportsRead []string
	why         string
}

// fastPackage is one target package on the fast path.
type fastPackage struct {
	listed   *listedPackage
	files    []*ast.File
	types    *types.Package
	info     *types.Info
	typeErrs []types.Error
	result   checkResult
	done     chan struct{} // closed once types is set
}

// check type-checks and checks targets, which must be packages of list,
// parsing their files into fset unless parsed already holds them.
func (list *packageList) check(fset *token.FileSet, parsed map[string]parsedFile, targets []*listedPackage, opts Options) checked {
	if why := list.ineligible(targets); why != "" {
		return checked{why: why}
	}
	var pkgs []*fastPackage
	for _, t := range targets {
		if len(t.GoFiles) > 0 { // else test files only: nothing to check, as on the go/packages path
			pkgs = append(pkgs, &fastPackage{listed: t, done: make(chan struct{})})
		}
	}

	start := time.Now()
	files, previous, err := parseTargets(fset, parsed, pkgs)
	if err != nil {
		return checked{why: err.Error()}
	}
	verbosef(opts.Verbose, "annotate: parsed %d files in %v, leaving out %d previous %s", files, time.Since(start), previous, GeneratedFileName)

	start = time.Now()
	imp := newExportImporter(fset, list)
	checkAll(fset, pkgs, imp, types.SizesFor("gc", goarch(opts.Env)))
	results, why := judgeTypeErrors(pkgs)
	verbosef(opts.Verbose, "annotate: type-checked and checked %d packages in %v, reading export data of %d dependencies",
		len(pkgs), time.Since(start), len(imp.read))
	return checked{results: results, exportsRead: slices.Collect(maps.Keys(imp.read)), why: why}
}

// checkAll type-checks and checks pkgs, in parallel as far as their imports
// of each other allow.
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
					return dep.types, nil
				}
				return imp.load(path)
			})
			p.result = checkPackage(fset, p.files, p.types, p.info)
		})
	}
	wg.Wait()
}

// judgeTypeErrors returns the packages' results, or why the fast path
// must give way: only errors about the left-out previous output can arise
// in code that compiled, and anything else is for go/packages to report.
func judgeTypeErrors(pkgs []*fastPackage) ([]checkResult, string) {
	emitted := make(map[string]map[string]bool, len(pkgs))
	for _, p := range pkgs {
		emitted[p.listed.ImportPath] = p.result.emitted
	}
	results := make([]checkResult, len(pkgs))
	for i, p := range pkgs {
		tp := typedPackage{path: p.listed.ImportPath, files: p.files, info: p.info}
		if diags := typeErrorDiagnostics(p.typeErrs, tp, emitted, p.result.quals); len(diags) > 0 {
			return nil, fmt.Sprintf("type error in %s: %s", p.listed.ImportPath, diags[0].Message)
		}
		results[i] = p.result
	}
	return results, ""
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

// typeCheck type-checks the package's declarations, recording what the
// checks and the judging of type errors need.
func (p *fastPackage) typeCheck(fset *token.FileSet, sizes types.Sizes, importer importerFunc) {
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
			p.typeErrs = append(p.typeErrs, te)
		},
	}
	if m := p.listed.Module; m != nil && m.GoVersion != "" {
		conf.GoVersion = "go" + m.GoVersion
	}
	p.info = &types.Info{
		Defs:      map[*ast.Ident]types.Object{},
		Implicits: map[ast.Node]types.Object{},
		Scopes:    map[ast.Node]*types.Scope{},
	}
	p.types = types.NewPackage(p.listed.ImportPath, p.listed.Name)
	_ = types.NewChecker(&conf, fset, p.types, p.info).Files(p.files) // errors went to conf.Error
}

// importerFunc adapts a function to types.Importer.
type importerFunc func(path string) (*types.Package, error)

// Import implements types.Importer.
func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// parseTargets parses every file of pkgs that parsed does not hold, in
// parallel, the previous output as its package clause only, as the
// go/packages path does. It returns the number of files and of previous
// outputs, and the first parse error.
func parseTargets(fset *token.FileSet, parsed map[string]parsedFile, pkgs []*fastPackage) (files, previous int, err error) {
	type job struct {
		pkg  *fastPackage
		i    int
		name string
	}
	var jobs []job
	for _, p := range pkgs {
		names := p.listed.files()
		p.files = make([]*ast.File, len(names))
		for i, name := range names {
			if filepath.Base(name) == GeneratedFileName {
				previous++
			}
			if pf, ok := parsed[name]; ok {
				if pf.err != nil {
					return 0, 0, pf.err
				}
				p.files[i] = pf.file
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
				j.pkg.files[j.i], errs[k] = parseFile(fset, j.name)
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

func parseFile(fset *token.FileSet, name string) (*ast.File, error) {
	src, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	mode := userFileMode
	if filepath.Base(name) == GeneratedFileName {
		mode = parser.PackageClauseOnly
	}
	return parser.ParseFile(fset, name, src, mode)
}

// goarch is the target architecture the go command will use, for the
// sizes of types: GOARCH from env (or this process's environment when env
// is nil), else the architecture this program was built for.
func goarch(env []string) string {
	if env == nil {
		env = os.Environ()
	}
	arch := runtime.GOARCH
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GOARCH="); ok && v != "" {
			arch = v // the last setting wins, as in exec
		}
	}
	return arch
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
