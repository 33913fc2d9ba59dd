package rules

import (
	"errors"
	"sync"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Two writers replacing different kinds at the same time, 10,000 times:
// after each round both changes are in force, and the generation advanced
// by one per change.
func TestUpdateRacingWritersLoseNothing(t *testing.T) {
	clearRuntimeRules(t)
	const rounds = 10_000
	gen0 := Generation()
	lost := 0
	for i := 1; i <= rounds; i++ {
		var wg sync.WaitGroup
		errs := make([]error, 2)
		wg.Add(2)
		go func() {
			defer wg.Done()
			_, errs[0] = Update(func(cur Set) (Set, error) {
				return cur.Replace(Set{Flow: []runtime.FlowRule{{Resource: "upd.flow", Count: float64(i)}}}, KindFlow), nil
			})
		}()
		go func() {
			defer wg.Done()
			_, errs[1] = Update(func(cur Set) (Set, error) {
				d := []runtime.DegradeRule{{Resource: "upd.degrade", Grade: runtime.DegradeErrorCount, Count: float64(i), TimeWindowSec: 5}}
				return cur.Replace(Set{Degrade: d}, KindDegrade), nil
			})
		}()
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatalf("round %d: %v", i, err)
		}
		f, d := runtime.FlowRules(), runtime.DegradeRules()
		if len(f) != 1 || f[0].Count != float64(i) || len(d) != 1 || d[0].Count != float64(i) {
			lost++
		}
	}
	if lost != 0 {
		t.Errorf("%d of %d rounds lost a change", lost, rounds)
	}
	if got := Generation() - gen0; got != 2*rounds {
		t.Errorf("generation advanced by %d, want %d", got, 2*rounds)
	}
}

// A refused update changes nothing and keeps the generation; ErrUnchanged
// keeps the rules without an error; a good one returns the next generation.
func TestUpdateRefusedKeepsRulesAndGeneration(t *testing.T) {
	clearRuntimeRules(t)
	good := Set{Flow: []runtime.FlowRule{{Resource: "upd.keep", Count: 5}}}
	gen, err := Update(func(Set) (Set, error) { return good, nil })
	if err != nil || gen != Generation() {
		t.Fatalf("Update = %d, %v; Generation %d", gen, err, Generation())
	}
	bad := Set{Flow: []runtime.FlowRule{{Resource: "upd.keep", Count: -1}}}
	if g, err := Update(func(Set) (Set, error) { return bad, nil }); err == nil || g != gen {
		t.Errorf("invalid set: Update = %d, %v; want an error and generation %d", g, err, gen)
	}
	refuse := errors.New("no")
	if g, err := Update(func(Set) (Set, error) { return good, refuse }); !errors.Is(err, refuse) || g != gen {
		t.Errorf("refused: Update = %d, %v; want %v and generation %d", g, err, refuse, gen)
	}
	if g, err := Update(func(cur Set) (Set, error) { return cur, ErrUnchanged }); err != nil || g != gen {
		t.Errorf("unchanged: Update = %d, %v; want nil and generation %d", g, err, gen)
	}
	if !Current().Equal(good) || Generation() != gen {
		t.Errorf("rules %+v generation %d after refused updates, want %+v and %d", Current(), Generation(), good, gen)
	}
	if err := Apply(Set{}); err != nil || Generation() != gen+1 {
		t.Errorf("Apply: %v, generation %d, want %d", err, Generation(), gen+1)
	}
}

// Replace takes only the named kinds from the other set; Held names the
// kinds a set has rules of.
func TestReplaceAndHeld(t *testing.T) {
	s := Set{Flow: []runtime.FlowRule{{Resource: "a", Count: 1}}, Degrade: []runtime.DegradeRule{{Resource: "a", Count: 1}}}
	o := Set{Flow: []runtime.FlowRule{{Resource: "b", Count: 2}}, System: []runtime.SystemRule{{QPS: 3}}}
	got := s.Replace(o, KindFlow)
	if len(got.Flow) != 1 || got.Flow[0].Resource != "b" || len(got.Degrade) != 1 || len(got.System) != 0 {
		t.Errorf("Replace(flow) = %+v", got)
	}
	got = s.Replace(o, KindDegrade, KindSystem)
	if got.Flow[0].Resource != "a" || len(got.Degrade) != 0 || len(got.System) != 1 {
		t.Errorf("Replace(degrade, system) = %+v", got)
	}
	if h := o.Held(); len(h) != 2 || h[0] != KindFlow || h[1] != KindSystem {
		t.Errorf("Held = %v, want [flow system]", h)
	}
	if h := (Set{HasGateway: true}).Held(); len(h) != 2 || h[0] != KindGatewayFlow || h[1] != KindAPIGroup {
		t.Errorf("Held with HasGateway = %v, want both gateway kinds", h)
	}
}
