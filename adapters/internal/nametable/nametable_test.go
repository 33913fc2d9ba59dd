package nametable

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// TestLoadFindsEveryNameAndNoOther fills a table name by name, as a
// service's methods arrive, and checks after each that every name added
// holds its value and that names never added, including ones that differ
// from an added one in a single byte, are absent.
func TestLoadFindsEveryNameAndNoOther(t *testing.T) {
	var tab Table[int]
	var names []string
	for i := range 300 {
		names = append(names, fmt.Sprintf("/pkg.v%d.Service%d/Method%d", i%3, i%17, i))
	}
	names = append(names, "", "a", "/x", "1234567")
	for i, name := range names {
		if got := tab.LoadOrMake(name, func() int { return i }); got != i {
			t.Fatalf("LoadOrMake(%q) = %d, want %d", name, got, i)
		}
		for j, seen := range names[:i+1] {
			if v, ok := tab.Load(seen); !ok || v != j {
				t.Fatalf("after %d names, Load(%q) = %d, %v; want %d", i+1, seen, v, ok, j)
			}
		}
	}
	if tab.Len() != len(names) {
		t.Fatalf("Len %d, want %d", tab.Len(), len(names))
	}
	for _, absent := range []string{"/pkg.v0.Service0/Method00", "/pkg.v0.Service0/Method", "b", "/pkg.v0.Service0/Nethod0"} {
		if v, ok := tab.Load(absent); ok {
			t.Errorf("Load(%q) = %d, true for a name never added", absent, v)
		}
	}
}

// TestNamesAlikeShareASlotSequence is the fallback: names of one length
// that differ only outside the bytes the hash reads all get one slot, so
// each lookup probes past the others; every one must still be found, and
// only it.
func TestNamesAlikeShareASlotSequence(t *testing.T) {
	var tab Table[string]
	name := func(i int) string {
		// 40 bytes: the hash reads 0–7, 16–23 and 32–39; i goes in 8–15.
		return "/svc.Aaa" + fmt.Sprintf("%08d", i) + "/Bbbbbbb" + "cccccccc" + "Method_Z"
	}
	if h0, h1 := hash(name(0)), hash(name(1)); h0 != h1 {
		t.Fatalf("the names are meant to hash alike: %x, %x", h0, h1)
	}
	const n = 64
	for i := range n {
		tab.LoadOrMake(name(i), func() string { return name(i) })
	}
	for i := range n {
		if v, ok := tab.Load(name(i)); !ok || v != name(i) {
			t.Fatalf("Load(%q) = %q, %v", name(i), v, ok)
		}
	}
	if _, ok := tab.Load(name(n)); ok {
		t.Fatal("a name alike the others but never added was found")
	}
}

// TestCreateRunsOncePerName races callers over the same names: each name's
// value is created once, and every caller gets that one.
func TestCreateRunsOncePerName(t *testing.T) {
	var tab Table[*int]
	var made atomic.Int32
	const names, callers = 20, 8
	got := make([][names]*int, callers)
	var wg sync.WaitGroup
	for c := range callers {
		wg.Go(func() {
			for i := range names {
				got[c][i] = tab.LoadOrMake(strings.Repeat("m", i), func() *int { made.Add(1); return new(int) })
			}
		})
	}
	wg.Wait()
	if made.Load() != names {
		t.Fatalf("created %d values for %d names", made.Load(), names)
	}
	for c := range callers {
		if got[c] != got[0] {
			t.Fatalf("caller %d got other values than caller 0", c)
		}
	}
}

// TestLoadDoesNotAllocate holds the lookup of a present and of an absent
// name to no allocation.
func TestLoadDoesNotAllocate(t *testing.T) {
	var tab Table[int]
	tab.LoadOrMake("/grpc.health.v1.Health/Check", func() int { return 1 })
	if n := testing.AllocsPerRun(100, func() {
		tab.Load("/grpc.health.v1.Health/Check")
		tab.Load("/grpc.health.v1.Health/Watch")
	}); n != 0 {
		t.Fatalf("%v allocations per lookup", n)
	}
}

// BenchmarkLoad compares a lookup of a gRPC method among a service's ten in
// this table with the same lookup in a Go map read through an atomic
// pointer, as routecache.Map reads it.
func BenchmarkLoad(b *testing.B) {
	var tab Table[int]
	var gomap atomic.Pointer[map[string]int]
	m := map[string]int{}
	var names []string
	for i := range 10 {
		n := fmt.Sprintf("/orders.v1.OrderService/Method%d", i)
		names = append(names, n)
		tab.LoadOrMake(n, func() int { return i })
		m[n] = i
	}
	gomap.Store(&m)
	// A name held in memory of its own, as a request's is.
	key := strings.Clone(names[7])
	b.Run("nametable", func(b *testing.B) {
		for b.Loop() {
			if _, ok := tab.Load(key); !ok {
				b.Fatal("missing")
			}
		}
	})
	b.Run("gomap", func(b *testing.B) {
		for b.Loop() {
			if _, ok := (*gomap.Load())[key]; !ok {
				b.Fatal("missing")
			}
		}
	})
}
