package annotate

import (
	"fmt"
	"go/build/constraint"
	"math/bits"
	"slices"
	"strings"
)

// A package whose directives sit in files with build constraints gets one
// generated file per group of platforms that see the same directive files:
// each is generated from a load for one platform of its group and carries
// a //go:build line admitting exactly that group, so that every platform
// compiles exactly one of them. The groups are found by evaluating the
// constraints on every port (go tool dist list) and every value of the
// custom tags they mention; -tags are true everywhere.

// maxFreeTags bounds the custom tags whose combinations are tried.
const maxFreeTags = 6

// variant is one generated file of a package.
type variant struct {
	file       string // base name
	constraint string // the //go:build expression; "" for none
	at         point  // the configuration the package is loaded for
	// alts are at and up to maxTries-1 other configurations of the group,
	// each with another GOOS where the group has one, tried in turn when
	// the package does not compile for the previous one.
	alts []point
}

// maxTries bounds the platforms tried for one group.
const maxTries = 4

// planVariants returns the generated files of a package whose directive
// files have the constraints cs (at least one), and the positions of
// directives in files no configuration builds.
func planVariants(cs []constrainedFile, fixed map[string]bool, host platform) ([]variant, []Diagnostic) {
	free := map[string]bool{}
	for _, c := range cs {
		freeTags(c.expr, fixed, free)
	}
	names := make([]string, 0, len(free))
	for t := range free {
		names = append(names, t)
	}
	slices.Sort(names)
	if len(names) > maxFreeTags {
		return nil, []Diagnostic{newDiagnostic(cs[0].at, "the build constraints of this package's directive files use %d custom tags (%s); sentinelgen tries at most %d", len(names), strings.Join(names, ", "), maxFreeTags)}
	}
	points := universe(names, host)
	var diags []Diagnostic
	var live []constrainedFile
	for _, c := range cs {
		if !slices.ContainsFunc(points, func(p point) bool { return eval(c.expr, p, fixed) }) {
			diags = append(diags, unbuiltFileDiagnostic(c.at, c.expr))
			continue
		}
		live = append(live, c)
	}
	if len(live) == 0 {
		return nil, diags
	}
	// Group the points by which constraints hold there.
	type group struct {
		vector []bool
		points []point
	}
	var groups []*group
	byKey := map[string]*group{}
	for _, p := range points {
		v := make([]bool, len(live))
		var key strings.Builder
		for i, c := range live {
			v[i] = eval(c.expr, p, fixed)
			key.WriteByte("01"[btoi(v[i])])
		}
		g := byKey[key.String()]
		if g == nil {
			g = &group{vector: v}
			byKey[key.String()] = g
			groups = append(groups, g)
		}
		g.points = append(g.points, p)
	}
	var out []variant
	used := map[string]bool{}
	for _, g := range groups {
		x := groupConstraint(live, g.vector, len(g.points), points, fixed)
		if alt := systemsConstraint(g.points, points, fixed); alt != nil && x != nil && len(alt.String()) < len(x.String()) {
			x = alt
		}
		v := variant{at: g.points[0], file: GeneratedFileName, alts: alternatives(g.points)}
		if x != nil {
			v.constraint = x.String()
		}
		if x != nil && slices.Contains(g.vector, true) { // a group of all platforms is plain sentinel_gen.go
			v.file = variantFile(live, g.vector, g.points, fixed, used)
		}
		used[v.file] = true
		out = append(out, v)
	}
	slices.SortFunc(out, func(a, b variant) int { return strings.Compare(a.file, b.file) })
	return out, diags
}

// alternatives picks up to maxTries points of a group, the first one and
// then one per further GOOS, so that a retry meets other system files.
func alternatives(group []point) []point {
	out := []point{group[0]}
	seen := map[string]bool{group[0].goos: true}
	for _, p := range group[1:] {
		if len(out) == maxTries {
			break
		}
		if !seen[p.goos] {
			seen[p.goos] = true
			out = append(out, p)
		}
	}
	return out
}

// universe lists every configuration: each port with each combination of
// the free tags, the host first and fewer tags set first, so that the
// first point of a group is the cheapest to load.
func universe(free []string, host platform) []point {
	masks := make([]uint, 1<<len(free))
	for i := range masks {
		masks[i] = uint(i)
	}
	slices.SortStableFunc(masks, func(a, b uint) int { return bits.OnesCount(a) - bits.OnesCount(b) })
	plats := []platform{host}
	for _, p := range ports {
		if p != host {
			plats = append(plats, p)
		}
	}
	var out []point
	for _, m := range masks {
		tags := map[string]bool{}
		for i, t := range free {
			tags[t] = m&(1<<i) != 0
		}
		for _, p := range plats {
			out = append(out, point{platform: p, tags: tags})
		}
	}
	return out
}

func eval(x constraint.Expr, p point, fixed map[string]bool) bool {
	return x.Eval(func(tag string) bool { return p.has(tag, fixed) })
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// groupConstraint is the conjunction of each constraint or its negation as
// the group's vector says, without the terms that do not narrow it (a
// !windows next to linux), so that the //go:build line stays readable.
func groupConstraint(cs []constrainedFile, vector []bool, size int, points []point, fixed map[string]bool) constraint.Expr {
	terms := make([]constraint.Expr, len(cs))
	for i, c := range cs {
		terms[i] = c.expr
		if !vector[i] {
			terms[i] = not(c.expr)
		}
	}
	count := func(ts []constraint.Expr) int {
		n := 0
		for _, p := range points {
			if all(ts, p, fixed) {
				n++
			}
		}
		return n
	}
	for i := 0; i < len(terms); {
		without := slices.Delete(slices.Clone(terms), i, i+1)
		if count(without) == size {
			terms = without
			continue
		}
		i++
	}
	var x constraint.Expr
	for _, t := range terms {
		x = and(x, t)
	}
	return x
}

// not negates x; the go command rejects "!!x", so a negation is undone.
func not(x constraint.Expr) constraint.Expr {
	if n, ok := x.(*constraint.NotExpr); ok {
		return n.X
	}
	return &constraint.NotExpr{X: x}
}

func all(ts []constraint.Expr, p point, fixed map[string]bool) bool {
	for _, t := range ts {
		if !eval(t, p, fixed) {
			return false
		}
	}
	return true
}

// systemsConstraint is "os1 || os2 || ..." for a group that is exactly
// every configuration of some systems, else nil: for many constraint files
// it is much shorter than the conjunction of each one or its negation.
func systemsConstraint(group, points []point, fixed map[string]bool) constraint.Expr {
	var systems []string
	for _, p := range group {
		if !slices.Contains(systems, p.goos) {
			systems = append(systems, p.goos)
		}
	}
	slices.Sort(systems)
	var x constraint.Expr
	for _, os := range systems {
		t := &constraint.TagExpr{Tag: os}
		if x == nil {
			x = t
		} else {
			x = &constraint.OrExpr{X: x, Y: t}
		}
	}
	n := 0
	for _, p := range points {
		if eval(x, p, fixed) {
			n++
		}
	}
	if n != len(group) {
		return nil // the systems' tags admit more (android as linux, other tag values)
	}
	return x
}

// variantFile names a group's file after the constraints that hold there,
// e.g. sentinel_gen_linux.go. A name whose suffix would itself constrain
// the file (as _linux does) must admit the whole group; otherwise, or when
// the name is taken, a suffix that means nothing to the go command is added.
func variantFile(cs []constrainedFile, vector []bool, group []point, fixed map[string]bool, used map[string]bool) string {
	var parts []string
	for i, c := range cs {
		if vector[i] {
			parts = append(parts, slug(c.expr.String()))
		}
	}
	stem := strings.Join(parts, "_and_")
	if len(stem) > 24 {
		stem = systemsStem(group)
	}
	name := "sentinel_gen_" + stem + ".go"
	if implied := nameConstraint(name); implied != nil {
		for _, p := range group {
			if !eval(implied, p, fixed) {
				name = "sentinel_gen_" + stem + "_build.go"
				break
			}
		}
	}
	for n := 2; used[name]; n++ {
		name = fmt.Sprintf("sentinel_gen_%s_%d_build.go", stem, n)
	}
	return name
}

// systemsStem names a group by its systems when its constraints are too
// long for a file name: "darwin_freebsd_netbsd", "aix_android_and_5_more".
func systemsStem(group []point) string {
	var systems []string
	for _, p := range group {
		if !slices.Contains(systems, p.goos) {
			systems = append(systems, p.goos)
		}
	}
	slices.Sort(systems)
	if len(systems) > 3 {
		return fmt.Sprintf("%s_%s_and_%d_more", systems[0], systems[1], len(systems)-2)
	}
	return strings.Join(systems, "_")
}

// slug turns a constraint into file-name words: "linux && !cgo" becomes
// "linux_and_not_cgo".
func slug(expr string) string {
	r := strings.NewReplacer("&&", "_and_", "||", "_or_", "!", "_not_")
	s := r.Replace(expr)
	var b strings.Builder
	for _, c := range strings.ToLower(s) {
		if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	words := strings.FieldsFunc(b.String(), func(c rune) bool { return c == '_' })
	return strings.Join(words, "_")
}
