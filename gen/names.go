package gen

import (
	"go/token"
	"strconv"
)

// names hands out identifiers that are unique within one scope: it knows
// every name already taken (the user's package-level names, the imports, the
// parameters in scope) and never returns one of them or a Go keyword. A
// child scope starts with everything its parent has taken, so a local never
// shadows a generated package-level name it refers to.
type names struct {
	taken map[string]bool
}

// newNames returns a scope in which the given names are already taken.
func newNames(taken ...map[string]bool) *names {
	n := &names{taken: make(map[string]bool)}
	for _, set := range taken {
		for name := range set {
			n.taken[name] = true
		}
	}
	return n
}

// child returns a new scope that starts with every name taken here.
func (n *names) child() *names {
	return newNames(n.taken)
}

// reserve marks name as taken without checking it: it is used for names the
// model fixes (the user's parameter names, the wrapper type names).
func (n *names) reserve(name string) {
	if name != "" && name != "_" {
		n.taken[name] = true
	}
}

// has reports whether name is taken.
func (n *names) has(name string) bool {
	return n.taken[name]
}

// fresh returns base if it is free, else base2, base3, ... and takes the
// result. A base ending in a digit gets an underscore first (arg1_2, not
// arg12, which reads as a different argument).
func (n *names) fresh(base string) string {
	sep := ""
	if last := base[len(base)-1]; last >= '0' && last <= '9' {
		sep = "_"
	}
	name := base
	for i := 2; n.taken[name] || token.IsKeyword(name) || name == "_"; i++ {
		name = base + sep + strconv.Itoa(i)
	}
	n.taken[name] = true
	return name
}
