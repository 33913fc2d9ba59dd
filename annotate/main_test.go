package annotate

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/internal/cachedir"
)

// testCache is the cache directory of this test binary: tests never write
// into the user's cache. It is set before any test runs, as t.Setenv could
// not be in parallel tests.
var testCache string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "annotate-test-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	testCache = dir
	os.Setenv(cachedir.Env, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// The listing that speeds up the next load is kept under the cache's
// golist directory, here the test binary's own.
// Not parallel, so that no other load adds a listing meanwhile.
func TestLoadKeepsListingsInTheTestCache(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":  "module example.com/cached\n\ngo 1.26.0\n",
		"x/x.go":  "package x\n\n//sentinel:resource\nfunc Ping() error { return nil }\n",
		"y/y.go":  "package y\n",
		"z/z.txt": "",
	})
	before := listings(t)
	_, diags, err := Load(dir, []string{"./..."}, Options{})
	if err != nil || len(diags) > 0 {
		t.Fatalf("Load: %v %v", diags, err)
	}
	after := listings(t)
	if len(after) != len(before)+1 {
		t.Fatalf("listings in %s: %d before, %d after; want one more", testCache, len(before), len(after))
	}
	for _, f := range after {
		if !strings.HasPrefix(f, filepath.Join(testCache, "golist")+string(filepath.Separator)) {
			t.Errorf("listing %s outside the test cache", f)
		}
	}
}

func listings(t *testing.T) []string {
	t.Helper()
	golist, ok := cachedir.Sub("golist")
	if !ok {
		t.Fatal("no cache directory")
	}
	files, err := filepath.Glob(filepath.Join(golist, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}
