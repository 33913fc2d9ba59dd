// Package testscript holds the test of scripts/test.sh, the repository's one
// test command: it runs the script on a small tree of Go modules, one of
// which fails, and checks that every module is still tested, that testdata
// and vendored modules are left out, and that the failures are listed at the
// end with a non-zero exit status.
package testscript
