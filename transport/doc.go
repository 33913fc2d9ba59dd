// Package transport speaks Sentinel's dashboard protocol, so that a Go
// service shows up in the unmodified Java Sentinel dashboard beside the Java
// services: a heartbeat to the dashboard's /registry/machine, and a command
// center answering the commands the 1.8.9 dashboard sends (metric,
// clusterNode, jsonTree, getRules/setRules, getParamFlowRules/
// setParamFlowRules, getClusterMode) plus version and api for humans, and,
// for an API gateway (Config.AppType), the gateway commands over package
// gateway's rules and API definitions.
//
// The command center listens on its own address (127.0.0.1:8719 unless told
// otherwise), apart from the application's own server: Sentinel's protocol
// has no authentication, and setRules changes the rules in force. It
// therefore serves the commands that change rules over POST only and to
// the callers of Config.WriteClients, refuses requests addressed to another
// Host or coming from another site's page (Origin), bounds requests,
// connections and pushes (Config's timeouts and caps), logs every push and
// counts the refused ones (Server.Refusals). Rules
// pushed by the dashboard are read by package rules and go through the same
// validate-then-swap as every other source, as one rules.Update serialized
// with every data source's update (a push replaces its own kind only); then every kind in
// force is written through Config.Writer when one is set, and a push that
// cannot be written is taken back and refused. ReadOnly refuses
// pushes outright. Statistics come from a
// metrics.Sampler, which reads the runtime's existing counters.
package transport
