package argview

import (
	"math"
	"testing"
)

type myString string
type myInt int16

// impl is one implementation's readers over the same inputs, so both are
// held to the same expectations in every build.
type impl struct {
	name    string
	strings func([]myString) func(int) string
	ints8   func([]int8) func(int) int64
	ints16  func([]myInt) func(int) int64
	ints32  func([]int32) func(int) int64
	ints    func([]int) func(int) int64
	uints8  func([]uint8) func(int) uint64
	uints64 func([]uint64) func(int) uint64
	uintptr func([]uintptr) func(int) uint64
	f32     func([]float32) func(int) float64
	f64     func([]float64) func(int) float64
	bools   func([]bool) func(int) bool
}

var impls = []impl{
	{
		name: "raw",
		strings: func(s []myString) func(int) string {
			r := rawStrings(s)
			return func(i int) string { return rawStringAt(r, i) }
		},
		ints8: func(s []int8) func(int) int64 {
			r, w := rawInts(s)
			return func(i int) int64 { return rawIntAt(r, w, i) }
		},
		ints16: func(s []myInt) func(int) int64 {
			r, w := rawInts(s)
			return func(i int) int64 { return rawIntAt(r, w, i) }
		},
		ints32: func(s []int32) func(int) int64 {
			r, w := rawInts(s)
			return func(i int) int64 { return rawIntAt(r, w, i) }
		},
		ints: func(s []int) func(int) int64 {
			r, w := rawInts(s)
			return func(i int) int64 { return rawIntAt(r, w, i) }
		},
		uints8: func(s []uint8) func(int) uint64 {
			r, w := rawUints(s)
			return func(i int) uint64 { return rawUintAt(r, w, i) }
		},
		uints64: func(s []uint64) func(int) uint64 {
			r, w := rawUints(s)
			return func(i int) uint64 { return rawUintAt(r, w, i) }
		},
		uintptr: func(s []uintptr) func(int) uint64 {
			r, w := rawUints(s)
			return func(i int) uint64 { return rawUintAt(r, w, i) }
		},
		f32: func(s []float32) func(int) float64 {
			r, w := rawFloats(s)
			return func(i int) float64 { return rawFloatAt(r, w, i) }
		},
		f64: func(s []float64) func(int) float64 {
			r, w := rawFloats(s)
			return func(i int) float64 { return rawFloatAt(r, w, i) }
		},
		bools: func(s []bool) func(int) bool { r := rawBools(s); return func(i int) bool { return rawBoolAt(r, i) } },
	},
	{
		name: "box",
		strings: func(s []myString) func(int) string {
			r := boxStrings(s)
			return func(i int) string { return boxStringAt(r, i) }
		},
		ints8: func(s []int8) func(int) int64 {
			r, w := boxInts(s)
			return func(i int) int64 { return boxIntAt(r, w, i) }
		},
		ints16: func(s []myInt) func(int) int64 {
			r, w := boxInts(s)
			return func(i int) int64 { return boxIntAt(r, w, i) }
		},
		ints32: func(s []int32) func(int) int64 {
			r, w := boxInts(s)
			return func(i int) int64 { return boxIntAt(r, w, i) }
		},
		ints: func(s []int) func(int) int64 {
			r, w := boxInts(s)
			return func(i int) int64 { return boxIntAt(r, w, i) }
		},
		uints8: func(s []uint8) func(int) uint64 {
			r, w := boxUints(s)
			return func(i int) uint64 { return boxUintAt(r, w, i) }
		},
		uints64: func(s []uint64) func(int) uint64 {
			r, w := boxUints(s)
			return func(i int) uint64 { return boxUintAt(r, w, i) }
		},
		uintptr: func(s []uintptr) func(int) uint64 {
			r, w := boxUints(s)
			return func(i int) uint64 { return boxUintAt(r, w, i) }
		},
		f32: func(s []float32) func(int) float64 {
			r, w := boxFloats(s)
			return func(i int) float64 { return boxFloatAt(r, w, i) }
		},
		f64: func(s []float64) func(int) float64 {
			r, w := boxFloats(s)
			return func(i int) float64 { return boxFloatAt(r, w, i) }
		},
		bools: func(s []bool) func(int) bool { r := boxBools(s); return func(i int) bool { return boxBoolAt(r, i) } },
	},
}

func TestElementsReadBack(t *testing.T) {
	for _, m := range impls {
		t.Run(m.name, func(t *testing.T) {
			strs := []myString{"a", "", "sku-é"}
			at := m.strings(strs)
			for i, want := range strs {
				if got := at(i); got != string(want) {
					t.Errorf("strings[%d] = %q, want %q", i, got, want)
				}
			}
			checkInts(t, "int8", []int8{math.MinInt8, -1, 0, math.MaxInt8}, m.ints8)
			checkInts(t, "myInt", []myInt{math.MinInt16, -2, 7, math.MaxInt16}, m.ints16)
			checkInts(t, "int32", []int32{math.MinInt32, -3, 9, math.MaxInt32}, m.ints32)
			checkInts(t, "int", []int{math.MinInt, -4, 11, math.MaxInt}, m.ints)
			checkUints(t, "uint8", []uint8{0, 1, math.MaxUint8}, m.uints8)
			checkUints(t, "uint64", []uint64{0, 5, math.MaxUint64}, m.uints64)
			checkUints(t, "uintptr", []uintptr{0, 6, ^uintptr(0)}, m.uintptr)
			f32 := []float32{-1.5, 0.1, float32(math.Inf(1))}
			fa := m.f32(f32)
			for i, want := range f32 {
				if got := fa(i); got != float64(want) {
					t.Errorf("float32[%d] = %v, want %v", i, got, want)
				}
			}
			f64 := []float64{-2.25, 0.1, math.MaxFloat64}
			fb := m.f64(f64)
			for i, want := range f64 {
				if got := fb(i); got != want {
					t.Errorf("float64[%d] = %v, want %v", i, got, want)
				}
			}
			bs := []bool{true, false, true}
			ba := m.bools(bs)
			for i, want := range bs {
				if got := ba(i); got != want {
					t.Errorf("bool[%d] = %v, want %v", i, got, want)
				}
			}
		})
	}
}

func checkInts[T ~int | ~int8 | ~int16 | ~int32 | ~int64](t *testing.T, name string, s []T, view func([]T) func(int) int64) {
	t.Helper()
	at := view(s)
	for i, want := range s {
		if got := at(i); got != int64(want) {
			t.Errorf("%s[%d] = %d, want %d", name, i, got, want)
		}
	}
}

func checkUints[T ~uint8 | ~uint64 | ~uintptr](t *testing.T, name string, s []T, view func([]T) func(int) uint64) {
	t.Helper()
	at := view(s)
	for i, want := range s {
		if got := at(i); got != uint64(want) {
			t.Errorf("%s[%d] = %d, want %d", name, i, got, want)
		}
	}
}

// The selected implementation is the one the build tag names.
func TestSelected(t *testing.T) {
	s := []int16{-7, 8}
	r, w := Ints(s)
	if IntAt(r, w, 0) != -7 || IntAt(r, w, 1) != 8 {
		t.Fatalf("selected implementation (Plain=%v) reads %d, %d", Plain, IntAt(r, w, 0), IntAt(r, w, 1))
	}
	allocs := testing.AllocsPerRun(100, func() { r, w = Ints(s) })
	if Plain != (allocs > 0) {
		t.Fatalf("Plain=%v but Ints allocates %v times", Plain, allocs)
	}
}
