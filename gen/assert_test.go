package gen

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sentinelgen/sentinelgen/annotate"
)

// TestFirstBuildErrorOfADriftedHandlerIsItsAssertion drifts a handler the
// way it usually drifts (a parameter dropped, so the generated call to it
// no longer compiles either) and checks that the first error go build
// prints is the assertion line: in the generated file, naming the handler,
// and that line of the file says to run go generate. Before the assertions
// came first, the first error was the call inside the wrapper.
func TestFirstBuildErrorOfADriftedHandlerIsItsAssertion(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	goTool, tmp := testdataModule(t, "gen_basic")

	src := filepath.Join(tmp, "gen_basic", "orders.go")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	// The handler loses its *runtime.BlockError; a blank variable keeps
	// the runtime import used, so the user's file itself still compiles
	// and every error is the generated file's.
	const before = "req *CreateOrderRequest, blockErr *runtime.BlockError) (*Order, error) {"
	edited := strings.Replace(string(data), before, "req *CreateOrderRequest) (*Order, error) {\n\tvar _ *runtime.BlockError", 1)
	if edited == string(data) {
		t.Fatalf("orders.go has no %q", before)
	}
	if err := os.WriteFile(src, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goTool, "build", "./gen_basic")
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatal("the build succeeded with a handler that no longer matches")
	}
	var first string
	for line := range strings.SplitSeq(string(out), "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			first = line
			break
		}
	}
	// gen_basic/sentinel_gen.go:LINE:COL: cannot use (*OrderService).createOrderBlocked ...
	prefix := filepath.Join("gen_basic", annotate.GeneratedFileName) + ":"
	rest, ok := strings.CutPrefix(first, prefix)
	if !ok || !strings.Contains(first, "(*OrderService).createOrderBlocked") {
		t.Fatalf("first build error %q; want the generated file's assertion naming the handler. All of it:\n%s", first, out)
	}
	lineNo, err := strconv.Atoi(rest[:strings.IndexByte(rest, ':')])
	if err != nil {
		t.Fatal(err)
	}
	generated, err := os.ReadFile(filepath.Join(tmp, "gen_basic", annotate.GeneratedFileName))
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Split(string(generated), "\n")[lineNo-1]
	if !strings.Contains(line, "createOrderBlocked") || !strings.Contains(line, "run go generate") {
		t.Errorf("the line of the first error, %d, is %q; want the handler's assertion saying to run go generate", lineNo, line)
	}
}
