package gen

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// agedEntry stores an entry for pkgPath's model and dates it age ago.
func agedEntry(t *testing.T, c *Cache, pkgPath string, age time.Duration) string {
	t.Helper()
	pkg := funcModel(t.TempDir())
	pkg.Path = pkgPath
	k := c.key(pkg)
	c.store(k, []byte(pkgPath))
	path := c.path(k)
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
	c := NewCache(t.TempDir(), []byte("tool"))
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
	if !exists(filepath.Join(c.dir, trimStampFile)) {
		t.Fatal("no record of the last sweep")
	}
}

func TestALookupMarksTheEntryUsed(t *testing.T) {
	c := NewCache(t.TempDir(), []byte("tool"))
	pkg := funcModel(t.TempDir())
	k := c.key(pkg)
	c.store(k, []byte("output"))
	old := time.Now().Add(-40 * 24 * time.Hour)
	if err := os.Chtimes(c.path(k), old, old); err != nil {
		t.Fatal(err)
	}
	if !c.matches(k, []byte("output")) {
		t.Fatal("the stored entry does not match its output")
	}
	c.trim(time.Now())
	if !exists(c.path(k)) {
		t.Fatal("an entry just used was trimmed")
	}
}
