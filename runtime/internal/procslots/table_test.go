package procslots

import (
	"sync"
	"testing"
	"unsafe"
)

// An empty table answers nil for every slot from the shared empty slots;
// after stores every slot holds what was stored in it and nothing else,
// and the shared empty slots stay empty.
func TestTableSlots(t *testing.T) {
	var tab, other Table
	tab.Init()
	other.Init()
	for i := range Len {
		if p := tab.Load(i); p != nil {
			t.Fatalf("slot %d of an empty table = %p, want nil", i, p)
		}
	}
	if tab.slots != unsafe.Pointer(&empty) {
		t.Fatal("an empty table has slots of its own")
	}
	vals := make([]int, Len)
	for i := 0; i < Len; i += 3 {
		tab.Store(i, unsafe.Pointer(&vals[i]))
	}
	for i := range Len {
		want := unsafe.Pointer(nil)
		if i%3 == 0 {
			want = unsafe.Pointer(&vals[i])
		}
		if got := tab.Load(i); got != want {
			t.Errorf("slot %d = %p, want %p", i, got, want)
		}
	}
	for i := range Len {
		if p := other.Load(i); p != nil {
			t.Fatalf("slot %d of another empty table = %p after stores to the first", i, p)
		}
	}
}

// Processors storing their first slots at once all keep them: no store
// lands in an array that loses the race to be the table's.
func TestTableConcurrentFirstStores(t *testing.T) {
	for round := range 200 {
		var tab Table
		tab.Init()
		vals := make([]int, Len)
		var wg sync.WaitGroup
		for i := range Len {
			wg.Go(func() { tab.Store(i, unsafe.Pointer(&vals[i])) })
		}
		wg.Wait()
		for i := range Len {
			if tab.Load(i) != unsafe.Pointer(&vals[i]) {
				t.Fatalf("round %d: slot %d lost its store", round, i)
			}
		}
	}
}

// A Table is one word, against a flat array's Len: the point of it.
func TestTableSize(t *testing.T) {
	if got := unsafe.Sizeof(Table{}); got != unsafe.Sizeof(uintptr(0)) {
		t.Fatalf("Table is %d bytes, want one word", got)
	}
}
