package main

import (
	"fmt"
	"os"
	"testing"

	"github.com/sentinelgen/sentinelgen/internal/cachedir"
)

// TestMain points the cache at a directory of this test binary's own:
// the commands run in-process here, and tests never write into the user's
// cache. Tests that want another setting use t.Setenv.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sentinelgen-test-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Setenv(cachedir.Env, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
