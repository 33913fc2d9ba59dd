// Package routepath translates the route templates of other routers into
// ServeMux's pattern syntax, which httpguard reads path parameters from.
package routepath

import "strings"

// FromColon translates a template in gin's and echo's syntax, where a
// segment ":name" is one path segment and a last segment "*name" (or "*")
// the rest of the path, into ServeMux's: "/orders/:id" becomes
// "/orders/{id}", "/files/*path" becomes "/files/{path...}" and a bare "*"
// becomes "{*...}", so httpguard.PathValue("*") reads it. Other segments are
// kept as they are.
func FromColon(template string) string {
	if !strings.ContainsAny(template, ":*") {
		return template
	}
	segs := strings.Split(template, "/")
	for i, s := range segs {
		switch {
		case len(s) > 1 && s[0] == ':':
			segs[i] = "{" + s[1:] + "}"
		case s == "*":
			segs[i] = "{*...}"
		case len(s) > 1 && s[0] == '*':
			segs[i] = "{" + s[1:] + "...}"
		}
	}
	return strings.Join(segs, "/")
}
