package annotate

import (
	"cmp"
	"fmt"
	"os"
	goruntime "runtime"
	"slices"
	"strings"

	"github.com/sentinelgen/sentinelgen/annotate/internal/loader"
)

// everyPlatform extends the host load's results to every platform the
// packages' files are written for. A package without directives in
// constrained files keeps its one model. Any other gets one model per
// variant (see planVariants), each from a load for the variant's
// platform, or none at all when any of those loads finds a problem, so
// that no file is written for some platforms and removed for others. The
// directives of test files are reported here too. planned reports whether
// any package was loaded for other platforms.
func everyPlatform(cfg loader.Config, loaded []*loader.Package, models []*Package, diags []Diagnostic) (_ []*Package, _ []Diagnostic, planned bool) {
	fixed := map[string]bool{}
	for _, t := range cfg.Tags {
		for _, t := range strings.Split(t, ",") {
			fixed[strings.TrimSpace(t)] = true
		}
	}
	host := hostPlatform(cfg.Env)
	hostOK := map[string]bool{} // packages the host load found no problem in
	for _, m := range models {
		hostOK[m.Path] = true
	}
	plans := map[string][]variant{}
	bad := map[string]bool{} // packages with a problem: no model at all
	var paths []string
	for _, p := range loaded {
		s := scanDir(p)
		diags = append(diags, s.diags...)
		bad[p.Path] = len(s.diags) > 0
		if len(s.constrained) == 0 {
			continue
		}
		vs, d := planVariants(s.sortedConstraints(), fixed, host)
		diags = append(diags, d...)
		bad[p.Path] = bad[p.Path] || len(d) > 0
		if len(vs) > 0 && !bad[p.Path] && hostOK[p.Path] {
			plans[p.Path] = vs
			paths = append(paths, p.Path)
		}
	}
	models = slices.DeleteFunc(models, func(m *Package) bool { return bad[m.Path] })
	if len(plans) == 0 {
		return models, dedupe(diags), false
	}

	// One load per configuration, for all the packages that need it. A
	// group whose first platform does not compile the package (plan9 for a
	// package written for unix and windows) tries others of its group; a
	// group where none does is not a platform of the package at all, and
	// gets no generated file.
	type job struct {
		path string
		v    int // index into plans[path]
	}
	done := map[job]*checkResult{}
	var pending []job
	for _, path := range paths {
		for i := range plans[path] {
			pending = append(pending, job{path, i})
		}
	}
	for attempt := 0; len(pending) > 0; attempt++ {
		byPoint := map[string][]job{}
		var keys []string
		for _, j := range pending {
			at := plans[j.path][j.v].alts[attempt]
			k := pointKey(at)
			if _, seen := byPoint[k]; !seen {
				keys = append(keys, k)
			}
			byPoint[k] = append(byPoint[k], j)
		}
		var retry []job
		for _, k := range keys {
			jobs := byPoint[k]
			at := plans[jobs[0].path][jobs[0].v].alts[attempt]
			got := loadAt(cfg, at, jobs, func(j job) string { return j.path })
			for _, j := range jobs {
				r, compiles := got(j.path)
				switch {
				case compiles:
					done[j] = r
				case attempt+1 < len(plans[j.path][j.v].alts):
					retry = append(retry, j)
				default:
					verbosef(cfg.Verbose, "annotate: %s does not compile for %s (nor for the other platforms tried of its group); no %s for them",
						j.path, plans[j.path][j.v].constraint, plans[j.path][j.v].file)
				}
			}
		}
		pending = retry
	}

	var extra []*Package
	for _, path := range paths {
		var mine []*Package
		for i, v := range plans[path] {
			r := done[job{path, i}]
			if r == nil {
				continue
			}
			if len(r.diags) > 0 {
				bad[path] = true
				diags = append(diags, r.diags...)
				continue
			}
			if r.model == nil {
				continue
			}
			m := r.model
			m.File, m.Constraint = v.file, v.constraint
			mine = append(mine, m)
		}
		if !bad[path] {
			extra = append(extra, mine...)
		}
	}
	out := slices.DeleteFunc(models, func(m *Package) bool { _, planned := plans[m.Path]; return planned })
	out = append(out, extra...)
	slices.SortFunc(out, func(a, b *Package) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(a.File, b.File))
	})
	return out, dedupe(diags), true
}

// loadAt loads the jobs' packages for one configuration and returns, per
// package path, its check result and whether the package compiles there
// as it stands (errors about the names generation declares aside). A
// package the load does not yield (no files there) does not compile.
func loadAt[J any](cfg loader.Config, at point, jobs []J, path func(J) string) func(string) (*checkResult, bool) {
	c := cfg
	c.Patterns = nil
	for _, j := range jobs {
		if p := path(j); !slices.Contains(c.Patterns, p) {
			c.Patterns = append(c.Patterns, p)
		}
	}
	c.Env = platformEnv(cfg.Env, at)
	c.Tags = append(slices.Clone(cfg.Tags), trueTags(at)...)
	c.Verbose = nil
	c.Known, c.Keyed = nil, nil // these loads are not keyed: see Options.Known
	lps, _, err := loader.Load(c)
	if err != nil {
		return func(string) (*checkResult, bool) { return nil, false }
	}
	generated := generatedByPath(lps)
	type entry struct {
		r        checkResult
		compiles bool
	}
	byPath := map[string]entry{}
	for _, lp := range lps {
		ok := len(lp.Errors) == 0 && lp.Types != nil
		own := generated(lp.Path)
		for _, e := range lp.TypeErrors {
			ok = ok && isTolerated(e, lp.Files, lp.Info, own, generated)
		}
		byPath[lp.Path] = entry{checkLoaded(lp, generated), ok}
	}
	return func(p string) (*checkResult, bool) {
		e, found := byPath[p]
		if !found {
			return nil, false
		}
		return &e.r, e.compiles
	}
}

// hostPlatform is the platform the go command builds for without GOOS or
// GOARCH set otherwise: the environment's, else the toolchain's.
func hostPlatform(env []string) platform {
	if env == nil {
		env = os.Environ()
	}
	p := platform{goruntime.GOOS, goruntime.GOARCH}
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GOOS="); ok && v != "" {
			p.goos = v
		}
		if v, ok := strings.CutPrefix(kv, "GOARCH="); ok && v != "" {
			p.goarch = v
		}
	}
	return p
}

// platformEnv is env with the point's GOOS, GOARCH and CGO_ENABLED: as
// the cgo tag says when a constraint mentions it, else off for another
// platform.
func platformEnv(env []string, at point) []string {
	if env == nil {
		env = os.Environ()
	}
	out := slices.Clone(env)
	out = append(out, "GOOS="+at.goos, "GOARCH="+at.goarch)
	switch cgo, free := at.tags["cgo"]; {
	case free && cgo:
		out = append(out, "CGO_ENABLED=1")
	case free, at.platform != hostPlatform(env):
		// Cross-compiling turns cgo off anyway; the host keeps its own.
		out = append(out, "CGO_ENABLED=0")
	}
	return out
}

// trueTags are the point's custom tags that are set, for -tags (cgo is
// set through CGO_ENABLED instead).
func trueTags(at point) []string {
	var out []string
	for t, on := range at.tags {
		if on && t != "cgo" {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out
}

func pointKey(p point) string {
	return p.String() + " " + strings.Join(trueTags(p), ",") + fmt.Sprint(p.tags["cgo"])
}

// dedupe sorts diagnostics and drops repeats: a file built on several of
// the platforms loaded is reported once.
func dedupe(diags []Diagnostic) []Diagnostic {
	sortDiagnostics(diags)
	return slices.CompactFunc(diags, func(a, b Diagnostic) bool { return fmt.Sprint(a) == fmt.Sprint(b) })
}
