// Package lint checks a rule set against the code it guards and against the
// lessons of past incidents: rules that name no declared resource, the same
// limiter configured twice, breakers that only see errors while the usual
// failure is a slow dependency, windows so coarse that a burst is averaged
// away, and more. Each check is a small function registered in one table
// (Checks) with its id, severity and the lesson it encodes.
//
// Run takes the packages annotate.Load returned and a rules.Set; the
// findings are Diagnostics positioned in the rule files (or, for problems
// in the code, in the Go files), sorted by file and line.
package lint
