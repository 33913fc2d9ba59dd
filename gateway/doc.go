// Package gateway brings Sentinel's API-gateway flow control to Go: gateway
// flow rules (GatewayFlowRule) on routes and on API groups (ApiDefinition),
// limiting traffic in total or per value of a request attribute (client
// IP, host, header, URL parameter, cookie).
//
// As in Sentinel's GatewayRuleManager, every gateway rule becomes a
// hot-parameter rule of the runtime on its resource; Guard computes each
// request's argument per rule (the attribute's value, or a constant when
// the rule has no parameter or the value does not match the rule's
// pattern) and enters the request's route and every API group its path
// belongs to. Load validates and puts in force rules and API definitions
// together, keeping the runtime's other hot-parameter rules.
//
// Where Sentinel has a known quirk, this package does what a user would
// expect (see docs/differences.md): a parameter pattern with the prefix
// strategy matches by prefix (Sentinel does not implement it and keeps the
// value as if there were no pattern), and an API path predicate with the
// prefix strategy and no wildcard matches by plain prefix (Sentinel's Ant
// matching never matches such a pattern); with Ant wildcards ("/foo/**")
// it matches as Ant patterns do.
package gateway
