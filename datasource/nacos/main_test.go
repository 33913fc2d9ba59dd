package nacos

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sentinelgen/sentinelgen/internal/nacosapi/nacostest"
)

// nacosAddr is the HTTP address of the Nacos server TestMain started; ""
// when none could be, with noServer saying why.
var nacosAddr, noServer string

// TestMain starts one real Nacos server for the package's tests and stops it
// by its PID when they are done.
func TestMain(m *testing.M) {
	os.Exit(runWithServer(m))
}

// sdkRoot holds the SDK's cache and log directories of every test (see
// sdkDir); TestMain removes it at the end.
var sdkRoot string

// sdkDir returns a new directory for the SDK's cache or logs. It is not a
// t.TempDir: the SDK's goroutines may still write there after the test's
// source is closed, which would fail t.TempDir's removal.
func sdkDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp(sdkRoot, "sdk-")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func runWithServer(m *testing.M) int {
	root, err := os.MkdirTemp("", "nacos-sdk-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	sdkRoot = root
	defer os.RemoveAll(root)
	dir := nacostest.Dir()
	if _, err := exec.LookPath("java"); err != nil {
		noServer = "java not found in PATH"
		return m.Run()
	}
	if _, err := os.Stat(filepath.Join(dir, "nacos-server.jar")); err != nil {
		noServer = fmt.Sprintf("no Nacos server jar in %s (set NACOS_DIR)", dir)
		return m.Run()
	}
	home, err := os.MkdirTemp("", "nacos-home-")
	if err != nil {
		noServer = err.Error()
		return m.Run()
	}
	defer os.RemoveAll(home)
	srv, err := startServer(home)
	if err != nil {
		noServer = err.Error()
		return m.Run()
	}
	defer func() {
		if err := srv.stop(); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}()
	nacosAddr = srv.addr()
	flag.Parse()
	defer startOwnServers()()
	return m.Run()
}

// needServer skips t when no Nacos server runs, or fails it under CI or
// SENTINELGEN_REQUIRE_SERVERS, so CI cannot pass by testing nothing.
func needServer(t *testing.T) string {
	t.Helper()
	if nacosAddr == "" {
		if os.Getenv("CI") != "" || os.Getenv("SENTINELGEN_REQUIRE_SERVERS") != "" {
			t.Fatalf("no Nacos server: %s", noServer)
		}
		t.Skipf("no Nacos server (%s); ../shared/nacos holds one, see its README.txt", noServer)
	}
	return nacosAddr
}
