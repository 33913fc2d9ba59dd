package runtime

import (
	"fmt"
	"strings"

	"github.com/sentinelgen/sentinelgen/internal/rulecheck"
)

// AuthorityStrategy says how an AuthorityRule treats the origins it lists.
// Values are Sentinel's.
type AuthorityStrategy int32

const (
	// AuthorityWhite admits only the listed origins.
	AuthorityWhite AuthorityStrategy = 0
	// AuthorityBlack refuses the listed origins.
	AuthorityBlack AuthorityStrategy = 1
)

// AuthorityRule is Sentinel's AuthorityRule: a white or black list of the
// callers (origins, see WithOrigin) of a resource. A call without an origin
// passes, as in Sentinel.
type AuthorityRule struct {
	// Resource names the guarded resource (required).
	Resource string
	// LimitApp is the comma-separated list of origins, matched exactly.
	LimitApp string
	// Strategy says whether the list admits or refuses.
	Strategy AuthorityStrategy
}

// ValidateAuthorityRules checks every rule and returns all problems found,
// joined; nil means LoadAuthorityRules would accept the slice.
func ValidateAuthorityRules(rules []AuthorityRule) error {
	return validateEach(rules, checkAuthorityRule)
}

// validateAuthorityRulesAt is ValidateAuthorityRules for the rules at the
// positions at (see validateAt).
func validateAuthorityRulesAt(rules []AuthorityRule, at []int32) error {
	return validateAt(rules, at, checkAuthorityRule)
}

// checkAuthorityRule appends the problems of rule i, r, to errs.
func checkAuthorityRule(errs []error, i int, r *AuthorityRule) []error {
	fail := rulecheck.Report(func(field, reason string) {
		errs = append(errs, &RuleError{Kind: "authority", Index: i, Resource: r.Resource, Field: field, Reason: reason})
	})
	fail.Check("Resource", rulecheck.Resource(r.Resource))
	if r.Strategy != AuthorityWhite && r.Strategy != AuthorityBlack {
		fail("Strategy", fmt.Sprintf("%d is not an authority strategy (0 white list, 1 black list)", r.Strategy))
	}
	if strings.TrimSpace(strings.ReplaceAll(r.LimitApp, ",", "")) == "" {
		fail("LimitApp", "names no origin")
	}
	for _, origin := range strings.Split(r.LimitApp, ",") {
		if origin != strings.TrimSpace(origin) {
			// Sentinel matches items exactly: " b" would never match
			// the origin "b", silently.
			fail("LimitApp", fmt.Sprintf("item %q has surrounding spaces, which never match an origin", origin))
		}
	}
	return errs
}
