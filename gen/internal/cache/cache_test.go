package cache

import (
	"crypto/sha256"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/internal/cachedir"
)

// TestEntriesAnswerForTheirModelOutputAndGenerator: an entry matches the
// output stored for its model only, under the identity that stored it.
func TestEntriesAnswerForTheirModelOutputAndGenerator(t *testing.T) {
	root := t.TempDir()
	c := New(root, []byte("tool v1"))
	k := c.Key([]byte("model A"))
	if !k.Valid() || len(k.String()) != 2*sha256.Size {
		t.Fatalf("key %q, valid %v; want a hex SHA-256", k, k.Valid())
	}
	if c.Matches(k, []byte("out A")) {
		t.Fatal("an empty cache matches")
	}
	c.Store(k, []byte("out A"))
	if !c.Matches(k, []byte("out A")) {
		t.Fatal("the stored output does not match")
	}
	if c.Matches(k, []byte("out B")) {
		t.Fatal("another output matches the model's entry")
	}
	if c.Matches(c.Key([]byte("model B")), []byte("out A")) {
		t.Fatal("the output matches for another model")
	}
	other := New(root, []byte("tool v2"))
	if k2 := other.Key([]byte("model A")); k2 == k || other.Matches(k2, []byte("out A")) {
		t.Fatal("another generator's entry answers")
	}
	if New(root, nil).Key([]byte("model A")).Valid() {
		t.Fatal("a generator without an identity has keys")
	}
	var none *Cache
	none.Store(none.Key([]byte("model A")), []byte("out A"))
	if none.Key([]byte("model A")).Valid() || none.Matches(k, []byte("out A")) {
		t.Fatal("a nil cache caches")
	}
	c.Store(Key{}, []byte("out A")) // the zero key stores nothing
	if c.Matches(Key{}, []byte("out A")) {
		t.Fatal("the zero key matches")
	}
}

// TestEntryIsAnEmptyFileNamedByBothHashes: an entry has nothing to tear,
// and a name that is not a regular file is no entry.
func TestEntryIsAnEmptyFileNamedByBothHashes(t *testing.T) {
	c := New(t.TempDir(), []byte("tool"))
	k := c.Key([]byte("model"))
	c.Store(k, []byte("output"))
	path := c.path(k, sha256.Sum256([]byte("output")))
	if info, err := os.Stat(path); err != nil || info.Size() != 0 {
		t.Fatalf("entry %s: %v, %v; want an empty file", path, info, err)
	}
	if !strings.HasPrefix(path, filepath.Join(c.root, Subdir)+string(filepath.Separator)) {
		t.Fatalf("entry %s is not under the root's %s directory", path, Subdir)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	if c.Matches(k, []byte("output")) {
		t.Fatal("a directory under the entry's name matches")
	}
}

func TestOpenFollowsTheEnvironment(t *testing.T) {
	t.Setenv(cachedir.Env, "off")
	if c := Open(); c != nil {
		t.Errorf("%s=off: cache in %q; want none", cachedir.Env, c.dir)
	}
	t.Setenv(cachedir.Env, "relative/dir")
	if c := Open(); c != nil {
		t.Errorf("%s=relative/dir: cache in %q; want none", cachedir.Env, c.dir)
	}
	dir := t.TempDir()
	t.Setenv(cachedir.Env, dir)
	c := Open()
	if c == nil {
		t.Fatalf("%s=%s: no cache", cachedir.Env, dir)
	}
	if c.root != dir || c.dir != filepath.Join(dir, Subdir) {
		t.Fatalf("%s=%s: root %q, entries in %q", cachedir.Env, dir, c.root, c.dir)
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
