// Package nacostest starts a real Nacos server for a test binary: the
// server in ../shared/nacos (or $NACOS_DIR), started once by TestMain and
// stopped by its PID when the tests end.
package nacostest

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// addr is the HTTP address of the server Main started; "" when none could
// be, with noServer saying why.
var addr, noServer string

// Server is a Nacos server a test started.
type Server struct {
	// Addr is its HTTP address, host:port.
	Addr string
	home string
	dir  string
	pid  string
}

// Stop stops the server by the PID its start script recorded; stopping a
// stopped server does nothing.
func (s *Server) Stop(t testing.TB) {
	t.Helper()
	if b, err := exec.Command(filepath.Join(s.dir, "stop-nacos.sh"), s.home).CombinedOutput(); err != nil {
		t.Errorf("stopping Nacos (PID %s): %v\n%s", s.pid, err, b)
	}
}

// Start starts a Nacos server of t's own; it is stopped by its PID when t
// ends. Without java or the server jar it skips t, or fails it under CI or
// SENTINELGEN_REQUIRE_SERVERS.
func Start(t testing.TB) *Server {
	t.Helper()
	return StartWith(t)
}

// StartWith is Start with extra arguments for the server, such as
// AuthArgs.
func StartWith(t testing.TB, args ...string) *Server {
	t.Helper()
	dir := Dir()
	if _, err := exec.LookPath("java"); err != nil {
		noServer = "java not found in PATH"
		Need(t)
	}
	if _, err := os.Stat(filepath.Join(dir, "nacos-server.jar")); err != nil {
		noServer = fmt.Sprintf("no Nacos server jar in %s (set NACOS_DIR)", dir)
		Need(t)
	}
	home := t.TempDir()
	port := FreePortTriple()
	var out, errOut bytes.Buffer
	start := filepath.Join(dir, "start-nacos.sh")
	cmd := exec.Command(start, append([]string{home, strconv.Itoa(port)}, args...)...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s failed: %v\n%s", start, err, errOut.String())
	}
	fields := strings.Fields(out.String())
	s := &Server{Addr: "127.0.0.1:" + strconv.Itoa(port), home: home, dir: dir, pid: fields[len(fields)-1]}
	t.Cleanup(func() { s.Stop(t) })
	return s
}

// Main starts a Nacos server, runs the tests and stops the server; a
// TestMain calls os.Exit(nacostest.Main(m)). Without java or the server jar
// the tests run without a server, and Need skips or fails them.
func Main(m *testing.M) int {
	dir := Dir()
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
	port := FreePortTriple()
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
	addr = "127.0.0.1:" + strconv.Itoa(port)
	return m.Run()
}

// Dir is where start-nacos.sh lives: $NACOS_DIR, else the shared directory
// beside the repository's root.
func Dir() string {
	if d := os.Getenv("NACOS_DIR"); d != "" {
		return d
	}
	root, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return filepath.Join("..", "..", "..", "shared", "nacos")
	}
	return filepath.Join(strings.TrimSpace(string(root)), "..", "shared", "nacos")
}

// Need returns the server's host:port. Without a server it skips t, or
// fails it under CI or SENTINELGEN_REQUIRE_SERVERS, so CI cannot pass by
// testing nothing.
func Need(t testing.TB) string {
	t.Helper()
	if addr == "" {
		if os.Getenv("CI") != "" || os.Getenv("SENTINELGEN_REQUIRE_SERVERS") != "" {
			t.Fatalf("no Nacos server: %s", noServer)
		}
		t.Skipf("no Nacos server (%s); ../shared/nacos holds one, see its README.txt", noServer)
	}
	return addr
}

// FreePortTriple returns a port P with P, P+1000 and P+1001 free on
// 127.0.0.1, as Nacos binds all three.
func FreePortTriple() int {
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

// AuthArgs switch the server's auth on (the recipe of ../shared/nacos's
// README); the admin user "nacos" then has no password until SetAdminPassword
// gives it one.
func AuthArgs() []string {
	return []string{
		"--nacos.core.auth.enabled=true",
		// The token secret must be base64 of at least 32 bytes; it is a
		// test server's, not a secret.
		"--nacos.core.auth.plugin.nacos.token.secret.key=" + base64.StdEncoding.EncodeToString([]byte("sentinelgen-test-nacos-token-secret-0123456789")),
		"--nacos.core.auth.server.identity.key=test",
		"--nacos.core.auth.server.identity.value=test",
	}
}

// SetAdminPassword sets the password of the admin user "nacos" on a server
// started with AuthArgs (POST /v1/auth/users/admin, allowed once).
func SetAdminPassword(t testing.TB, addr, password string) {
	t.Helper()
	resp, err := http.PostForm("http://"+addr+"/nacos/v1/auth/users/admin", url.Values{"password": {password}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("setting the Nacos admin password: %s %s", resp.Status, b)
	}
}
