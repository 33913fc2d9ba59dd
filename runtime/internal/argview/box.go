package argview

// boxRef holds a copy of a slice's elements, widened to string, int64,
// uint64, float64 or bool, in an interface. Building it allocates; reading
// it needs no unsafe.
type boxRef struct{ v any }

func boxStrings[T ~string](s []T) boxRef {
	c := make([]string, len(s))
	for i, e := range s {
		c[i] = string(e)
	}
	return boxRef{c}
}

func boxStringAt(r boxRef, i int) string { return r.v.([]string)[i] }

func boxInts[T ~int | ~int8 | ~int16 | ~int32 | ~int64](s []T) (boxRef, uint8) {
	c := make([]int64, len(s))
	for i, e := range s {
		c[i] = int64(e)
	}
	return boxRef{c}, 8
}

func boxIntAt(r boxRef, _ uint8, i int) int64 { return r.v.([]int64)[i] }

func boxUints[T ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr](s []T) (boxRef, uint8) {
	c := make([]uint64, len(s))
	for i, e := range s {
		c[i] = uint64(e)
	}
	return boxRef{c}, 8
}

func boxUintAt(r boxRef, _ uint8, i int) uint64 { return r.v.([]uint64)[i] }

func boxFloats[T ~float32 | ~float64](s []T) (boxRef, uint8) {
	c := make([]float64, len(s))
	for i, e := range s {
		c[i] = float64(e)
	}
	return boxRef{c}, 8
}

func boxFloatAt(r boxRef, _ uint8, i int) float64 { return r.v.([]float64)[i] }

func boxBools[T ~bool](s []T) boxRef {
	c := make([]bool, len(s))
	for i, e := range s {
		c[i] = bool(e)
	}
	return boxRef{c}
}

func boxBoolAt(r boxRef, i int) bool { return r.v.([]bool)[i] }
