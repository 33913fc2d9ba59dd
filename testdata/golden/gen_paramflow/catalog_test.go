package paramflow

import (
	"context"
	"errors"
	"slices"
	"testing"

	"example.com/golden/ruletest"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// resource finds a resource of this package by name.
func resource(t *testing.T, name string) *runtime.Resource {
	t.Helper()
	for _, r := range runtime.Resources() {
		if r.Name() == name {
			return r
		}
	}
	t.Fatalf("no resource %q", name)
	return nil
}

// The wrapper declares the parameters after ctx, in order, so that a rule
// may name one; a function without ctx declares all of them.
func TestParamNamesAreDeclared(t *testing.T) {
	for name, want := range map[string][]string{
		"paramflow.detail": {"sku", "qty"},
		"paramflow.order":  {"sku", "qty", "gift", "price", "who", "tags", "to", "member"},
		"paramflow.lookup": {"key"},
		"paramflow.count":  {"region", "ids"},
	} {
		if got := resource(t, name).ParamNames(); !slices.Equal(got, want) {
			t.Errorf("%s: ParamNames() = %q; want %q", name, got, want)
		}
	}
}

// Without a param rule no keys are built and every call reaches the code.
func TestCallsPassWithoutParamRules(t *testing.T) {
	ruletest.Use(t, nil, nil)
	ctx := context.Background()
	c := &Catalog{}
	g := NewGuardedCatalog(c)
	if resource(t, "paramflow.detail").HasParamRules() {
		t.Fatal("HasParamRules with no rule in force")
	}
	if page, err := g.Detail(ctx, "tea", 2); page != "tea x2" || err != nil {
		t.Fatalf("Detail = %q, %v", page, err)
	}
	if _, err := g.Detail(ctx, "", 1); err != ErrUnknown {
		t.Fatalf("Detail(\"\") error = %v; want ErrUnknown", err)
	}
	if err := g.Order(ctx, "tea", 1, true, 2.5, Customer{ID: 7}, []string{"a"}, Address{}, nil); err != nil {
		t.Fatal(err)
	}
	if c.Calls != 3 {
		t.Fatalf("%d calls reached the catalog; want 3", c.Calls)
	}
	if n, err := GuardedLookup[SKU](ctx, "abc"); n != 3 || err != nil {
		t.Fatalf("Lookup = %d, %v", n, err)
	}
	if n, err := GuardedCount("eu", 1, 2, 3); n != 3 || err != nil {
		t.Fatalf("Count = %d, %v", n, err)
	}
}

// A flow rule still blocks a wrapper that passes keys.
func TestFlowRulesStillApply(t *testing.T) {
	ruletest.UseFlow(t, runtime.FlowRule{Resource: "paramflow.detail", Grade: runtime.FlowGradeQPS, Count: 0})
	page, err := NewGuardedCatalog(&Catalog{}).Detail(context.Background(), "tea", 1)
	if err != nil || page != "busy:" {
		t.Fatalf("Detail = %q, %v; want the blockHandler's page", page, err)
	}
}

// useParamRules puts hot-parameter rules in force for one test.
func useParamRules(t *testing.T, rules ...runtime.ParamFlowRule) {
	t.Helper()
	ruletest.UseRules(t, runtime.Rules{ParamFlow: rules})
}

// The hot value runs out of tokens and is blocked, naming itself; the other
// values keep theirs.
func TestHotValueIsBlocked(t *testing.T) {
	useParamRules(t, runtime.ParamFlowRule{Resource: "paramflow.detail", Grade: runtime.FlowGradeQPS, ParamIdx: 0, Count: 2})
	if !resource(t, "paramflow.detail").HasParamRules() {
		t.Fatal("no HasParamRules with a param rule in force")
	}
	ctx := context.Background()
	c := &Catalog{}
	g := NewGuardedCatalog(c)
	for i, want := range []string{"hot x1", "hot x1", "busy:hot"} {
		if page, err := g.Detail(ctx, "hot", 1); page != want || err != nil {
			t.Fatalf("call %d: Detail(hot) = %q, %v; want %q", i, page, err, want)
		}
	}
	if page, err := g.Detail(ctx, "cold", 1); page != "cold x1" || err != nil {
		t.Fatalf("Detail(cold) = %q, %v; want the page", page, err)
	}
	if c.Calls != 3 {
		t.Fatalf("%d calls reached the catalog; want 3", c.Calls)
	}
}

// paramIdx counts after ctx: index 1 of Detail is qty, an int.
func TestIntegerKeyByIndex(t *testing.T) {
	useParamRules(t, runtime.ParamFlowRule{Resource: "paramflow.detail", ParamIdx: 1, Count: 0,
		Items: []runtime.ParamFlowItem{{Object: "5", ClassType: "long", Count: 10}}})
	g := NewGuardedCatalog(&Catalog{})
	if page, _ := g.Detail(context.Background(), "tea", 5); page != "tea x5" {
		t.Fatalf("qty 5 (its own item) got %q; want the page", page)
	}
	if page, _ := g.Detail(context.Background(), "tea", 6); page != "busy:6" {
		t.Fatalf("qty 6 got %q; want it blocked", page)
	}
}

// order is one call of Order with every parameter given.
type order struct {
	sku    SKU
	qty    Qty
	gift   bool
	price  float64
	who    Customer
	tags   []string
	to     Address
	member *Member
}

func (o order) place(g *GuardedCatalog) error {
	return g.Order(context.Background(), o.sku, o.qty, o.gift, o.price, o.who, o.tags, o.to, o.member)
}

// Each kind of parameter hands the runtime the key its type calls for: a
// rule with count 0 blocks every value except the one its item names, so a
// call passes only if the wrapper's key equals the item's value.
func TestEveryKindOfKey(t *testing.T) {
	base := order{sku: "tea", qty: 1, price: 1, who: Customer{ID: 1}, tags: []string{"x"}}
	cases := []struct {
		name       string
		idx        int
		item       runtime.ParamFlowItem
		pass, stop func(o *order)
	}{
		{"named string", 0, runtime.ParamFlowItem{Object: "vip", ClassType: "String"},
			func(o *order) { o.sku = "vip" }, func(o *order) { o.sku = "other" }},
		{"named int", 1, runtime.ParamFlowItem{Object: "7", ClassType: "int"},
			func(o *order) { o.qty = 7 }, func(o *order) { o.qty = 8 }},
		{"bool", 2, runtime.ParamFlowItem{Object: "true", ClassType: "boolean"},
			func(o *order) { o.gift = true }, func(o *order) { o.gift = false }},
		{"float", 3, runtime.ParamFlowItem{Object: "2.5", ClassType: "double"},
			func(o *order) { o.price = 2.5 }, func(o *order) { o.price = 2.25 }},
		{"key method", 4, runtime.ParamFlowItem{Object: "customer-7", ClassType: "String"},
			func(o *order) { o.who = Customer{ID: 7, Handle: "customer-7"} }, func(o *order) { o.who = Customer{ID: 8, Handle: "customer-8"} }},
		{"slice, each element", 5, runtime.ParamFlowItem{Object: "x", ClassType: "String"},
			func(o *order) { o.tags = []string{"x", "x"} }, func(o *order) { o.tags = []string{"x", "y"} }},
		{"pointer key method, negative index", -1, runtime.ParamFlowItem{Object: "gold", ClassType: "String"},
			func(o *order) { o.member = &Member{Tier: "gold"} }, func(o *order) { o.member = &Member{Tier: "iron"} }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.item.Count = 100
			useParamRules(t, runtime.ParamFlowRule{Resource: "paramflow.order", ParamIdx: tc.idx, Count: 0,
				Items: []runtime.ParamFlowItem{tc.item}})
			g := NewGuardedCatalog(&Catalog{})
			pass, stop := base, base
			tc.pass(&pass)
			tc.stop(&stop)
			if err := pass.place(g); err != nil {
				t.Fatalf("the item's value was refused: %v", err)
			}
			var blockErr *runtime.BlockError
			if err := stop.place(g); !errors.As(err, &blockErr) || blockErr.Type() != runtime.BlockTypeParamFlow {
				t.Fatalf("another value got %v; want a param-flow block", err)
			}
		})
	}
}

// A parameter that cannot be a key, and a nil pointer, are no keys: a rule
// on them never blocks.
func TestNoKeyNeverBlocks(t *testing.T) {
	useParamRules(t,
		runtime.ParamFlowRule{Resource: "paramflow.order", ParamIdx: 6, Count: 0},
		runtime.ParamFlowRule{Resource: "paramflow.order", ParamIdx: 7, Count: 0})
	g := NewGuardedCatalog(&Catalog{})
	if err := (order{to: Address{City: "Oslo"}}).place(g); err != nil {
		t.Fatalf("Order with no keys: %v", err)
	}
	var blockErr *runtime.BlockError
	if err := (order{member: &Member{Tier: "gold"}}).place(g); !errors.As(err, &blockErr) || blockErr.Value() != "gold" {
		t.Fatalf("Order with a member got %v; want the member's key blocked", err)
	}
}

// A generic function converts its type parameter; a function without ctx
// counts from its first parameter, and a variadic one checks each element.
func TestGenericAndVariadicKeys(t *testing.T) {
	useParamRules(t,
		runtime.ParamFlowRule{Resource: "paramflow.lookup", ParamIdx: 0, Count: 0,
			Items: []runtime.ParamFlowItem{{Object: "ok", Count: 5}}},
		runtime.ParamFlowRule{Resource: "paramflow.count", ParamIdx: 0, Count: 0,
			Items: []runtime.ParamFlowItem{{Object: "eu", Count: 5}}},
		runtime.ParamFlowRule{Resource: "paramflow.count", ParamIdx: 1, Count: 0,
			Items: []runtime.ParamFlowItem{{Object: "1", ClassType: "int", Count: 5}}})
	ctx := context.Background()
	if _, err := GuardedLookup[SKU](ctx, "ok"); err != nil {
		t.Fatalf("Lookup(ok): %v", err)
	}
	if _, err := GuardedLookup(ctx, "no"); err == nil {
		t.Fatal("Lookup(no) passed a count-0 rule")
	}
	if _, err := GuardedCount("eu", 1, 1); err != nil {
		t.Fatalf("Count(eu, 1, 1): %v", err)
	}
	if _, err := GuardedCount("us", 1); err == nil {
		t.Fatal("Count(us) passed: region is parameter 0 without ctx")
	}
	var blockErr *runtime.BlockError
	if _, err := GuardedCount("eu", 1, 2); !errors.As(err, &blockErr) || blockErr.Value() != "2" {
		t.Fatalf("Count(eu, 1, 2) got %v; want element 2 blocked", err)
	}
}

// The keys are built on the stack: a call under a param rule allocates
// nothing, whether it passes or is blocked.
func TestKeysDoNotAllocate(t *testing.T) {
	useParamRules(t, runtime.ParamFlowRule{Resource: "paramflow.order", Grade: runtime.FlowGradeQPS, ParamIdx: 0, Count: 1e9,
		Items: []runtime.ParamFlowItem{{Object: "blocked", Count: 0}}},
		runtime.ParamFlowRule{Resource: "paramflow.order", Grade: runtime.FlowGradeQPS, ParamIdx: 5, Count: 1e9},
		runtime.ParamFlowRule{Resource: "paramflow.order", Grade: runtime.FlowGradeQPS, ParamIdx: 4, Count: 1e9},
		runtime.ParamFlowRule{Resource: "paramflow.order", Grade: runtime.FlowGradeQPS, ParamIdx: 7, Count: 1e9})
	g := NewGuardedCatalog(&Catalog{})
	m := &Member{Tier: "gold"}
	for _, sku := range []SKU{"tea", "blocked"} {
		o := order{sku: sku, qty: 2, gift: true, price: 1.5, who: Customer{ID: 3, Handle: "c-3"}, tags: []string{"a", "b"}, member: m}
		o.place(g) // the value's first sight
		if n := testing.AllocsPerRun(200, func() { _ = o.place(g) }); n != 0 {
			t.Errorf("Order(%s): %v allocations per call; want 0", sku, n)
		}
	}
}
