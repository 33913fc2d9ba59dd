// Package javainterop holds the tests that run this project's Sentinel
// token client and server (packages tokenclient and tokenserver) against
// Sentinel's own Java ones, built from conformance/cluster-java: the Go
// client against Java's server, Java's client against the Go server, and a
// fleet of Go and Java instances sharing one budget. It has no code of its
// own.
package javainterop
