package runtime

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// The registry's table holds what a map would through adds, removals and
// growth, with real hashes and with hashes made to pile up: few distinct
// first slots (long runs to probe and to close up on removal), and first
// slots at the table's end (runs that wrap round to its start).
func TestResourceTableMatchesAMap(t *testing.T) {
	hashes := map[string]func(name string) uint64{
		"real":    hashName,
		"clashes": func(name string) uint64 { return hashName(name) & (0xf << 60) },
		"wrapping": func(name string) uint64 {
			if h := hashName(name); h&1 == 0 {
				return ^uint64(0) - h&0xff // the last slot, or nearly
			}
			return hashName(name)
		},
	}
	for kind, hash := range hashes {
		rng := rand.New(rand.NewPCG(7, uint64(len(kind))))
		var tab resourceTable
		want := map[string]*Resource{}
		check := func(step int) {
			t.Helper()
			if tab.count != len(want) {
				t.Fatalf("%s, step %d: count %d, want %d", kind, step, tab.count, len(want))
			}
			seen := 0
			tab.each(func(r *Resource) {
				seen++
				if want[r.name] != r {
					t.Fatalf("%s, step %d: table holds %q, which it should not", kind, step, r.name)
				}
			})
			if seen != len(want) {
				t.Fatalf("%s, step %d: each visits %d resources, want %d", kind, step, seen, len(want))
			}
			for name, r := range want {
				if got, _ := tab.find(name, hash(name)); got != r {
					t.Fatalf("%s, step %d: find(%q) = %p, want %p", kind, step, name, got, r)
				}
			}
		}
		for step := range 3000 {
			name := "r" + strconv.Itoa(rng.IntN(600))
			switch _, held := want[name]; {
			case rng.IntN(3) == 0:
				tab.remove(name, hash(name))
				delete(want, name)
			case !held:
				r := &Resource{name: name}
				tab.add(r, name, hash(name))
				want[name] = r
			}
			if got, _ := tab.find(name, hash(name)); got != want[name] {
				t.Fatalf("%s, step %d: find(%q) right after the change = %p, want %p", kind, step, name, got, want[name])
			}
			if step%100 == 0 {
				check(step)
			}
		}
		check(-1)
		if len(tab.slots) < 2*tab.count {
			t.Fatalf("%s: %d slots for %d resources, want at least half empty", kind, len(tab.slots), tab.count)
		}
	}
}

// A first load creates the resources its rules name, one handle per name
// whether or not NewResource declared it before, and each new resource
// counts its calls: its statistics are built.
func TestFirstLoadCreatesEveryResource(t *testing.T) {
	useManualClock(t)
	names := scaleNames("created", 3000)
	defer forgetResources(names)
	declared := map[string]*Resource{}
	for _, n := range names[:100] {
		declared[n] = NewResource(n)
	}
	rules := scaleFlowRules(names)
	for i := range rules {
		rules[i].Count = 1
	}
	rules[7].Strategy, rules[7].RefResource = StrategyRelate, names[0]+"/related"
	defer forgetResources([]string{names[0] + "/related"})
	if err := LoadFlowRules(rules); err != nil {
		t.Fatal(err)
	}
	seen := map[*Resource]bool{}
	for i, n := range names {
		r := lookupResource(n)
		if d := declared[n]; d != nil && d != r {
			t.Fatalf("%q: the load made a second handle for a declared resource", n)
		}
		if seen[r] || r.Name() != n {
			t.Fatalf("%q: handle shared or misnamed (%q)", n, r.Name())
		}
		seen[r] = true
		if i == 7 {
			continue // its limit reads the related resource
		}
		e, blocked := r.Entry(t.Context())
		if blocked != nil {
			t.Fatalf("%q: first call blocked: %v", n, blocked)
		}
		e.Exit()
		if _, blocked := r.Entry(t.Context()); blocked == nil {
			t.Fatalf("%q: second call passed a limit of 1: the resource does not count", n)
		}
	}
	registry.Lock()
	rel, _ := registry.byName.find(names[0]+"/related", hashName(names[0]+"/related"))
	registry.Unlock()
	if rel == nil {
		t.Fatal("the relate rule's resource was not created")
	}
}
