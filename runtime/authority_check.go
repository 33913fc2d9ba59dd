package runtime

import (
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// maxRefusedOrigins bounds the block errors a white list keeps for the
// origins it refuses (see authorityCheck.refused). Beyond it each refusal
// of a new origin allocates its error.
const maxRefusedOrigins = 1024

// authorityCheck enforces one AuthorityRule. Its block errors name the
// refused origin (BlockError.Origin) and are made ahead of the calls they
// refuse: a black list makes one per listed origin at load; a white list
// makes one per refused origin at its first refusal and keeps it, up to
// maxRefusedOrigins, so the steady block path allocates nothing.
type authorityCheck struct {
	white bool
	// listed holds the listed origins; for a black list, with each one's
	// block error.
	listed map[string]*BlockError
	// refused is a white list's block errors, by origin.
	refused      sync.Map
	refusedCount atomic.Int32
	resource     string
	text         string // the rule's description, for new block errors
}

func newAuthorityCheck(r AuthorityRule, index int) *authorityCheck {
	a := &authorityCheck{white: r.Strategy == AuthorityWhite, listed: map[string]*BlockError{}, resource: r.Resource}
	kind := " (black list "
	if a.white {
		kind = " (white list "
	}
	a.text = "authority rule #" + strconv.Itoa(index) + kind + r.LimitApp + ")"
	// Sentinel splits on commas and matches each item exactly, without
	// trimming (validated: no item has surrounding spaces).
	for _, origin := range strings.Split(r.LimitApp, ",") {
		if origin == "" || a.listed[origin] != nil {
			continue
		}
		var be *BlockError
		if !a.white {
			be = a.blockError(origin)
		}
		a.listed[origin] = be
	}
	return a
}

// blockError is the error refusing origin.
func (a *authorityCheck) blockError(origin string) *BlockError {
	be := newBlockError(BlockTypeAuthority, a.resource, a.text+": origin "+strconv.Quote(origin))
	be.detail = origin
	return be
}

// check decides a call from origin (not empty; a call without an origin
// passes every authority rule, as in Sentinel): nil when the rule lets it
// through.
func (a *authorityCheck) check(origin string) *BlockError {
	be, listed := a.listed[origin]
	if !a.white {
		return be // nil unless listed
	}
	if listed {
		return nil
	}
	if v, ok := a.refused.Load(origin); ok {
		return v.(*BlockError)
	}
	be = a.blockError(origin)
	if a.refusedCount.Load() < maxRefusedOrigins {
		if v, loaded := a.refused.LoadOrStore(origin, be); loaded {
			return v.(*BlockError)
		}
		a.refusedCount.Add(1)
	}
	return be
}
