package gen

import (
	"fmt"
	"os"
	"strings"
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

// TestCachesAreTheTestRunsOwn guards TestMain: every cache the tests touch
// is under the temporary directory, none under the user's cache directory.
func TestCachesAreTheTestRunsOwn(t *testing.T) {
	root, ok := cachedir.Root()
	if !ok {
		t.Fatal("caching is off; the tests would not exercise it")
	}
	if !strings.HasPrefix(root, os.TempDir()) {
		t.Fatalf("the cache root is %s, not under %s", root, os.TempDir())
	}
	if user, err := os.UserCacheDir(); err == nil && strings.HasPrefix(root, user) {
		t.Fatalf("the cache root %s is in the user's cache %s", root, user)
	}
}
