package routecache

import (
	"sync"
	"sync/atomic"
	"testing"
)

func TestLoadOrMakeMakesOncePerKey(t *testing.T) {
	var m Map[string, *int]
	var made atomic.Int64
	var wg sync.WaitGroup
	results := make([]*int, 64)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = m.LoadOrMake([]string{"a", "b"}[i%2], func() *int {
				made.Add(1)
				return new(int)
			})
		}()
	}
	wg.Wait()
	if made.Load() != 2 || m.Len() != 2 {
		t.Fatalf("made %d values for %d keys, want 2 and 2", made.Load(), m.Len())
	}
	for i, r := range results {
		if r != results[i%2] {
			t.Fatalf("call %d got another value than call %d for the same key", i, i%2)
		}
	}
	if _, ok := m.Load("c"); ok {
		t.Error("Load found a key never stored")
	}
}

func TestLoadDoesNotAllocate(t *testing.T) {
	type key struct{ method, path string }
	var m Map[key, int]
	m.LoadOrMake(key{"GET", "/orders/:id"}, func() int { return 7 })
	k := key{"GET", "/orders/:id"}
	if n := testing.AllocsPerRun(100, func() {
		if v, _ := m.Load(k); v != 7 {
			t.Fatal("lost the value")
		}
	}); n != 0 {
		t.Errorf("Load allocates %.0f times", n)
	}
}

// TestRoutesKeepsEachTemplateAndMethod fills Routes from many goroutines
// with templates that share methods and methods that share templates: each
// pair is made once, and only the pairs made are found.
func TestRoutesKeepsEachTemplateAndMethod(t *testing.T) {
	var m Routes[string]
	var made atomic.Int64
	templates := []string{"/orders/:id", "/orders", "/users/:id/orders/:oid", ""}
	methods := []string{"GET", "POST", "DELETE"}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for _, tp := range templates {
				for _, me := range methods {
					if got := m.LoadOrMake(tp, me, func() string { made.Add(1); return me + " " + tp }); got != me+" "+tp {
						t.Errorf("LoadOrMake(%q, %q) = %q", tp, me, got)
					}
				}
			}
		})
	}
	wg.Wait()
	if n := made.Load(); n != int64(len(templates)*len(methods)) {
		t.Fatalf("made %d values for %d routes", n, len(templates)*len(methods))
	}
	for _, tp := range templates {
		for _, me := range methods {
			if v, ok := m.Load(tp, me); !ok || v != me+" "+tp {
				t.Fatalf("Load(%q, %q) = %q, %v", tp, me, v, ok)
			}
		}
		if _, ok := m.Load(tp, "PUT"); ok {
			t.Fatalf("Load(%q, PUT) found a route never made", tp)
		}
	}
	if _, ok := m.Load("/nowhere", "GET"); ok {
		t.Fatal("Load found a template never made")
	}
	if n := testing.AllocsPerRun(100, func() { m.Load("/orders/:id", "GET") }); n != 0 {
		t.Errorf("Load allocates %.0f times", n)
	}
}
