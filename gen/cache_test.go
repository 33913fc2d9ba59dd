package gen

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/annotate"
)

// syncLogged runs Sync and returns its log, failing the test on an error.
func syncLogged(t *testing.T, pkg *annotate.Package, opts SyncOptions) (SyncResult, string) {
	t.Helper()
	var log strings.Builder
	opts.Log = &log
	res, err := Sync([]*annotate.Package{pkg}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res, log.String()
}

func TestCacheSkipsRenderingOnlyAnUpToDateFile(t *testing.T) {
	dir := t.TempDir()
	pkg := funcModel(dir)
	path := filepath.Join(dir, annotate.GeneratedFileName)
	root := t.TempDir()
	cache := NewCache(root, []byte("tool v1"))

	res, log := syncLogged(t, pkg, SyncOptions{Cache: cache})
	if len(res.Changes) != 1 || res.Changes[0].Kind != Missing || strings.Contains(log, "cached") {
		t.Fatalf("first run = %+v, log %q; want the file written, not from the cache", res, log)
	}
	want, err := Generate(pkg)
	if err != nil {
		t.Fatal(err)
	}

	res, log = syncLogged(t, pkg, SyncOptions{Cache: cache, Check: true})
	if len(res.Changes) != 0 || res.Unchanged != 1 || !strings.Contains(log, "up to date (cached)") {
		t.Fatalf("check of the written file = %+v, log %q; want up to date from the cache", res, log)
	}

	// A hand edit keeps the header and the model: only the content shows it.
	edited := bytes.Replace(want, []byte("e.TraceError(err)"), []byte("_ = err"), 1)
	if bytes.Equal(edited, want) {
		t.Fatal("the edit changed nothing; the test proves nothing")
	}
	if err := os.WriteFile(path, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	res, log = syncLogged(t, pkg, SyncOptions{Cache: cache, Check: true})
	if len(res.Changes) != 1 || res.Changes[0].Kind != Stale || strings.Contains(log, "cached") {
		t.Fatalf("check of a hand-edited file = %+v, log %q; want stale", res, log)
	}
	syncLogged(t, pkg, SyncOptions{Cache: cache})
	if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
		t.Fatal("regeneration did not restore the hand-edited file")
	}

	// A changed model renders, and the file follows it.
	pkg.Resources[0].Name = "p.pong"
	res, log = syncLogged(t, pkg, SyncOptions{Cache: cache})
	if len(res.Changes) != 1 || res.Changes[0].Kind != Stale || strings.Contains(log, "cached") {
		t.Fatalf("run after a model change = %+v, log %q; want the file rewritten", res, log)
	}
	if got, _ := os.ReadFile(path); !bytes.Contains(got, []byte(`runtime.NewResource("p.pong", runtime.WithParamKeys())`)) {
		t.Fatalf("the rewritten file does not follow the model:\n%s", got)
	}

	// Another generator binary, with the same root, never trusts this
	// one's entries; this one still does.
	_, log = syncLogged(t, pkg, SyncOptions{Cache: NewCache(root, []byte("tool v2")), Check: true})
	if strings.Contains(log, "cached") {
		t.Fatalf("a different generator used the cache: log %q", log)
	}
	_, log = syncLogged(t, pkg, SyncOptions{Cache: NewCache(root, []byte("tool v1")), Check: true})
	if !strings.Contains(log, "up to date (cached)") {
		t.Fatalf("the same generator did not use its cache: log %q", log)
	}
}

// modelEntries returns the files under root's model entries (the run
// entries aside).
func modelEntries(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(filepath.Join(root, "gen"), func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && d.Name() == "runs":
			return filepath.SkipDir
		case !d.IsDir():
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestCacheEntryIsAnEmptyFileNamedByBothHashes: Sync leaves one empty
// entry per rendered package under the root's gen directory, and renders
// when what lies under the entry's name is not a file.
func TestCacheEntryIsAnEmptyFileNamedByBothHashes(t *testing.T) {
	pkg := funcModel(t.TempDir())
	root := t.TempDir()
	cache := NewCache(root, []byte("tool"))
	syncLogged(t, pkg, SyncOptions{Cache: cache})
	want, err := Generate(pkg)
	if err != nil {
		t.Fatal(err)
	}
	entries := modelEntries(t, root)
	if len(entries) != 1 {
		t.Fatalf("entries %q; want one", entries)
	}
	path := entries[0]
	if info, err := os.Stat(path); err != nil || info.Size() != 0 {
		t.Fatalf("entry %s: %v, %v; want an empty file", path, info, err)
	}
	if sum := sha256.Sum256(want); !strings.HasSuffix(path, "-"+hex.EncodeToString(sum[:])) {
		t.Fatalf("entry %s is not named by the output's hash", path)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	if res, log := syncLogged(t, pkg, SyncOptions{Cache: cache, Check: true}); len(res.Changes) != 0 || strings.Contains(log, "cached") {
		t.Fatalf("a directory under the entry's name: %+v, log %q; want a render that finds the file up to date", res, log)
	}
}

func TestNilCacheCachesNothing(t *testing.T) {
	dir := t.TempDir()
	pkg := funcModel(dir)
	syncLogged(t, pkg, SyncOptions{})
	if res, log := syncLogged(t, pkg, SyncOptions{Check: true}); res.Unchanged != 1 || strings.Contains(log, "cached") {
		t.Fatalf("without a cache: %+v, log %q", res, log)
	}
}

// TestNilCacheMethods: the command calls the run methods and Trim on what
// OpenCache returns, nil when caching is off.
func TestNilCacheMethods(t *testing.T) {
	var none *Cache
	none.RecordRun("k")
	if none.KnownRun("k") {
		t.Fatal("a nil cache knows a run")
	}
	none.Trim()
}

// TestOpenCacheFollowsTheEnvironment: no cache when CacheEnv turns caching
// off; under an absolute CacheEnv, entries land in that directory.
func TestOpenCacheFollowsTheEnvironment(t *testing.T) {
	for _, v := range []string{"off", "relative/dir"} {
		t.Setenv(CacheEnv, v)
		if c := OpenCache(); c != nil {
			t.Errorf("%s=%s: a cache; want none", CacheEnv, v)
		}
	}
	dir := t.TempDir()
	t.Setenv(CacheEnv, dir)
	c := OpenCache()
	if c == nil {
		t.Fatalf("%s=%s: no cache", CacheEnv, dir)
	}
	pkg := funcModel(t.TempDir())
	syncLogged(t, pkg, SyncOptions{Cache: c})
	if entries := modelEntries(t, dir); len(entries) != 1 {
		t.Fatalf("entries under %s: %q; want one", dir, entries)
	}
	if _, log := syncLogged(t, pkg, SyncOptions{Cache: c, Check: true}); !strings.Contains(log, "up to date (cached)") {
		t.Fatalf("the opened cache did not answer: log %q", log)
	}
}
