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
// directives of test files are reported here too.
func everyPlatform(cfg loader.Config, loaded []*loader.Package, models []*Package, diags []Diagnostic) ([]*Package, []Diagnostic) {
	fixed := map[string]bool{}
	for _, t := range cfg.Tags {
		for _, t := range strings.Split(t, ",") {
			fixed[strings.TrimSpace(t)] = true
		}
	}
	host := hostPlatform(cfg.Env)
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
		if len(vs) > 0 && !bad[p.Path] {
			plans[p.Path] = vs
			paths = append(paths, p.Path)
		}
	}
	models = slices.DeleteFunc(models, func(m *Package) bool { return bad[m.Path] })
	if len(plans) == 0 {
		return models, dedupe(diags)
	}

	// One load per configuration, for all the packages that need it.
	byPoint := map[string][]string{}
	points := map[string]point{}
	for _, path := range paths {
		for _, v := range plans[path] {
			k := pointKey(v.at)
			if !slices.Contains(byPoint[k], path) {
				byPoint[k] = append(byPoint[k], path)
			}
			points[k] = v.at
		}
	}
	type loadedAt struct {
		result checkResult
		ok     bool
	}
	results := map[string]map[string]loadedAt{} // point key -> path -> result
	for k, ps := range byPoint {
		at := points[k]
		c := cfg
		c.Patterns = ps
		c.Env = platformEnv(cfg.Env, at)
		c.Tags = append(slices.Clone(cfg.Tags), trueTags(at)...)
		c.Verbose = nil
		lps, _, err := loader.Load(c)
		results[k] = map[string]loadedAt{}
		if err != nil {
			// The package has no files there (all of them are constrained
			// to other platforms): nothing is generated for this group.
			continue
		}
		generated := generatedByPath(lps)
		for _, lp := range lps {
			results[k][lp.Path] = loadedAt{checkLoaded(lp, generated), true}
		}
	}

	var extra []*Package
	for _, path := range paths {
		var mine []*Package
		for _, v := range plans[path] {
			r, ok := results[pointKey(v.at)][path]
			if !ok || !r.ok {
				continue
			}
			if len(r.result.diags) > 0 {
				bad[path] = true
				diags = append(diags, r.result.diags...)
				continue
			}
			if r.result.model == nil {
				continue
			}
			m := r.result.model
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
	return out, dedupe(diags)
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
