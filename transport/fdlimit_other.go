//go:build !unix

package transport

// fdLimit is the file descriptor budget assumed where the process's limit
// is not read.
func fdLimit() int { return 1024 }
