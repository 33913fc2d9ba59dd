package hotkeys

import (
	"hash/maphash"
	"math"
	"strconv"
)

// Kind is the class of a key. Keys of different kinds never match, whatever
// their bits.
type Kind uint8

const (
	// None is the zero Key's kind: no table holds it.
	None Kind = iota
	// String keys compare S.
	String
	// Int keys are integers >= 0, signed or unsigned, in Bits: IntArg(5)
	// and UintArg(5) are the same key.
	Int
	// NegInt keys are negative integers, Bits holding their two's
	// complement.
	NegInt
	// Float keys hold math.Float64bits of the value, NaN made canonical.
	Float
	// Bool keys hold 0 or 1.
	Bool
)

// Key is one value of an argument as the tables compare it.
type Key struct {
	S    string
	Bits uint64
	Kind Kind
}

// StringKey is the key of s.
func StringKey(s string) Key { return Key{Kind: String, S: s} }

// IntKey is the key of n.
func IntKey(n int64) Key {
	if n < 0 {
		return Key{Kind: NegInt, Bits: uint64(n)}
	}
	return Key{Kind: Int, Bits: uint64(n)}
}

// UintKey is the key of n; it equals IntKey(int64(n)) when n fits an int64.
func UintKey(n uint64) Key { return Key{Kind: Int, Bits: n} }

// canonicalNaN is the one NaN of float keys (Java's Double.equals also treats
// every NaN as one value).
var canonicalNaN = math.Float64bits(math.NaN())

// FloatKey is the key of f.
func FloatKey(f float64) Key {
	if f != f {
		return Key{Kind: Float, Bits: canonicalNaN}
	}
	return Key{Kind: Float, Bits: math.Float64bits(f)}
}

// BoolKey is the key of b.
func BoolKey(b bool) Key {
	if b {
		return Key{Kind: Bool, Bits: 1}
	}
	return Key{Kind: Bool}
}

// Text is the key's value as text, as BlockError.Value reports it.
func (k Key) Text() string {
	switch k.Kind {
	case String:
		return k.S
	case Int:
		return strconv.FormatUint(k.Bits, 10)
	case NegInt:
		return strconv.FormatInt(int64(k.Bits), 10)
	case Float:
		return strconv.FormatFloat(math.Float64frombits(k.Bits), 'g', -1, 64)
	case Bool:
		return strconv.FormatBool(k.Bits != 0)
	}
	return ""
}

// hasher hashes keys with a table's own seed, so that two tables (and two
// processes) spread the same keys differently and a caller cannot aim keys
// at one chain.
type hasher struct {
	seed maphash.Seed
	mix  uint64 // seeds the integer hash
}

func newHasher() hasher {
	s := maphash.MakeSeed()
	return hasher{seed: s, mix: maphash.String(s, "hotkeys") | 1}
}

// hash returns k's hash; strings through maphash, numbers through a
// multiply-xorshift finaliser (murmur3's fmix64) of the seeded bits.
func (h hasher) hash(k Key) uint64 {
	if k.Kind == String {
		return maphash.String(h.seed, k.S)
	}
	x := (k.Bits ^ h.mix) + uint64(k.Kind)*0x9e3779b97f4a7c15
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}
