package runtime

import (
	"cmp"
	"hash/maphash"
	"math/bits"
	"slices"
)

// namer gives the resources a load changes their slots. A map from name to
// slot would cost a random memory access or two per name, and on a large
// first load those accesses are most of the diff's time (100k names: 60 ms
// of cache misses on a 2-vCPU VM). namer sorts the names by hash instead,
// which touches memory in order, groups equal names, and numbers the
// groups in the order the load first names them, as a map would.
type namer struct {
	names []nameRef
	slot  []int32 // the new side's slots, one per differing position
	// After assign, the distinct names in hash order, the order of the
	// registry's table (see resourceTable): with their hashes (hashName)
	// and slots.
	sorted hashOrder
}

// hashOrder is a load's changed resources in the order of their hashes:
// names[g] has hash hash[g] and slot slot[g] (its index in names of
// ruleChanges).
type hashOrder struct {
	names []string
	hash  []uint64
	slot  []int32
}

// nameRef is one mention of a resource by a differing position.
type nameRef struct {
	h    uint64
	name string
	// seq is the mention's order; after grouping, its group.
	seq int32
	// dest is where the mention's slot goes, an index in namer.slot; -1
	// for a mention whose slot no one needs (a rule's old resource).
	dest int32
}

// nameSeed is the hash seed of namer and of the registry's table, fixed
// for the process.
var nameSeed = maphash.MakeSeed()

// grow makes room for about m mentions and m slots.
func (n *namer) grow(m int) {
	n.names = make([]nameRef, 0, m)
	n.slot = make([]int32, 0, m)
}

// add records a mention of name; with slot, the mention takes the next
// slot of n.slot, which assign fills with name's.
func (n *namer) add(name string, slot bool) {
	d := int32(-1)
	if slot {
		d = int32(len(n.slot))
		n.slot = append(n.slot, -1)
	}
	n.names = append(n.names, nameRef{h: hashName(name), name: name, seq: int32(len(n.names)), dest: d})
}

// assign numbers the distinct names, fills the slots handed out and
// returns the names in slot order.
func (n *namer) assign() []string {
	refs := n.names
	if len(refs) == 0 {
		return nil
	}
	refs = sortRefs(refs)
	// Group equal names; firstOf[seq] is the group first named at seq.
	firstOf := make([]int32, len(refs))
	for i := range firstOf {
		firstOf[i] = -1
	}
	groups := make([]string, 0, len(refs))
	hashes := make([]uint64, 0, len(refs))
	for i := 0; i < len(refs); {
		j := i + 1
		for j < len(refs) && refs[j].h == refs[i].h && refs[j].name == refs[i].name {
			j++
		}
		g := int32(len(groups))
		groups, hashes = append(groups, refs[i].name), append(hashes, refs[i].h)
		firstOf[refs[i].seq] = g // sorted by seq within the group
		for ; i < j; i++ {
			refs[i].seq = g
		}
	}
	// Slots in the order of first mention.
	slotOf := make([]int32, len(groups))
	names := make([]string, 0, len(groups))
	for _, g := range firstOf {
		if g >= 0 {
			slotOf[g] = int32(len(names))
			names = append(names, groups[g])
		}
	}
	for _, r := range refs {
		if r.dest >= 0 {
			n.slot[r.dest] = slotOf[r.seq]
		}
	}
	n.sorted = hashOrder{groups, hashes, slotOf} // groups are in hash order
	return names
}

// sortRefs sorts refs by hash, then name, then seq. Hashes are uniform, so
// one counting pass on their top bits leaves buckets of one or two refs,
// which a comparison sort finishes; a comparison sort of the whole, moving
// 32-byte records, took as long as the map it replaces.
func sortRefs(refs []nameRef) []nameRef {
	if len(refs) < 256 {
		slices.SortFunc(refs, compareRefs)
		return refs
	}
	width := bits.Len(uint(len(refs)))
	shift := 64 - width
	ends := make([]int32, 1<<width+1)
	for i := range refs {
		ends[refs[i].h>>shift+1]++
	}
	for b := 1; b < len(ends); b++ {
		ends[b] += ends[b-1]
	}
	out := make([]nameRef, len(refs))
	for i := range refs {
		b := refs[i].h >> shift
		out[ends[b]] = refs[i]
		ends[b]++ // ends[b] becomes the end of bucket b
	}
	start := int32(0)
	for _, end := range ends[:1<<width] {
		if end-start > 1 {
			slices.SortFunc(out[start:end], compareRefs)
		}
		start = end
	}
	return out
}

// compareRefs orders mentions by hash, then name, then order of mention.
func compareRefs(a, b nameRef) int {
	if c := cmp.Compare(a.h, b.h); c != 0 {
		return c
	}
	if c := cmp.Compare(a.name, b.name); c != 0 { // a collision, or the same name
		return c
	}
	return cmp.Compare(a.seq, b.seq)
}
