package runtime

import "slices"

// What a load changes. A resource's rule set depends only on the rules that
// name it and their positions (block errors carry the index), so a load
// compares each new list with the one in force, position by position, and
// rebuilds only the resources named at a differing position: a load that
// edits one rule among 100k rebuilds one resource, validates one rule and
// patches one element of the list it keeps, not 100k. The positions the
// comparison finds serve every later step: naming the changed resources,
// validation, linking each one's rules, and the list kept in force.

// ruleChanges is the resources a load changes, the differing positions of
// each kind and, once linked, the positions of the new rules naming each
// changed resource.
type ruleChanges struct {
	// names is the changed resources, in the order the load names them;
	// slot maps a name to its index (its slot), made when first needed
	// (see lookup).
	names []string
	slot  map[string]int32
	// sorted is names in hash order (see namer), for the registry.
	sorted hashOrder
	// Per kind, where the new list differs from the one in force (empty
	// for a kind the load leaves as it is).
	flowAt, degradeAt, paramAt, authorityAt kindDiff
	// Per resource and kind, the first position of a rule naming it (-1:
	// none); per position, the next one naming the same resource. Chains,
	// rather than a slice per resource, keep a large load to a few
	// allocations.
	flow, degrade, param, authority chain
}

// kindDiff is where one kind's new list differs from the list in force.
type kindDiff struct {
	// at is the differing positions in ascending order: those where both
	// lists have a rule and the rules differ, then every position only
	// one of them has (all of them, in a first load).
	at []int32
	// slot is, per position of at, the slot (index in names) of the
	// resource the new rule names; -1 where the new list has no rule.
	slot []int32
}

// changedResources finds the resources whose rules of the kinds in kinds
// differ between those in force and next. Callers hold rulesInForce's lock.
// System rules name no resource: they are process-wide.
func changedResources(next *ruleLists, kinds ruleKinds) *ruleChanges {
	cur := &rulesInForce.ruleLists
	c := &ruleChanges{}
	if kinds&kindFlow != 0 {
		c.flowAt.at = diffAt(cur.flow, next.flow, same[FlowRule])
	}
	if kinds&kindDegrade != 0 {
		c.degradeAt.at = diffAt(cur.degrade, next.degrade, same[DegradeRule])
	}
	if kinds&kindParam != 0 {
		c.paramAt.at = diffAt(cur.param, next.param, func(a, b *ParamFlowRule) bool { return sameParamRule(*a, *b) })
	}
	if kinds&kindAuthority != 0 {
		c.authorityAt.at = diffAt(cur.authority, next.authority, same[AuthorityRule])
	}
	var n namer
	n.grow(len(c.flowAt.at) + len(c.degradeAt.at) + len(c.paramAt.at) + len(c.authorityAt.at))
	f := nameDiff(&n, c.flowAt.at, cur.flow, next.flow, flowResource)
	d := nameDiff(&n, c.degradeAt.at, cur.degrade, next.degrade, degradeResource)
	p := nameDiff(&n, c.paramAt.at, cur.param, next.param, paramResource)
	a := nameDiff(&n, c.authorityAt.at, cur.authority, next.authority, authorityResource)
	c.names = n.assign()
	c.sorted = n.sorted
	c.flowAt.slot, c.degradeAt.slot = n.slot[f:d:d], n.slot[d:p:p]
	c.paramAt.slot, c.authorityAt.slot = n.slot[p:a:a], n.slot[a:]
	return c
}

// same is == for diffAt, which passes rules by pointer (a flow rule is
// 144 bytes).
func same[T comparable](a, b *T) bool { return *a == *b }

// The resource a rule names, per kind, for nameDiff and link.
func flowResource(r *FlowRule) string           { return r.Resource }
func degradeResource(r *DegradeRule) string     { return r.Resource }
func paramResource(r *ParamFlowRule) string     { return r.Resource }
func authorityResource(r *AuthorityRule) string { return r.Resource }

// diffAt returns the positions where old and next differ (see kindDiff.at).
func diffAt[T any](old, next []T, same func(a, b *T) bool) []int32 {
	both, all := min(len(old), len(next)), max(len(old), len(next))
	var at []int32
	for i := range both {
		if !same(&old[i], &next[i]) {
			at = append(at, int32(i))
		}
	}
	at = slices.Grow(at, all-both)
	for i := both; i < all; i++ {
		at = append(at, int32(i))
	}
	return at
}

// nameDiff hands n the resources named at the positions at, on either side
// (a rule moving from one resource to another changes both), with a slot
// per position for the new side's resource (-1 where the new list has no
// rule), and returns where those slots start in n.slot.
func nameDiff[T any](n *namer, at []int32, old, next []T, resource func(*T) string) int {
	base := len(n.slot)
	for _, p := range at {
		i, name := int(p), ""
		if i < len(next) {
			name = resource(&next[i])
			n.add(name, true)
		} else {
			n.slot = append(n.slot, -1)
		}
		if i < len(old) {
			if o := resource(&old[i]); i >= len(next) || o != name {
				n.add(o, false)
			}
		}
	}
	return base
}

// lookup returns name's slot, if name is a changed resource. The map is
// built on first use: a first load, whose positions all differ, needs none.
func (c *ruleChanges) lookup(name string) (int32, bool) {
	if c.slot == nil {
		c.slot = make(map[string]int32, len(c.names))
		for k, n := range c.names {
			c.slot[n] = int32(k)
		}
	}
	s, ok := c.slot[name]
	return s, ok
}

// has reports whether name is a changed resource; a nil c holds every name.
func (c *ruleChanges) has(name string) bool {
	if c == nil {
		return true
	}
	_, ok := c.lookup(name)
	return ok
}

// chain is the position chains of one kind (see ruleChanges).
type chain struct{ head, next []int32 }

// positions appends resource k's positions to buf.
func (ch *chain) positions(buf []int, k int) []int {
	if ch.head == nil {
		return buf
	}
	for p := ch.head[k]; p >= 0; p = ch.next[p] {
		buf = append(buf, int(p))
	}
	return buf
}

// link fills the position chains for the new rules. At a differing
// position the slot is known from the diff; elsewhere the rule's resource
// is looked up among the changed ones, which are few whenever most
// positions are unchanged. Rules of a kind no changed resource has leave
// the chain empty, at no cost.
func link[T any](c *ruleChanges, rules []T, d *kindDiff, resource func(*T) string) chain {
	if len(rules) == 0 {
		return chain{}
	}
	head, next := make([]int32, len(c.names)), make([]int32, len(rules))
	for i := range head {
		head[i] = -1
	}
	k := len(d.at) - 1
	for i := len(rules) - 1; i >= 0; i-- { // backwards, so chains run in load order
		next[i] = -1
		for k >= 0 && int(d.at[k]) > i {
			k--
		}
		var s int32
		var ok bool
		if k >= 0 && int(d.at[k]) == i {
			s, ok = d.slot[k], true
		} else {
			s, ok = c.lookup(resource(&rules[i]))
		}
		if ok {
			next[i], head[s] = head[s], int32(i)
		}
	}
	return chain{head, next}
}

// keptList is the list of next to keep in force: cur patched at the
// differing positions at, when few differ, or else a copy of next (which
// belongs to the caller). cur is read only under rulesInForce's lock and
// never handed out (readers and listeners get copies), so patching it in
// place is invisible, and a reload that edits one rule among 100k copies
// one rule, not 100k. Callers hold rulesInForce's lock.
func keptList[T any](cur, next []T, at []int32) []T {
	if len(next) > cap(cur) || len(at) > len(next)/8 {
		return append([]T(nil), next...)
	}
	out := cur[:len(next)]
	for _, p := range at {
		if int(p) < len(next) {
			out[p] = next[p]
		}
	}
	if len(next) < len(cur) {
		clear(cur[len(next):]) // the removed rules' strings are garbage
	}
	return out
}
