package nacosrules

import (
	"os"
	"testing"

	"github.com/sentinelgen/sentinelgen/internal/nacosapi/nacostest"
)

// TestMain starts one real Nacos server for the package's tests.
func TestMain(m *testing.M) { os.Exit(nacostest.Main(m)) }
