package argview

import "unsafe"

// rawRef points at the first element of a slice. Element widths are the
// caller's to keep (see the width results), as is the length.
type rawRef struct{ p unsafe.Pointer }

func rawStrings[T ~string](s []T) rawRef { return rawRef{unsafe.Pointer(unsafe.SliceData(s))} }

func rawStringAt(r rawRef, i int) string {
	// A ~string element has string's layout.
	return *(*string)(unsafe.Add(r.p, uintptr(i)*unsafe.Sizeof("")))
}

func rawInts[T ~int | ~int8 | ~int16 | ~int32 | ~int64](s []T) (rawRef, uint8) {
	var zero T
	return rawRef{unsafe.Pointer(unsafe.SliceData(s))}, uint8(unsafe.Sizeof(zero))
}

func rawIntAt(r rawRef, width uint8, i int) int64 {
	p := unsafe.Add(r.p, uintptr(i)*uintptr(width))
	switch width {
	case 1:
		return int64(*(*int8)(p))
	case 2:
		return int64(*(*int16)(p))
	case 4:
		return int64(*(*int32)(p))
	}
	return *(*int64)(p)
}

func rawUints[T ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr](s []T) (rawRef, uint8) {
	var zero T
	return rawRef{unsafe.Pointer(unsafe.SliceData(s))}, uint8(unsafe.Sizeof(zero))
}

func rawUintAt(r rawRef, width uint8, i int) uint64 {
	p := unsafe.Add(r.p, uintptr(i)*uintptr(width))
	switch width {
	case 1:
		return uint64(*(*uint8)(p))
	case 2:
		return uint64(*(*uint16)(p))
	case 4:
		return uint64(*(*uint32)(p))
	}
	return *(*uint64)(p)
}

func rawFloats[T ~float32 | ~float64](s []T) (rawRef, uint8) {
	var zero T
	return rawRef{unsafe.Pointer(unsafe.SliceData(s))}, uint8(unsafe.Sizeof(zero))
}

func rawFloatAt(r rawRef, width uint8, i int) float64 {
	p := unsafe.Add(r.p, uintptr(i)*uintptr(width))
	if width == 4 {
		return float64(*(*float32)(p))
	}
	return *(*float64)(p)
}

func rawBools[T ~bool](s []T) rawRef { return rawRef{unsafe.Pointer(unsafe.SliceData(s))} }

func rawBoolAt(r rawRef, i int) bool { return *(*bool)(unsafe.Add(r.p, uintptr(i))) }
