package lint

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/sentinelgen/sentinelgen/annotate"
	"github.com/sentinelgen/sentinelgen/rules"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// pass is what every check sees: the inputs, indexed, and the findings so
// far.
type pass struct {
	set   rules.Set
	opts  Options
	check Check // the check running now; report stamps its id and severity

	// declared maps each resource name of a directive to its model.
	declared map[string]*annotate.Resource
	// registered holds names passed to runtime.NewResource as literals.
	registered map[string]bool
	// entrances holds names passed to runtime.WithEntrance as literals.
	entrances map[string]bool
	// gateway maps the names the rules' gateway kinds give the gateway
	// (routes, API groups) to what they are (check_adapter.go).
	gateway map[string]string

	diags []Diagnostic
}

func newPass(pkgs []*annotate.Package, set rules.Set, opts Options) *pass {
	p := &pass{set: set, opts: opts, declared: map[string]*annotate.Resource{}}
	for _, pkg := range pkgs {
		for _, r := range pkg.Resources {
			p.declared[r.Name] = r
		}
	}
	p.registered, p.entrances = registrations(pkgs)
	p.gateway = gatewayResources(set)
	return p
}

// report records a finding of the running check.
func (p *pass) report(pos rules.Position, suggestion, format string, args ...any) {
	p.diags = append(p.diags, Diagnostic{
		Pos:        pos,
		Check:      p.check.ID,
		Severity:   p.check.Severity,
		Message:    fmt.Sprintf(format, args...),
		Suggestion: suggestion,
	})
}

// flowAt is where flow rule i was read. A set built in code has no
// positions; its rules are then named by their place in the set, as
// rules.Validate names them.
func (p *pass) flowAt(i int) rules.Position {
	if i < len(p.set.FlowAt) && !p.set.FlowAt[i].IsZero() {
		return p.set.FlowAt[i]
	}
	return rules.Position{Path: fmt.Sprintf("flow[%d]", i)}
}

// degradeAt is flowAt for degrade rules.
func (p *pass) degradeAt(i int) rules.Position {
	if i < len(p.set.DegradeAt) && !p.set.DegradeAt[i].IsZero() {
		return p.set.DegradeAt[i]
	}
	return rules.Position{Path: fmt.Sprintf("degrade[%d]", i)}
}

// where names the position of another rule for a message about the rule
// at from: without the file name when both are in the same file ("line 2",
// "[0] (line 2)"), in full otherwise.
func where(other, from rules.Position) string {
	if other.File == "" || other.File != from.File {
		return other.String()
	}
	switch {
	case other.Path == "":
		return "line " + strconv.Itoa(other.Line)
	case other.Line > 0:
		return other.Path + " (line " + strconv.Itoa(other.Line) + ")"
	}
	return other.Path
}

// known reports whether name is a resource of the code.
func (p *pass) known(name string) bool {
	return p.declared[name] != nil || p.registered[name]
}

// knownNames lists every resource name of the code, sorted, for
// suggestions.
func (p *pass) knownNames() []string {
	names := make([]string, 0, len(p.declared)+len(p.registered))
	for n := range p.declared {
		names = append(names, n)
	}
	for n := range p.registered {
		if p.declared[n] == nil {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}

// degradeByResource groups the degrade rules' indexes by resource, in
// order of first appearance, so that per-resource findings come out in
// document order.
func (p *pass) degradeByResource() (order []string, byName map[string][]int) {
	byName = map[string][]int{}
	for i, r := range p.set.Degrade {
		if _, seen := byName[r.Resource]; !seen {
			order = append(order, r.Resource)
		}
		byName[r.Resource] = append(byName[r.Resource], i)
	}
	return order, byName
}

// isQPS reports whether r counts calls per second locally, the only rules
// whose counts can be compared with one another.
func isQPS(r runtime.FlowRule) bool {
	return r.Grade == runtime.FlowGradeQPS && !r.ClusterMode
}
