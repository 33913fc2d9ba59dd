package generictype

import (
	"context"
	"errors"
	"testing"

	"example.com/golden/ruletest"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// The guarded instantiation satisfies the same generic interface.
var (
	_ Getter[string, int] = (*Cache[string, int])(nil)
	_ Getter[string, int] = (*GuardedCache[string, int])(nil)
)

func TestGenericWrapperAdmitted(t *testing.T) {
	ruletest.UseFlow(t)
	cache := NewGuardedCache(NewCache[string, int]())
	if err := cache.Put(context.Background(), "a", 1); err != nil {
		t.Fatal(err)
	}
	if v, err := cache.Get(context.Background(), "a"); v != 1 || err != nil {
		t.Fatalf("Get(a) = %d, %v; want 1", v, err)
	}
	if cache.Len() != 1 {
		t.Fatalf("Len = %d; want 1 (promoted from *Cache)", cache.Len())
	}
}

func TestGenericWrapperBlocked(t *testing.T) {
	ruletest.UseFlow(t,
		runtime.FlowRule{Resource: "generictype.get", Grade: runtime.FlowGradeQPS, Count: 0},
		runtime.FlowRule{Resource: "generictype.put", Grade: runtime.FlowGradeQPS, Count: 0})
	inner := NewCache[int, []byte]()
	cache := NewGuardedCache(inner)
	if err := cache.Put(context.Background(), 1, []byte("x")); !errors.Is(err, runtime.ErrBlocked) {
		t.Fatalf("blocked Put err = %v; want the fallback to return the block error", err)
	}
	if inner.Len() != 0 {
		t.Fatal("a blocked Put stored its value")
	}
	v, err := cache.Get(context.Background(), 1)
	if v != nil || !errors.Is(err, ErrMissing) || !errors.Is(err, runtime.ErrBlocked) {
		t.Fatalf("blocked Get = %v, %v; want the blockHandler's answer", v, err)
	}
}
