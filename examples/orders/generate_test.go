package orders

import (
	"os/exec"
	"testing"
)

// TestGeneratedFileIsCurrent fails when sentinel_gen.go no longer matches
// what sentinelgen generates from this package's directives: a directive or
// a handler changed without `go generate`.
func TestGeneratedFileIsCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs sentinelgen")
	}
	cmd := exec.Command("go", "run", "github.com/sentinelgen/sentinelgen/cmd/sentinelgen", "-check", ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sentinelgen -check: %v\n%s\nrun `go generate ./examples/...` and commit the result", err, out)
	}
}
