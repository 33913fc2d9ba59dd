// Package svc annotates functions that no code can call.
package svc

//sentinel:resource
func init() {}

//sentinel:resource
func _() error { return nil }
