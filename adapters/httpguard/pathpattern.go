package httpguard

import (
	"fmt"
	"slices"
	"strings"
)

// pathPattern is a parsed path pattern of WithPathPatterns.
type pathPattern struct {
	text     string
	segments []patternSegment
}

// patternSegment is one segment of a path pattern: a literal, a wildcard
// matching one segment, or a last wildcard matching the rest of the path.
type patternSegment struct {
	literal string
	kind    segmentKind
}

// segmentKind orders segments by specificity: a smaller kind is more
// specific.
type segmentKind uint8

const (
	segmentLiteral segmentKind = iota
	segmentWildcard
	segmentRest
)

// parsePathPattern parses p: a path starting with "/" whose segments are
// literals or "{name}", the last one possibly "{name...}".
func parsePathPattern(p string) (pathPattern, error) {
	if !strings.HasPrefix(p, "/") {
		return pathPattern{}, fmt.Errorf("httpguard: path pattern %q does not start with /", p)
	}
	pp := pathPattern{text: p}
	parts := strings.Split(p[1:], "/")
	for i, s := range parts {
		switch {
		case strings.HasPrefix(s, "{") && strings.HasSuffix(s, "...}"):
			if i != len(parts)-1 {
				return pathPattern{}, fmt.Errorf("httpguard: path pattern %q: %s is not the last segment", p, s)
			}
			if !validWildcardName(s[1 : len(s)-4]) {
				return pathPattern{}, fmt.Errorf("httpguard: path pattern %q: bad wildcard %s", p, s)
			}
			pp.segments = append(pp.segments, patternSegment{kind: segmentRest})
		case strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}"):
			if !validWildcardName(s[1 : len(s)-1]) {
				return pathPattern{}, fmt.Errorf("httpguard: path pattern %q: bad wildcard %s", p, s)
			}
			pp.segments = append(pp.segments, patternSegment{kind: segmentWildcard})
		case strings.ContainsAny(s, "{}"):
			return pathPattern{}, fmt.Errorf("httpguard: path pattern %q: segment %q mixes a wildcard with text", p, s)
		default:
			pp.segments = append(pp.segments, patternSegment{literal: s})
		}
	}
	return pp, nil
}

// validWildcardName reports whether name is a Go identifier, as ServeMux
// wants wildcard names to be.
func validWildcardName(name string) bool {
	if name == "" {
		return false
	}
	for i, c := range name {
		letter := c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c > 0x7f
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// match reports whether path matches the pattern. It does not allocate.
func (pp *pathPattern) match(path string) bool {
	if !strings.HasPrefix(path, "/") {
		return false
	}
	rest := path[1:]
	for i, s := range pp.segments {
		if s.kind == segmentRest {
			return true
		}
		seg, tail, more := strings.Cut(rest, "/")
		if s.kind == segmentLiteral && seg != s.literal || s.kind == segmentWildcard && seg == "" {
			return false
		}
		last := i == len(pp.segments)-1
		if last {
			return !more
		}
		if !more {
			// The path ends here; only a "{name...}" next matches nothing.
			return i+1 == len(pp.segments)-1 && pp.segments[i+1].kind == segmentRest
		}
		rest = tail
	}
	return false
}

// sortPathPatterns puts the most specific patterns first: compared segment
// by segment from the left, a literal before a wildcard before a rest
// wildcard; of two patterns equal up to where one ends, the longer first.
func sortPathPatterns(ps []pathPattern) {
	slices.SortStableFunc(ps, func(a, b pathPattern) int {
		for i := 0; i < len(a.segments) && i < len(b.segments); i++ {
			if d := int(a.segments[i].kind) - int(b.segments[i].kind); d != 0 {
				return d
			}
		}
		return len(b.segments) - len(a.segments)
	})
}
