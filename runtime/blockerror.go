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
	typ BlockType
	// ruleAt and ruleEnd delimit the rule's text in msg; the resource's
	// name is the part of msg before it (see newBlockError). Offsets rather
	// than strings of their own keep the error at 64 bytes: a resource with
	// a flow rule and a breaker holds two.
	ruleAt, ruleEnd int32
	// blocked counts the calls this error was returned for, for metrics
	// read off the request path (see Blocked). 32 bits fill the padding
	// after ruleEnd, so the error stays at 64 bytes; a plain word with
	// atomic adds rather than an atomic.Uint32, so copying an error (as
	// per-value param-flow errors do) stays legal.
	blocked uint32
	msg     string // precomputed Error() text
	value   string // the refused hot-parameter value (param-flow blocks)
	origin  string // the refused caller (authority and per-origin blocks)
}

// blockPrefix and blockBy frame the resource's name in a block message.
const (
	blockPrefix = "sentinel: "
	blockOn     = " block on resource "
	blockBy     = " by "
)

func newBlockError(typ BlockType, resource, rule string) *BlockError {
	msg := blockPrefix + typ.String() + blockOn + resource + blockBy + rule
	return &BlockError{typ: typ, ruleAt: int32(len(msg) - len(rule)), ruleEnd: int32(len(msg)), msg: msg}
}

// Error names the resource and the rule that blocked the call.
func (e *BlockError) Error() string { return e.msg }

// Type says which kind of rule blocked the call.
func (e *BlockError) Type() BlockType { return e.typ }

// Resource is the name of the blocked resource.
func (e *BlockError) Resource() string {
	return e.msg[len(blockPrefix)+len(e.typ.String())+len(blockOn) : int(e.ruleAt)-len(blockBy)]
}

// Rule describes the rule that blocked the call.
func (e *BlockError) Rule() string { return e.msg[e.ruleAt:e.ruleEnd] }

// Value is the argument value a hot-parameter rule refused, as text; empty
// for other blocks.
func (e *BlockError) Value() string { return e.value }

// Origin is the caller (see WithOrigin) an authority rule refused; empty for
// other blocks.
func (e *BlockError) Origin() string { return e.origin }

// Is reports whether target is ErrBlocked, so errors.Is(err, ErrBlocked)
// holds for every block whatever its type.
func (e *BlockError) Is(target error) bool { return target == ErrBlocked }
