package nacosapi

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// nacosAddr is the HTTP address of the Nacos server TestMain started; ""
// when none could be, with noServer saying why.
var nacosAddr, noServer string

// TestMain starts one real Nacos server for the package's tests and stops it
// by its PID when they are done.
func TestMain(m *testing.M) {
	os.Exit(runWithServer(m))
}

func runWithServer(m *testing.M) int {
	dir := nacosDir()
	start, stop := filepath.Join(dir, "start-nacos.sh"), filepath.Join(dir, "stop-nacos.sh")
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
	port := freePortTriple()
	var out, errOut bytes.Buffer
	cmd := exec.Command(start, home, strconv.Itoa(port))
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		noServer = fmt.Sprintf("%s failed: %v\n%s", start, err, errOut.String())
		return m.Run()
	}
	fields := strings.Fields(out.String())
	pid := fields[len(fields)-1]
	defer func() {
		if b, err := exec.Command(stop, home).CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "stopping Nacos (PID %s): %v\n%s", pid, err, b)
		}
	}()
	nacosAddr = "127.0.0.1:" + strconv.Itoa(port)
	return m.Run()
}

// nacosDir is where start-nacos.sh lives: $NACOS_DIR, else the shared
// directory beside the repository's root.
func nacosDir() string {
	if d := os.Getenv("NACOS_DIR"); d != "" {
		return d
	}
	root, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return filepath.Join("..", "..", "..", "shared", "nacos")
	}
	return filepath.Join(strings.TrimSpace(string(root)), "..", "shared", "nacos")
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

// freePortTriple returns a port P with P, P+1000 and P+1001 free on
// 127.0.0.1, as Nacos binds all three.
func freePortTriple() int {
	for {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			panic(err)
		}
		p := l.Addr().(*net.TCPAddr).Port
		l.Close()
		if p+1001 > 65535 {
			continue
		}
		ok := true
		for _, q := range []int{p + 1000, p + 1001} {
			l2, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(q))
			if err != nil {
				ok = false
				break
			}
			l2.Close()
		}
		if ok {
			return p
		}
	}
}
