package gen

import (
	"bytes"
	"crypto/sha256"
	"os"
	"os/exec"
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
	cache := NewCache(t.TempDir(), []byte("tool v1"))

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

	// Another generator binary never trusts this one's entries.
	_, log = syncLogged(t, pkg, SyncOptions{Cache: NewCache(cache.dir, []byte("tool v2")), Check: true})
	if strings.Contains(log, "cached") {
		t.Fatalf("a different generator used the cache: log %q", log)
	}
}

// TestCacheEntryIsAnEmptyFileNamedByBothHashes: an entry has nothing to
// tear, and a name that is not a regular file is no entry.
func TestCacheEntryIsAnEmptyFileNamedByBothHashes(t *testing.T) {
	pkg := funcModel(t.TempDir())
	cache := NewCache(t.TempDir(), []byte("tool"))
	syncLogged(t, pkg, SyncOptions{Cache: cache})
	want, err := Generate(pkg)
	if err != nil {
		t.Fatal(err)
	}
	key := cache.key(pkg)
	path := cache.path(key, sha256.Sum256(want))
	if info, err := os.Stat(path); err != nil || info.Size() != 0 {
		t.Fatalf("entry %s: %v, %v; want an empty file", path, info, err)
	}
	if !strings.HasPrefix(path, filepath.Join(cache.root, cacheSubdir)+string(filepath.Separator)) {
		t.Fatalf("entry %s is not under the root's %s directory", path, cacheSubdir)
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

func TestOpenCacheFollowsTheEnvironment(t *testing.T) {
	t.Setenv(CacheEnv, "off")
	if c := OpenCache(); c != nil {
		t.Errorf("%s=off: cache in %q; want none", CacheEnv, c.dir)
	}
	t.Setenv(CacheEnv, "relative/dir")
	if c := OpenCache(); c != nil {
		t.Errorf("%s=relative/dir: cache in %q; want none", CacheEnv, c.dir)
	}
	dir := t.TempDir()
	t.Setenv(CacheEnv, dir)
	c := OpenCache()
	if c == nil {
		t.Fatalf("%s=%s: no cache", CacheEnv, dir)
	}
	if c.root != dir || c.dir != filepath.Join(dir, cacheSubdir) {
		t.Fatalf("%s=%s: root %q, entries in %q", CacheEnv, dir, c.root, c.dir)
	}
	// The identity of the running binary (here the test binary): its Go
	// build ID, as the go command reports it.
	id, err := c.tool()
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip("no executable path to compare with:", err)
	}
	out, err := exec.Command("go", "tool", "buildid", exe).Output()
	if err != nil {
		t.Skip("go tool buildid:", err)
	}
	if want := "go build ID " + strings.TrimSpace(string(out)); string(id) != want {
		t.Fatalf("tool identity %q; want %q", id, want)
	}
}
