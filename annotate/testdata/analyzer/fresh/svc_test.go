package fresh

import "testing"

// blockErr and e are names the generated code uses for locals, which it
// renames when a package-level name would be shadowed. The generator does
// not read test files, so neither may the analyzer's stale check.
var blockErr, e = "test", "test"

func TestGet(t *testing.T) {
	if _, err := (&Service{}).Get(t.Context(), blockErr+e); err != nil {
		t.Fatal(err)
	}
}
