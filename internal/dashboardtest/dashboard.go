// Package dashboardtest runs the unmodified Sentinel dashboard 1.8.9 for
// tests: started from the jar beside the repository (../shared/
// sentinel-dashboard, or $SENTINEL_DASHBOARD_DIR) by its own start script
// (run by bash, so a copy without the executable bit works too), on free
// loopback ports, stopped by its PID when the test ends, and driven through
// the HTTP API its pages call.
package dashboardtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/internal/javaharness"
)

// DirEnv names the environment variable that overrides where the
// dashboard's jar and scripts are.
const DirEnv = "SENTINEL_DASHBOARD_DIR"

// Dashboard is a running dashboard and a logged-in client of its API.
type Dashboard struct {
	// T reports the API calls' failures; a subtest may set its own.
	T testing.TB
	// Base is the dashboard's URL, http://127.0.0.1:PORT; Addr is
	// 127.0.0.1:PORT, where services send heartbeats.
	Base, Addr string
	home       string // the dashboard's user.home, logs and PID file
	client     *http.Client
}

// Dir finds the directory holding the jar and its scripts: the
// environment variable, else shared/sentinel-dashboard beside the
// repository's root.
func Dir() (string, error) {
	if d := os.Getenv(DirEnv); d != "" {
		return d, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil &&
			bytes.HasPrefix(b, []byte("module github.com/sentinelgen/sentinelgen\n")) {
			return filepath.Join(filepath.Dir(dir), "shared", "sentinel-dashboard"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no repository root above the working directory")
		}
		dir = parent
	}
}

// Start starts the dashboard on a free loopback port and logs
// in. It skips the test when the jar or java is missing, unless servers are
// required (CI), where it fails. The dashboard is stopped by its PID when
// the test ends.
func Start(t testing.TB) *Dashboard {
	t.Helper()
	if testing.Short() {
		t.Skip("starts the Sentinel dashboard (Java)")
	}
	missing := func(format string, args ...any) {
		t.Helper()
		msg := fmt.Sprintf(format, args...)
		if javaharness.Required() {
			t.Fatalf("%s (CI must run this test: scripts/servers.sh installs Java, and the jar is in ../shared/sentinel-dashboard)", msg)
		}
		t.Skipf("real dashboard test skipped: %s", msg)
	}
	dir, err := Dir()
	if err != nil {
		missing("%v", err)
	}
	start := filepath.Join(dir, "start-dashboard.sh")
	if _, err := os.Stat(filepath.Join(dir, "sentinel-dashboard-1.8.9.jar")); err != nil {
		missing("no Sentinel dashboard jar (set %s to the directory holding sentinel-dashboard-1.8.9.jar and start-dashboard.sh): %v", DirEnv, err)
	}
	java := "java"
	if h := os.Getenv("JAVA_HOME"); h != "" {
		java = filepath.Join(h, "bin", "java")
	}
	if _, err := exec.LookPath(java); err != nil {
		missing("java not found: %v", err)
	}

	home := t.TempDir()
	port := freePortPair(t)
	d := &Dashboard{T: t, home: home, Base: "http://127.0.0.1:" + strconv.Itoa(port), Addr: "127.0.0.1:" + strconv.Itoa(port)}
	t.Cleanup(func() { d.stop(t) })
	out, err := exec.Command("bash", start, home, strconv.Itoa(port)).CombinedOutput()
	if err != nil {
		t.Fatalf("start-dashboard.sh: %v\n%s", err, out)
	}
	t.Logf("Sentinel dashboard 1.8.9 on %s (PID %s)", d.Base, strings.TrimSpace(string(out)))
	jar, _ := cookiejar.New(nil)
	d.client = &http.Client{Jar: jar, Timeout: 30 * time.Second}
	var login struct {
		Success bool
		Msg     string
	}
	d.Call(http.MethodPost, "/auth/login", url.Values{"username": {"sentinel"}, "password": {"sentinel"}}, nil, &login)
	if !login.Success {
		t.Fatalf("login as sentinel/sentinel: %s", login.Msg)
	}
	return d
}

// stop stops the dashboard by the PID its start script recorded, and shows
// the end of its log when the test failed.
func (d *Dashboard) stop(t testing.TB) {
	if t.Failed() {
		if b, err := os.ReadFile(filepath.Join(d.home, "logs", "start.out")); err == nil {
			if len(b) > 4000 {
				b = b[len(b)-4000:]
			}
			t.Logf("end of the dashboard's log:\n%s", b)
		}
	}
	dir, _ := Dir()
	if out, err := exec.Command("bash", filepath.Join(dir, "stop-dashboard.sh"), d.home).CombinedOutput(); err != nil {
		t.Errorf("stop-dashboard.sh: %v\n%s", err, out)
	}
}

// freePortPair returns a loopback port that is free together with the next
// one: the start script gives the dashboard's own command center PORT+1.
func freePortPair(t testing.TB) int {
	t.Helper()
	for range 20 {
		a, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := a.Addr().(*net.TCPAddr).Port
		b, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port+1))
		a.Close()
		if err == nil {
			b.Close()
			return port
		}
	}
	t.Fatal("no two free consecutive loopback ports")
	return 0
}

// Result is the dashboard's answer envelope (its Result class).
type Result struct {
	Success bool            `json:"success"`
	Code    int             `json:"code"`
	Msg     string          `json:"msg"`
	Data    json.RawMessage `json:"data"`
}

// Call sends one request to the dashboard's API: query goes in the URL,
// form (for a POST without body) as a form, body as JSON. The answer is
// decoded into out.
func (d *Dashboard) Call(method, path string, query url.Values, body any, out any) {
	d.T.Helper()
	u := d.Base + path
	var rd io.Reader
	ctype := ""
	switch {
	case body != nil:
		b, err := json.Marshal(body)
		if err != nil {
			d.T.Fatal(err)
		}
		rd, ctype = bytes.NewReader(b), "application/json"
		if len(query) > 0 {
			u += "?" + query.Encode()
		}
	case method == http.MethodPost:
		rd, ctype = strings.NewReader(query.Encode()), "application/x-www-form-urlencoded"
	case len(query) > 0:
		u += "?" + query.Encode()
	}
	req, err := http.NewRequest(method, u, rd)
	if err != nil {
		d.T.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := d.client.Do(req)
	if err != nil {
		d.T.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		d.T.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		d.T.Fatalf("%s %s: %s %s", method, path, resp.Status, b)
	}
	if err := json.Unmarshal(b, out); err != nil {
		d.T.Fatalf("%s %s: answer %s: %v", method, path, b, err)
	}
}

// API sends a request and returns the Result, failing the test unless the
// dashboard says success.
func (d *Dashboard) API(method, path string, query url.Values, body any) json.RawMessage {
	d.T.Helper()
	r := d.Try(method, path, query, body)
	if !r.Success {
		d.T.Fatalf("%s %s: the dashboard answered code %d: %s", method, path, r.Code, r.Msg)
	}
	return r.Data
}

// Try sends a request and returns the Result whatever it says.
func (d *Dashboard) Try(method, path string, query url.Values, body any) Result {
	d.T.Helper()
	var r Result
	d.Call(method, path, query, body, &r)
	return r
}
