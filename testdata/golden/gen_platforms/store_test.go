package platforms

import (
	"context"
	"testing"

	"example.com/golden/ruletest"
)

// The generated Get exists on every platform; Sync's wrapper is the one of
// the platform's own file (see platforms_test.go in gen for the builds).
func TestGetIsGuardedEverywhere(t *testing.T) {
	ruletest.Use(t, nil, nil)
	s := &Store{}
	v, err := NewGuardedStore(s).Get(context.Background(), "k")
	if err != nil || v != "v:k" || s.Calls != 1 {
		t.Fatalf("got %q, %v after %d calls", v, err, s.Calls)
	}
	if err := NewGuardedStore(s).Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
}
