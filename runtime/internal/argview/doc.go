// Package argview lets hot-parameter keys refer to the elements of a slice
// argument without copying the slice or converting it to an interface, which
// would allocate on every call.
//
// The default build keeps a pointer to the slice's first element and reads
// element i at its offset (raw.go). That is the package's only use of
// unsafe, and it stays within Go's pointer rules: the pointer comes from
// unsafe.SliceData of a live slice, it keeps the backing array alive, and
// reads stay within the slice's length, which the caller holds.
//
// Building with the tag sentinel_purego selects the plain implementation
// (box.go): the elements are copied into a slice of the widest type and kept
// in an interface. It allocates on every slice argument, and gives the same
// keys. Both implementations are compiled in every build and tested against
// the same table, so the fallback cannot rot unnoticed.
package argview
