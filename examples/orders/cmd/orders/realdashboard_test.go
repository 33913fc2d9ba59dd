package main

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

// The unmodified Sentinel dashboard 1.8.9 from ../shared/sentinel-dashboard
// (or $SENTINEL_DASHBOARD_DIR), started by its own script and driven
// through the HTTP API its pages call, as transport's real-dashboard test
// drives it.

// dashboard is a running dashboard and a logged-in client of its API.
type dashboard struct {
	t      *testing.T
	addr   string // 127.0.0.1:PORT, where services send heartbeats
	client *http.Client
}

// startDashboard starts the dashboard on a free loopback port and logs in;
// it is stopped by its PID when t ends. Without the jar or java it skips t,
// or fails it under CI.
func startDashboard(t *testing.T) *dashboard {
	t.Helper()
	dir := os.Getenv("SENTINEL_DASHBOARD_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "..", "..", "shared", "sentinel-dashboard")
	}
	missing := func(msg string) {
		t.Helper()
		if javaharness.Required() {
			t.Fatalf("%s (CI must run this test)", msg)
		}
		t.Skipf("real dashboard test skipped: %s", msg)
	}
	if _, err := os.Stat(filepath.Join(dir, "sentinel-dashboard-1.8.9.jar")); err != nil {
		missing(fmt.Sprintf("no Sentinel dashboard jar (set SENTINEL_DASHBOARD_DIR): %v", err))
	}
	if _, err := exec.LookPath("java"); err != nil {
		missing("java not found")
	}
	home := t.TempDir()
	port := freePortPair(t)
	d := &dashboard{t: t, addr: "127.0.0.1:" + strconv.Itoa(port)}
	t.Cleanup(func() {
		if out, err := exec.Command("bash", filepath.Join(dir, "stop-dashboard.sh"), home).CombinedOutput(); err != nil {
			t.Errorf("stop-dashboard.sh: %v\n%s", err, out)
		}
	})
	if out, err := exec.Command("bash", filepath.Join(dir, "start-dashboard.sh"), home, strconv.Itoa(port)).CombinedOutput(); err != nil {
		t.Fatalf("start-dashboard.sh: %v\n%s", err, out)
	}
	jar, _ := cookiejar.New(nil)
	d.client = &http.Client{Jar: jar, Timeout: 30 * time.Second}
	var login struct{ Success bool }
	d.call(http.MethodPost, "/auth/login", url.Values{"username": {"sentinel"}, "password": {"sentinel"}}, nil, &login)
	if !login.Success {
		t.Fatal("login to the dashboard as sentinel/sentinel failed")
	}
	return d
}

// freePortPair returns a loopback port free together with the next one,
// which the start script gives the dashboard's own command center.
func freePortPair(t *testing.T) int {
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

// call sends one request to the dashboard's API (query in the URL or, for
// a POST without body, as a form; body as JSON) and decodes the answer.
func (d *dashboard) call(method, path string, query url.Values, body any, out any) {
	d.t.Helper()
	u := "http://" + d.addr + path
	var rd io.Reader
	ctype := ""
	switch {
	case body != nil:
		b, _ := json.Marshal(body)
		rd, ctype = bytes.NewReader(b), "application/json"
	case method == http.MethodPost:
		rd, ctype = strings.NewReader(query.Encode()), "application/x-www-form-urlencoded"
		query = nil
	}
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	req, err := http.NewRequest(method, u, rd)
	if err != nil {
		d.t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := d.client.Do(req)
	if err != nil {
		d.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		d.t.Fatalf("%s %s: %s %s", method, path, resp.Status, b)
	}
	if err := json.Unmarshal(b, out); err != nil {
		d.t.Fatalf("%s %s: answer %s: %v", method, path, b, err)
	}
}

// dashResult is the dashboard's answer envelope (its Result class).
type dashResult struct {
	Success bool
	Msg     string
	Data    json.RawMessage
}

// api sends a request and returns the Result's data, failing t unless the
// dashboard says success.
func (d *dashboard) api(method, path string, query url.Values, body any) json.RawMessage {
	d.t.Helper()
	r := d.try(method, path, query, body)
	if !r.Success {
		d.t.Fatalf("%s %s: the dashboard answered: %s", method, path, r.Msg)
	}
	return r.Data
}

// try sends a request and returns the Result whatever it says.
func (d *dashboard) try(method, path string, query url.Values, body any) dashResult {
	d.t.Helper()
	var r dashResult
	d.call(method, path, query, body, &r)
	return r
}
