package lint

import (
	"slices"

	"github.com/sentinelgen/sentinelgen/annotate"
	"github.com/sentinelgen/sentinelgen/rules"
)

// Options configures Run.
type Options struct {
	// RulesErr is the error rules.LoadAll returned beside the set; every
	// *rules.Error inside it becomes an invalid-rule diagnostic. The set is
	// then the partial one LoadAll returns with it (every rule without a
	// problem of its own, also from the files with invalid ones), and the
	// other checks run on it: one invalid rule hides no finding in the
	// others, not even in its own file.
	RulesErr error
	// Code holds the diagnostics annotate.Load reported; each becomes a
	// directive diagnostic.
	Code []annotate.Diagnostic
	// Disable lists the ids of checks not to run.
	Disable []string
}

// Run checks set against the resources of pkgs and returns every finding,
// sorted by file, line and check.
//
// A resource is known when a //sentinel:resource directive of pkgs declares
// it or when the packages' non-test Go files register it by hand with
// runtime.NewResource("literal", ...); runtime.WithEntrance(ctx, "literal")
// also names a chain rule's entrance. Names built at run time cannot be
// seen: rules for them are reported as unknown resources.
func Run(pkgs []*annotate.Package, set rules.Set, opts Options) []Diagnostic {
	p := newPass(pkgs, set, opts)
	for _, c := range checks {
		if slices.Contains(opts.Disable, c.ID) {
			continue
		}
		p.check = c
		c.run(p)
	}
	sortDiagnostics(p.diags)
	return p.diags
}
