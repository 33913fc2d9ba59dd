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
	ant  []string // the Ant pattern's segments, when it has wildcards
}

func compilePredicate(p PathPredicate) (pathMatcher, error) {
	m := pathMatcher{pred: p}
	switch p.MatchStrategy {
	case MatchExact:
	case MatchPrefix:
		if strings.ContainsAny(p.Pattern, "*?") {
			m.ant = splitPath(p.Pattern)
		}
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
	case m.ant != nil:
		return antSegments(m.ant, path)
	default:
		return strings.HasPrefix(path, m.pred.Pattern)
	}
}

func splitPath(p string) []string {
	return strings.FieldsFunc(p, func(r rune) bool { return r == '/' })
}

// nextSegment returns the first non-empty segment of path and the rest,
// ok false when there is none; it does not allocate.
func nextSegment(path string) (seg, rest string, ok bool) {
	path = strings.TrimLeft(path, "/")
	if path == "" {
		return "", "", false
	}
	seg, rest, _ = strings.Cut(path, "/")
	return seg, rest, true
}

// antSegments matches path against an Ant-style pattern's segments, in
// order: "**" matches any number of segments (none included), "*" any
// characters within a segment, "?" one character.
func antSegments(pat []string, path string) bool {
	for len(pat) != 0 {
		if pat[0] == "**" {
			for {
				if antSegments(pat[1:], path) {
					return true
				}
				_, rest, ok := nextSegment(path)
				if !ok {
					return false
				}
				path = rest
			}
		}
		seg, rest, ok := nextSegment(path)
		if !ok || !globMatch(pat[0], seg) {
			return false
		}
		pat, path = pat[1:], rest
	}
	_, _, more := nextSegment(path)
	return !more
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
