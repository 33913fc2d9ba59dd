package servertest

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// NacosDir is where the Nacos server's start-nacos.sh and stop-nacos.sh
// live: $NACOS_DIR, else ../shared/nacos beside the repository's root.
func NacosDir() string {
	if d := os.Getenv("NACOS_DIR"); d != "" {
		return d
	}
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	return filepath.Join(root, "..", "shared", "nacos")
}

// StartNacos runs a real Nacos server (config mode, standalone, its home in
// the test's temporary directory) with the extra server arguments given, and
// returns its HTTP address; the server is stopped by its PID when t ends.
// Starting takes seconds: a package should start one for all its tests.
func StartNacos(t testing.TB, extra ...string) string {
	t.Helper()
	dir := NacosDir()
	if _, err := exec.LookPath("java"); err != nil {
		missing(t, "java not found in PATH")
	}
	if _, err := os.Stat(filepath.Join(dir, "nacos-server.jar")); err != nil {
		missing(t, "no Nacos server jar in "+dir+" (set NACOS_DIR; ../shared/nacos/README.txt says how it is built)")
	}
	home := t.TempDir()
	port := freePortTriple(t)
	args := append([]string{home, strconv.Itoa(port)}, extra...)
	out, err := exec.Command(filepath.Join(dir, "start-nacos.sh"), args...).Output()
	t.Cleanup(func() {
		if b, err := exec.Command(filepath.Join(dir, "stop-nacos.sh"), home).CombinedOutput(); err != nil {
			t.Errorf("stopping Nacos: %v\n%s", err, b)
		}
	})
	if err != nil {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		log, _ := os.ReadFile(filepath.Join(home, "logs", "start.out"))
		t.Fatalf("start-nacos.sh: %v\n%s%s\n%s", err, out, stderr, tail(string(log), 40))
	}
	return "127.0.0.1:" + strconv.Itoa(port)
}

// missing skips t, or fails it under CI, for a server that cannot be run.
func missing(t testing.TB, why string) {
	t.Helper()
	if Required() {
		t.Fatalf("no Nacos server (CI is set, so this is a failure): %s", why)
	}
	t.Skipf("no Nacos server: %s", why)
}

// freePortTriple returns a port P with P, P+1000 and P+1001 free on
// 127.0.0.1, as Nacos binds all three (HTTP and two gRPC ports).
func freePortTriple(t testing.TB) int {
	t.Helper()
	for range 100 {
		p, _ := strconv.Atoi(strings.TrimPrefix(freeAddr(t), "127.0.0.1:"))
		if p+1001 > 65535 {
			continue
		}
		free := true
		for _, q := range []int{p + 1000, p + 1001} {
			l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(q))
			if err != nil {
				free = false
				break
			}
			l.Close()
		}
		if free {
			return p
		}
	}
	t.Fatal("no free port P with P+1000 and P+1001 free")
	return 0
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
