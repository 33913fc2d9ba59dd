package cache

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// agedEntry stores an entry for the model encoded as model and dates it
// age ago.
func agedEntry(t *testing.T, c *Cache, model string, age time.Duration) string {
	t.Helper()
	k := c.Key([]byte(model))
	c.Store(k, []byte(model))
	return aged(t, c.path(k, sha256.Sum256([]byte(model))), age)
}

// aged dates the file at path age ago, creating it (and its directory) if
// needed.
func aged(t *testing.T, path string, age time.Duration) string {
	t.Helper()
	if !exists(path) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-age)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	return path
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func TestTrimRemovesEntriesUnusedForAMonthOncePerDay(t *testing.T) {
	c := New(t.TempDir(), []byte("tool"))
	stale := agedEntry(t, c, "example.com/stale", 40*24*time.Hour)
	recent := agedEntry(t, c, "example.com/recent", 10*24*time.Hour)
	now := time.Now()

	c.trim(now)
	if exists(stale) || !exists(recent) {
		t.Fatalf("after a sweep: stale entry there %v, recent there %v; want false, true", exists(stale), exists(recent))
	}

	staleAgain := agedEntry(t, c, "example.com/stale2", 40*24*time.Hour)
	c.trim(now.Add(time.Hour))
	if !exists(staleAgain) {
		t.Fatal("a second sweep within a day ran")
	}
	c.trim(now.Add(25 * time.Hour))
	if exists(staleAgain) {
		t.Fatal("the sweep a day later left an entry unused for a month")
	}
	if !exists(filepath.Join(c.root, trimStampFile)) {
		t.Fatal("no record of the last sweep")
	}
}

// TestTrimSweepsEveryCacheUnderTheRoot: the loader's listings and the
// entries older binaries kept under the root are trimmed by the same rule;
// what the root holds besides sentinelgen's caches is never touched.
func TestTrimSweepsEveryCacheUnderTheRoot(t *testing.T) {
	c := New(t.TempDir(), []byte("tool"))
	month := 40 * 24 * time.Hour
	listing := aged(t, filepath.Join(c.root, "golist", "0123.json"), month)
	tmpListing := aged(t, filepath.Join(c.root, "golist", "listing-123"), month)
	rootEntry := aged(t, filepath.Join(c.root, "ab", "ab01"), month)
	freshListing := aged(t, filepath.Join(c.root, "golist", "4567.json"), time.Hour)
	foreign := aged(t, filepath.Join(c.root, "photos", "old.jpg"), month)
	foreignTop := aged(t, filepath.Join(c.root, "notes.txt"), month)

	c.trim(time.Now())
	for _, p := range []string{listing, tmpListing, rootEntry} {
		if exists(p) {
			t.Errorf("%s, unused for a month, is still there", p)
		}
	}
	for _, p := range []string{freshListing, foreign, foreignTop} {
		if !exists(p) {
			t.Errorf("%s was removed", p)
		}
	}
}

func TestALookupMarksTheEntryUsed(t *testing.T) {
	c := New(t.TempDir(), []byte("tool"))
	k := c.Key([]byte("model"))
	c.Store(k, []byte("output"))
	path := aged(t, c.path(k, sha256.Sum256([]byte("output"))), 40*24*time.Hour)
	if !c.Matches(k, []byte("output")) {
		t.Fatal("the stored entry does not match its output")
	}
	c.trim(time.Now())
	if !exists(path) {
		t.Fatal("an entry just used was trimmed")
	}
}
