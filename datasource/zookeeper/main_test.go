package zookeeper

import (
	"fmt"
	"os"
	"testing"

	"github.com/sentinelgen/sentinelgen/datasource/zookeeper/internal/zktest"
)

// zkServer is the ZooKeeper server TestMain started; nil when none could
// be, with noServer saying why. tmpRoot holds the servers' data.
var (
	zkServer *zktest.Server
	noServer string
	tmpRoot  string
)

// TestMain starts one real ZooKeeper server for the package's tests and
// stops it by its PID when they are done.
func TestMain(m *testing.M) {
	os.Exit(runWithServer(m))
}

func runWithServer(m *testing.M) int {
	root, err := os.MkdirTemp("", "zookeeper-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	tmpRoot = root
	defer os.RemoveAll(root)
	cp, err := zktest.Lookup()
	if err != nil {
		noServer = err.Error()
		return m.Run()
	}
	srv, err := zktest.Start(cp, root)
	if err != nil {
		noServer = err.Error()
		return m.Run()
	}
	defer srv.Remove()
	zkServer = srv
	return m.Run()
}

// required says a missing server fails the tests rather than skips them.
func required() bool {
	return os.Getenv("CI") != "" || os.Getenv("SENTINELGEN_REQUIRE_SERVERS") != ""
}

// needServer returns the shared server's address. It skips t when no
// server runs, or fails it under CI or SENTINELGEN_REQUIRE_SERVERS, so CI
// cannot pass by testing nothing.
func needServer(t *testing.T) string {
	t.Helper()
	if zkServer == nil {
		if required() {
			t.Fatalf("no ZooKeeper server: %s", noServer)
		}
		t.Skipf("no ZooKeeper server (%s); scripts/servers.sh installs one", noServer)
	}
	return zkServer.Addr
}

// ownServer starts a server for t alone (one it may stop and restart),
// removed when t ends.
func ownServer(t *testing.T) *zktest.Server {
	t.Helper()
	needServer(t)
	cp, err := zktest.Lookup()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := zktest.Start(cp, tmpRoot)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Remove)
	return srv
}
