// Package doclinks keeps the repository's Markdown documentation navigable:
// its test reads README.md and docs/*.md and fails on any relative link
// whose file or directory does not exist, any #anchor that names no heading
// of its target, and any pkg.go.dev link into this repository that names a
// package, identifier or doc-comment section the code does not have.
//
// The documentation links to package docs instead of copying them, so a
// renamed package or symbol shows up here as a broken link rather than as a
// page that quietly describes old code.
package doclinks
