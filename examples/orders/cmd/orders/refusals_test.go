package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// A push a read-only service refuses shows on the service's own page and
// in its metrics: the dashboard's degrade, system and authority pages show
// such a push as saved.
func TestRefusedPushesAreVisible(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example for several seconds")
	}
	addrs := startBinaryAll(t, []*regexp.Regexp{
		regexp.MustCompile(`sentinel command center on (127\.0\.0\.1:\d+)`),
		regexp.MustCompile(`metrics on http://(127\.0\.0\.1:\d+)/metrics`),
	}, "its command center and -http listen",
		"-duration=30s", "-qps=20", "-slow-until=0s", "-transport=127.0.0.1:0", "-read-only", "-http=:0")
	cmd, page := addrs[0], addrs[1]
	resp, err := http.PostForm("http://"+cmd+"/setRules", url.Values{"type": {"degrade"}, "data": {"[]"}})
	if err != nil {
		t.Fatal(err)
	}
	answer, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(answer), "read-only") {
		t.Fatalf("read-only push = %d %q", resp.StatusCode, answer)
	}
	get := func(path string) string {
		resp, err := http.Get("http://" + page + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if m := get("/metrics"); !strings.Contains(m, "\nsentinel_transport_refused_pushes_total 1\n") {
		t.Errorf("/metrics lacks the refused push:\n%s", m)
	}
	var st struct {
		Refused *struct {
			Count  int64  `json:"count"`
			Kind   string `json:"kind"`
			Caller string `json:"caller"`
			Reason string `json:"reason"`
		} `json:"refused"`
	}
	if err := json.Unmarshal([]byte(get("/api/state")), &st); err != nil {
		t.Fatal(err)
	}
	if r := st.Refused; r == nil || r.Count != 1 || r.Kind != "degrade" || !strings.HasPrefix(r.Caller, "127.0.0.1:") || !strings.Contains(r.Reason, "read-only") {
		t.Errorf("api/state refused = %+v", r)
	}
}
