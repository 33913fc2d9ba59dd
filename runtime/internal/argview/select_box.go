//go:build sentinel_purego

package argview

// Ref refers to a slice's elements; its zero value refers to none. The
// length and, for numbers, the element width are the caller's to keep.
type Ref = boxRef

// Plain is true: this build copies slice elements (see the package doc).
const Plain = true

// Strings refers to s's elements.
func Strings[T ~string](s []T) Ref { return boxStrings(s) }

// StringAt is element i of a Ref from Strings.
func StringAt(r Ref, i int) string { return boxStringAt(r, i) }

// Ints refers to s's elements and returns their width.
func Ints[T ~int | ~int8 | ~int16 | ~int32 | ~int64](s []T) (Ref, uint8) { return boxInts(s) }

// IntAt is element i of a Ref from Ints, widened to int64.
func IntAt(r Ref, width uint8, i int) int64 { return boxIntAt(r, width, i) }

// Uints refers to s's elements and returns their width.
func Uints[T ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr](s []T) (Ref, uint8) {
	return boxUints(s)
}

// UintAt is element i of a Ref from Uints, widened to uint64.
func UintAt(r Ref, width uint8, i int) uint64 { return boxUintAt(r, width, i) }

// Floats refers to s's elements and returns their width.
func Floats[T ~float32 | ~float64](s []T) (Ref, uint8) { return boxFloats(s) }

// FloatAt is element i of a Ref from Floats, widened to float64.
func FloatAt(r Ref, width uint8, i int) float64 { return boxFloatAt(r, width, i) }

// Bools refers to s's elements.
func Bools[T ~bool](s []T) Ref { return boxBools(s) }

// BoolAt is element i of a Ref from Bools.
func BoolAt(r Ref, i int) bool { return boxBoolAt(r, i) }
