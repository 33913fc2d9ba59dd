package gateway

import (
	"fmt"
	"regexp"
	"strings"
)

// APIDefinition is Sentinel's ApiDefinition: a named group of paths, a
// resource of its own that gateway rules with ModeAPI limit.
type APIDefinition struct {
	// Name is the API's resource name (required).
	Name string `json:"apiName"`
	// Predicates are the paths of the group; a request belongs to it when
	// any predicate matches its path.
	Predicates []PathPredicate `json:"predicateItems"`
}

// PathPredicate is Sentinel's ApiPathPredicateItem.
type PathPredicate struct {
	// Pattern is the path, path prefix or regular expression.
	Pattern string `json:"pattern"`
	// MatchStrategy is MatchExact, MatchPrefix or MatchRegex.
	MatchStrategy MatchStrategy `json:"matchStrategy"`
}

// pathMatcher is a compiled PathPredicate.
type pathMatcher struct {
	pred PathPredicate
	re   *regexp.Regexp
	ant  bool
}

func compilePredicate(p PathPredicate) (pathMatcher, error) {
	m := pathMatcher{pred: p}
	switch p.MatchStrategy {
	case MatchExact:
	case MatchPrefix:
		m.ant = strings.ContainsAny(p.Pattern, "*?")
	case MatchRegex:
		re, err := regexp.Compile(`^(?:` + p.Pattern + `)$`)
		if err != nil {
			return m, err
		}
		m.re = re
	default:
		return m, fmt.Errorf("%d is not 0 (exact), 1 (prefix) or 2 (regex)", p.MatchStrategy)
	}
	return m, nil
}

// match reports whether path matches: exact equality, a prefix (an Ant
// pattern when it has wildcards), or a full regular-expression match.
func (m pathMatcher) match(path string) bool {
	switch {
	case m.re != nil:
		return m.re.MatchString(path)
	case m.pred.MatchStrategy == MatchExact:
		return path == m.pred.Pattern
	case m.ant:
		return antMatch(m.pred.Pattern, path)
	default:
		return strings.HasPrefix(path, m.pred.Pattern)
	}
}

// antMatch matches path against an Ant-style pattern, segment by segment:
// "**" matches any number of segments (none included), "*" any characters
// within a segment, "?" one character.
func antMatch(pattern, path string) bool {
	return antSegments(splitPath(pattern), splitPath(path))
}

func splitPath(p string) []string {
	return strings.FieldsFunc(p, func(r rune) bool { return r == '/' })
}

func antSegments(pat, segs []string) bool {
	for len(pat) != 0 {
		if pat[0] == "**" {
			for k := 0; k <= len(segs); k++ {
				if antSegments(pat[1:], segs[k:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 || !globMatch(pat[0], segs[0]) {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// globMatch matches one segment against "*" and "?" wildcards.
func globMatch(pat, s string) bool {
	for len(pat) != 0 {
		switch pat[0] {
		case '*':
			for k := 0; k <= len(s); k++ {
				if globMatch(pat[1:], s[k:]) {
					return true
				}
			}
			return false
		case '?':
			if len(s) == 0 {
				return false
			}
		default:
			if len(s) == 0 || s[0] != pat[0] {
				return false
			}
		}
		pat, s = pat[1:], s[1:]
	}
	return len(s) == 0
}
