// Package edge is the example service of docs/adapters.md: a small order
// API served over net/http, guarded at its edge by package httpguard with no
// directive in sight. Each route is a resource named after its pattern; the
// rules in rules.toml limit them, give one caller's reads a budget of their
// own through a hot-parameter-ready route, and limit the store reads made
// through one route only (a chain rule, which the entrance in the request's
// context makes work).
//
// The gRPC half of the example lives in the nested module
// adapters/grpcguard (package example there), so that this module does not
// depend on gRPC.
package edge
