package runtime

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// namer numbers distinct names in the order of their first mention and
// fills each new-side mention's slot, as the map it replaces did, on both
// its small path and its bucket-sort path, and when hashes collide.
func TestNamerMatchesAMap(t *testing.T) {
	for _, size := range []int{1, 7, 300, 5000} {
		for _, collide := range []bool{false, true} {
			rng := rand.New(rand.NewPCG(uint64(size), 1))
			var n namer
			var mentions []string
			var withSlot []bool
			for range size {
				name := "r" + strconv.Itoa(rng.IntN(size/2+1))
				slot := rng.IntN(3) != 0
				mentions, withSlot = append(mentions, name), append(withSlot, slot)
				n.add(name, slot)
			}
			if collide { // every other name shares one hash
				for i := range n.names {
					if len(n.names[i].name)%2 == 0 {
						n.names[i].h = 42
					}
				}
			}
			names := n.assign()

			slot := map[string]int32{}
			var want []string
			var wantSlots []int32
			for i, m := range mentions {
				s, ok := slot[m]
				if !ok {
					s = int32(len(want))
					slot[m], want = s, append(want, m)
				}
				if withSlot[i] {
					wantSlots = append(wantSlots, s)
				}
			}
			if !slices.Equal(names, want) || !slices.Equal(n.slot, wantSlots) {
				t.Errorf("size %d, collisions %v: names %v slots %v, want %v %v", size, collide, names, n.slot, want, wantSlots)
			}
		}
	}
}
