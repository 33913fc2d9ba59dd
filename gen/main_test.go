package gen

import (
	"fmt"
	"os"
	"testing"

	"github.com/sentinelgen/sentinelgen/internal/cachedir"
)

// TestMain points every cache at a directory of the test run's own: the
// loader, which the tests run, keeps its listings under the cache root, and
// nothing a test does may land in the user's cache.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sentinelgen-gen-test-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv(cachedir.Env, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
