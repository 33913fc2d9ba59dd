package runtime

import "errors"

// ErrBlocked is the sentinel error every *BlockError matches with errors.Is,
// whatever rule caused the block.
var ErrBlocked = errors.New("sentinel: blocked")

// BlockType says which kind of rule blocked a call.
type BlockType uint8

const (
	// BlockTypeFlow is a block by a flow rule (QPS, concurrency, warm-up, rate limiter).
	BlockTypeFlow BlockType = iota + 1
	// BlockTypeDegrade is a block by a circuit breaker that is OPEN (or HALF_OPEN with its probe in flight).
	BlockTypeDegrade
	// BlockTypeParamFlow is a block by a hot-parameter rule; Value names the refused value.
	BlockTypeParamFlow
	// BlockTypeSystem is a block by system adaptive protection.
	BlockTypeSystem
	// BlockTypeAuthority is a block by an authority rule; Origin names the refused caller.
	BlockTypeAuthority
)

// String returns "flow", "degrade", "param-flow", "system" or "authority",
// the rule kinds' names in rule documents.
func (t BlockType) String() string {
	switch t {
	case BlockTypeFlow:
		return "flow"
	case BlockTypeDegrade:
		return "degrade"
	case BlockTypeParamFlow:
		return "param-flow"
	case BlockTypeSystem:
		return "system"
	case BlockTypeAuthority:
		return "authority"
	}
	return "unknown"
}

// BlockError reports that the runtime refused a call. Values are created when
// rules are loaded, one per (resource, rule), and shared by every blocked call:
// they are immutable and must not be modified, except for the count of the
// calls they blocked (see Blocked). The block path therefore never allocates.
type BlockError struct {
	// blocked counts the calls this rule blocked, for metrics read off the
	// request path (see Blocked). First, so that it is 64-bit aligned for
	// the atomic add on 32-bit platforms; a plain int64 rather than an
	// atomic.Int64 so that copying a BlockError stays legal.
	blocked  int64
	typ      BlockType
	resource string
	rule     string // human-readable description of the rule, fixed at load time
	msg      string // precomputed Error() text
	value    string // the refused hot-parameter value (param-flow blocks)
	origin   string // the refused caller (authority and per-origin blocks)
}

func newBlockError(typ BlockType, resource, rule string) *BlockError {
	msg := "sentinel: " + typ.String() + " block on resource " + resource + " by " + rule
	// The rule's text is the end of the message: keeping that part of
	// msg, not rule, holds one string per rule instead of two.
	return &BlockError{typ: typ, resource: resource, rule: msg[len(msg)-len(rule):], msg: msg}
}

// Error names the resource and the rule that blocked the call.
func (e *BlockError) Error() string { return e.msg }

// Type says which kind of rule blocked the call.
func (e *BlockError) Type() BlockType { return e.typ }

// Resource is the name of the blocked resource.
func (e *BlockError) Resource() string { return e.resource }

// Rule describes the rule that blocked the call.
func (e *BlockError) Rule() string { return e.rule }

// Value is the argument value a hot-parameter rule refused, as text; empty
// for other blocks.
func (e *BlockError) Value() string { return e.value }

// Origin is the caller (see WithOrigin) an authority rule refused; empty for
// other blocks.
func (e *BlockError) Origin() string { return e.origin }

// Is reports whether target is ErrBlocked, so errors.Is(err, ErrBlocked)
// holds for every block whatever its type.
func (e *BlockError) Is(target error) bool { return target == ErrBlocked }
