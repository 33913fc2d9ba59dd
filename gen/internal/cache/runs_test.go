package cache

import (
	"testing"
	"time"
)

// A recorded run answers for its key and its generator only, a nil cache
// knows nothing, and run entries are trimmed with the rest of the cache.
func TestRunEntries(t *testing.T) {
	dir := t.TempDir()
	c := New(dir, []byte("tool A"))
	if c.KnownRun("k1") {
		t.Fatal("an empty cache knows a run")
	}
	c.RecordRun("k1")
	if !c.KnownRun("k1") || c.KnownRun("k2") {
		t.Fatalf("after recording k1: k1 known %v, k2 known %v; want true, false", c.KnownRun("k1"), c.KnownRun("k2"))
	}
	if New(dir, []byte("tool B")).KnownRun("k1") {
		t.Fatal("another generator's record answers")
	}
	c.RecordRun("") // a load that could not be keyed
	if c.KnownRun("") {
		t.Fatal("the empty key is known")
	}
	var none *Cache
	none.RecordRun("k1")
	if none.KnownRun("k1") {
		t.Fatal("a nil cache knows a run")
	}

	stale := aged(t, c.runPath("k1"), 40*24*time.Hour)
	recent := aged(t, c.runPath("k3"), 10*24*time.Hour)
	c.trim(time.Now())
	if exists(stale) || !exists(recent) {
		t.Fatalf("after a sweep: stale run there %v, recent there %v; want false, true", exists(stale), exists(recent))
	}
}
