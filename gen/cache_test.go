package gen

import (
	"bytes"
	"crypto/sha256"
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
	if got, _ := os.ReadFile(path); !bytes.Contains(got, []byte(`runtime.NewResource("p.pong")`)) {
		t.Fatalf("the rewritten file does not follow the model:\n%s", got)
	}

	// Another generator binary never trusts this one's entries.
	_, log = syncLogged(t, pkg, SyncOptions{Cache: NewCache(cache.dir, []byte("tool v2")), Check: true})
	if strings.Contains(log, "cached") {
		t.Fatalf("a different generator used the cache: log %q", log)
	}
}

func TestCacheIgnoresABrokenEntry(t *testing.T) {
	dir := t.TempDir()
	pkg := funcModel(dir)
	cache := NewCache(t.TempDir(), []byte("tool"))
	syncLogged(t, pkg, SyncOptions{Cache: cache})

	key := cache.key(pkg)
	if !key.ok {
		t.Fatal("the model has no cache key")
	}
	for _, entry := range []string{"", "not a hash\n", strings.Repeat("0", 64) + "\n"} {
		if err := os.WriteFile(cache.path(key), []byte(entry), 0o644); err != nil {
			t.Fatal(err)
		}
		res, log := syncLogged(t, pkg, SyncOptions{Cache: cache, Check: true})
		if len(res.Changes) != 0 || strings.Contains(log, "cached") {
			t.Fatalf("entry %q: %+v, log %q; want a render that finds the file up to date", entry, res, log)
		}
	}
	// The render repaired the entry.
	if _, log := syncLogged(t, pkg, SyncOptions{Cache: cache, Check: true}); !strings.Contains(log, "(cached)") {
		t.Fatalf("log %q; want the repaired entry used", log)
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
	if c == nil || c.dir != dir {
		t.Fatalf("%s=%s: cache %+v", CacheEnv, dir, c)
	}
	// The identity of the running binary (here the test binary): the hash
	// of its content.
	id, err := c.tool()
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip("no executable path to compare with:", err)
	}
	content, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if want := sha256.Sum256(content); !bytes.Equal(id, want[:]) {
		t.Fatalf("tool identity %x; want the executable's SHA-256 %x", id, want)
	}
}
