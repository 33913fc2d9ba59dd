//go:build sentinel_nolinkname

package stripe

// Linked is false: this build has the sentinel_nolinkname tag.
const Linked = false

// Pin returns Shared: without the linkname nothing pins, and every write
// takes the shared stripe with compare-and-swap.
func Pin() P { return Shared }

// Unpin does nothing.
func Unpin() {}
