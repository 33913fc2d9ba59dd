package hotkeys

import (
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

type state struct{ hits atomic.Int64 }

func insert(t *Table[state], k Key) *Node[state] {
	return t.Insert(NewNode[state](k), t.Hash(k))
}

func TestGetInsert(t *testing.T) {
	tb := New[state](100, nil)
	keys := []Key{StringKey("a"), StringKey(""), IntKey(5), IntKey(-5), UintKey(1 << 63), FloatKey(0.5), BoolKey(true), BoolKey(false)}
	for _, k := range keys {
		if tb.Get(k, tb.Hash(k)) != nil {
			t.Fatalf("%v found before insert", k)
		}
		n := insert(tb, k)
		if again := insert(tb, k); again != n {
			t.Fatalf("second insert of %v made a second node", k)
		}
		if got := tb.Get(k, tb.Hash(k)); got != n {
			t.Fatalf("Get(%v) = %p, want %p", k, got, n)
		}
	}
	if tb.Len() != len(keys) {
		t.Fatalf("Len = %d, want %d", tb.Len(), len(keys))
	}
	// Kinds keep equal bits apart; signed and unsigned agree.
	if IntKey(5) != UintKey(5) {
		t.Fatal("IntKey(5) != UintKey(5)")
	}
	if tb.Get(IntKey(1), tb.Hash(IntKey(1))) != nil || tb.Get(StringKey("5"), tb.Hash(StringKey("5"))) != nil {
		t.Fatal("found a key never inserted")
	}
}

func TestGrowKeepsEveryKey(t *testing.T) {
	tb := New[state](5000, nil)
	for i := range 5000 {
		insert(tb, IntKey(int64(i)))
	}
	if n := len(tb.idx.Load().heads); n != 8192 {
		t.Fatalf("index has %d heads, want 8192", n)
	}
	for i := range 5000 {
		k := IntKey(int64(i))
		if tb.Get(k, tb.Hash(k)) == nil {
			t.Fatalf("lost %d after growing", i)
		}
	}
}

func TestBoundedAndEvictedComesBackFresh(t *testing.T) {
	tb := New[state](3, nil)
	a := insert(tb, StringKey("a"))
	a.Val.hits.Store(7)
	insert(tb, StringKey("b"))
	insert(tb, StringKey("c"))
	insert(tb, StringKey("d")) // evicts one of a, b, c: none was read
	if tb.Len() != 3 {
		t.Fatalf("Len = %d, want 3", tb.Len())
	}
	held := 0
	for _, s := range []string{"a", "b", "c", "d"} {
		if tb.Get(StringKey(s), tb.Hash(StringKey(s))) != nil {
			held++
		}
	}
	if held != 3 {
		t.Fatalf("%d of 4 keys held, want 3", held)
	}
	// Fill until a is gone, then it comes back with a new, zero state.
	for i := 0; tb.Get(StringKey("a"), tb.Hash(StringKey("a"))) == a; i++ {
		tb.ring[0].ref.Store(0) // do not let the Get above spare it
		for _, n := range tb.ring {
			n.ref.Store(0)
		}
		insert(tb, StringKey("x"+strconv.Itoa(i)))
	}
	back := insert(tb, StringKey("a"))
	if back == a || back.Val.hits.Load() != 0 {
		t.Fatalf("evicted key came back with its old state")
	}
}

func TestClockSparesReadKeys(t *testing.T) {
	tb := New[state](4, nil)
	hot := StringKey("hot")
	insert(tb, hot)
	for i := range 100 {
		tb.Get(hot, tb.Hash(hot)) // read between every insert: always spared
		insert(tb, IntKey(int64(i)))
		if tb.Get(hot, tb.Hash(hot)) == nil {
			t.Fatalf("hot key evicted by cold key %d", i)
		}
	}
}

func TestKeepSparesHeldNodes(t *testing.T) {
	tb := New[state](2, func(s *state) bool { return s.hits.Load() > 0 })
	held := insert(tb, StringKey("held"))
	held.Val.hits.Store(1)
	for i := range 10 {
		insert(tb, IntKey(int64(i)))
		if tb.Get(StringKey("held"), tb.Hash(StringKey("held"))) != held {
			t.Fatalf("node with calls in flight evicted at insert %d", i)
		}
		held.ref.Store(0)
	}
	// When every node is kept, the table still stays bounded.
	tb2 := New[state](2, func(*state) bool { return true })
	for i := range 10 {
		insert(tb2, IntKey(int64(i)))
	}
	if tb2.Len() != 2 {
		t.Fatalf("Len = %d, want 2", tb2.Len())
	}
}

func TestNodeOwnsItsString(t *testing.T) {
	buf := []byte("request-body-sku-1")
	k := StringKey(string(buf[13:]))
	n := NewNode[state](k)
	if n.Key.S != "sku-1" {
		t.Fatalf("key %q", n.Key.S)
	}
}

func TestGetDoesNotAllocate(t *testing.T) {
	tb := New[state](10, nil)
	k := StringKey("sku-1")
	insert(tb, k)
	if a := testing.AllocsPerRun(1000, func() { tb.Get(k, tb.Hash(k)) }); a != 0 {
		t.Fatalf("Get allocates %v times", a)
	}
}

// Readers race inserts, growth and eviction (run with -race): every read
// either misses or returns the node of its own key. The readers start
// before the writers and each reads on until it has found a key: once the
// writers are done the table holds 500 of their keys, which a reader
// scanning both writers' ranges meets within one turn (a reader missing
// them all for two turns fails), so its "found" check cannot fail for
// want of scheduling (under load the
// writers could finish before a reader ran, and the keys a late reader
// looked for were gone).
func TestConcurrentReadersAndWriters(t *testing.T) {
	const perWriter = 20000
	tb := New[state](500, nil)
	var writers, readers, started sync.WaitGroup
	var stop atomic.Bool
	var found atomic.Int64
	for range 4 {
		readers.Add(1)
		started.Add(1)
		go func() {
			defer readers.Done()
			started.Done()
			mine, after := 0, 0
			for i := 0; mine == 0 || !stop.Load(); i++ {
				if stop.Load() {
					// Two turns over both ranges of a table that no
					// longer changes: a miss on all is Get's failure.
					if after++; after > 4*perWriter {
						t.Error("a reader found none of the 500 keys left in the table")
						return
					}
				}
				w, j := i%2, (i/2)%perWriter
				k := IntKey(int64(w*1_000_000 + j))
				if n := tb.Get(k, tb.Hash(k)); n != nil {
					if n.Key != k {
						t.Errorf("Get(%v) returned %v", k, n.Key)
						return
					}
					mine++
				}
			}
			found.Add(int64(mine))
		}()
	}
	started.Wait()
	for w := range 2 {
		writers.Add(1)
		go func() {
			defer writers.Done()
			for i := range perWriter {
				insert(tb, IntKey(int64(w*1_000_000+i)))
			}
		}()
	}
	writers.Wait()
	stop.Store(true)
	readers.Wait()
	if tb.Len() != 500 {
		t.Fatalf("Len = %d, want 500", tb.Len())
	}
	if found.Load() < 4 {
		t.Fatalf("readers found %d keys, want at least one each", found.Load())
	}
}

// Reads take no lock: Get answers while an insert holds the table's mutex.
func TestGetWhileInsertHoldsTheLock(t *testing.T) {
	tb := New[state](10, nil)
	k := StringKey("sku-1")
	n := insert(tb, k)
	tb.mu.Lock()
	defer tb.mu.Unlock()
	got := make(chan *Node[state])
	go func() { got <- tb.Get(k, tb.Hash(k)) }()
	select {
	case g := <-got:
		if g != n {
			t.Fatalf("Get = %p, want %p", g, n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Get waited for the table's mutex")
	}
}

func BenchmarkGet(b *testing.B) {
	tb := New[state](4000, nil)
	keys := make([]Key, 4000)
	for i := range keys {
		keys[i] = StringKey("sku-" + strconv.Itoa(i))
		insert(tb, keys[i])
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		k := keys[i]
		if tb.Get(k, tb.Hash(k)) == nil {
			b.Fatal("miss")
		}
		if i++; i == len(keys) {
			i = 0
		}
	}
}
