package runtime

import (
	"errors"
	"sync/atomic"
	"unsafe"
)

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
// The text of a flow or degrade rule's error is formatted the first time
// Error, Rule or Resource reads it (then kept), so that a load of many rules
// formats none.
type BlockError struct {
	// tally, when not nil, is the *tally.Tally of per-processor counts
	// that Blocked adds to blocked, made when the error is first returned
	// for a resource blocked on several processors (see checkTally); a
	// copy of the error shares it. A plain pointer, as text is. It
	// comes first, so that it shares a cache line with blocked in the
	// holders (see TestBlockErrorFitsItsHolders).
	tally unsafe.Pointer
	typ   BlockType
	// ruleAt and ruleEnd delimit the rule's text in msg; the resource's
	// name is the part of msg before it (see newBlockError). Offsets rather
	// than strings of their own keep the error at 72 bytes, which a flow
	// check or a breaker holds within the 288-byte allocation it takes
	// anyway (see TestBlockErrorFitsItsHolders). In a lazy error (src not nil)
	// ruleAt is the rule's index instead, and the offsets are in text.
	ruleAt, ruleEnd int32
	// blocked counts the calls this error was returned for, for metrics
	// read off the request path (see Blocked), but for those its tally
	// counted. 32 bits fill the padding after ruleEnd; a plain word with
	// atomic adds rather than an atomic.Uint32, so copying an error (as
	// per-value param-flow errors do) stays legal.
	blocked uint32
	msg     string // precomputed Error() text; empty in a lazy error
	// detail is the refused hot-parameter value of a param-flow block
	// (Value) or the refused caller of an authority block (Origin): no
	// error has both, and one field keeps the room src and text need.
	detail string
	// src, when not nil, is the rule whose text this error carries, to be
	// formatted on first read (see initLazy): a load of 100k rules then
	// formats and allocates no text, and most errors are never read. It
	// is a *FlowRule for a flow block and a *DegradeRule for a degrade
	// block (see source), held as a bare pointer because an interface
	// would not fit in 64 bytes. text is the formatted *blockText,
	// published once with a compare-and-swap; a plain pointer with atomic
	// functions rather than an atomic.Pointer, so that copying an error
	// stays legal (see blocked).
	src, text unsafe.Pointer
}

// blockSource is a rule that can describe itself for a block message.
type blockSource interface {
	// blockResource is the rule's resource.
	blockResource() string
	// appendBlockRule appends the text Rule returns for the rule at index.
	appendBlockRule(b []byte, index int) []byte
}

// blockText is a lazily formatted message with the offsets of its rule.
type blockText struct {
	msg             string
	ruleAt, ruleEnd int32
}

// blockPrefix and blockBy frame the resource's name in a block message.
const (
	blockPrefix = "sentinel: "
	blockOn     = " block on resource "
	blockBy     = " by "
)

func newBlockError(typ BlockType, resource, rule string) *BlockError {
	e := new(BlockError)
	e.init(typ, resource, rule)
	return e
}

// init fills a zero error with its text, formatted now (errors of the
// kinds initLazy does not take: param-flow, system, authority).
func (e *BlockError) init(typ BlockType, resource, rule string) {
	msg := blockPrefix + typ.String() + blockOn + resource + blockBy + rule
	e.typ, e.ruleAt, e.ruleEnd, e.msg = typ, int32(len(msg)-len(rule)), int32(len(msg)), msg
}

// initLazy fills a zero error whose text src formats when first read,
// naming the rule at index (see src).
func (e *BlockError) initLazy(typ BlockType, src blockSource, index int) {
	e.typ, e.ruleAt = typ, int32(index)
	switch r := src.(type) {
	case *FlowRule:
		e.src = unsafe.Pointer(r)
	case *DegradeRule:
		e.src = unsafe.Pointer(r)
	default:
		panic("sentinel: no lazy block error for this rule kind")
	}
}

// lazyIndex is the rule index a lazy error names; ok is false for an
// error whose text was made eagerly.
func (e *BlockError) lazyIndex() (index int, ok bool) { return int(e.ruleAt), e.src != nil }

// source is the rule of a lazy error, by the kind src holds (see src).
func (e *BlockError) source() blockSource {
	if e.typ == BlockTypeFlow {
		return (*FlowRule)(e.src)
	}
	return (*DegradeRule)(e.src)
}

// parts returns the message and its rule's offsets, formatting a lazy
// error's text once; concurrent first readers may each format it, and all
// then return the one that was published.
func (e *BlockError) parts() (msg string, ruleAt, ruleEnd int32) {
	if e.src == nil {
		return e.msg, e.ruleAt, e.ruleEnd
	}
	t := (*blockText)(atomic.LoadPointer(&e.text))
	if t == nil {
		var buf [128]byte
		src := e.source()
		rule := src.appendBlockRule(buf[:0], int(e.ruleAt))
		msg := blockPrefix + e.typ.String() + blockOn + src.blockResource() + blockBy + string(rule)
		t = &blockText{msg: msg, ruleAt: int32(len(msg) - len(rule)), ruleEnd: int32(len(msg))}
		if !atomic.CompareAndSwapPointer(&e.text, nil, unsafe.Pointer(t)) {
			t = (*blockText)(atomic.LoadPointer(&e.text))
		}
	}
	return t.msg, t.ruleAt, t.ruleEnd
}

// Error names the resource and the rule that blocked the call.
func (e *BlockError) Error() string {
	msg, _, _ := e.parts()
	return msg
}

// Type says which kind of rule blocked the call.
func (e *BlockError) Type() BlockType { return e.typ }

// Resource is the name of the blocked resource.
func (e *BlockError) Resource() string {
	if e.src != nil {
		return e.source().blockResource()
	}
	return e.msg[len(blockPrefix)+len(e.typ.String())+len(blockOn) : int(e.ruleAt)-len(blockBy)]
}

// Rule describes the rule that blocked the call.
func (e *BlockError) Rule() string {
	msg, at, end := e.parts()
	return msg[at:end]
}

// Value is the argument value a hot-parameter rule refused, as text; empty
// for other blocks.
func (e *BlockError) Value() string {
	if e.typ != BlockTypeParamFlow {
		return ""
	}
	return e.detail
}

// Origin is the caller (see WithOrigin) an authority rule refused; empty for
// other blocks.
func (e *BlockError) Origin() string {
	if e.typ != BlockTypeAuthority {
		return ""
	}
	return e.detail
}

// Is reports whether target is ErrBlocked, so errors.Is(err, ErrBlocked)
// holds for every block whatever its type.
func (e *BlockError) Is(target error) bool { return target == ErrBlocked }
