package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestHTTPFlag starts the example binary with -http on a free loopback port
// and fetches what a Prometheus server and a person's browser would:
// /metrics must count createOrder's calls and list its rules, / must be the
// page and its api/state must list createOrder's seconds.
func TestHTTPFlag(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example for several seconds")
	}
	// A bare port: the example binds it on 127.0.0.1. With -transport too,
	// the command center and -http share one sampler.
	addr := startBinary(t, regexp.MustCompile(`metrics on http://(127\.0\.0\.1:\d+)/metrics, page on http://127\.0\.0\.1:\d+/`),
		"it serves -http (or not on 127.0.0.1)",
		"-duration=8s", "-qps=200", "-limit=50", "-slow-until=0s", "-http=:0", "-transport=127.0.0.1:0")

	get := func(path string) (string, string) {
		resp, err := http.Get("http://" + addr + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d %s", path, resp.StatusCode, b)
		}
		return string(b), resp.Header.Get("Content-Type")
	}
	time.Sleep(3500 * time.Millisecond) // a few completed seconds of load

	body, ct := get("/metrics")
	if !strings.HasPrefix(ct, "text/plain; version=0.0.4") {
		t.Errorf("/metrics Content-Type %q", ct)
	}
	sample := func(prefix string) float64 {
		for _, line := range strings.Split(body, "\n") {
			if strings.HasPrefix(line, prefix) {
				v, err := strconv.ParseFloat(line[strings.LastIndexByte(line, ' ')+1:], 64)
				if err != nil {
					t.Fatalf("line %q: %v", line, err)
				}
				return v
			}
		}
		t.Fatalf("/metrics has no %s:\n%s", prefix, body)
		return 0
	}
	if v := sample(`sentinel_requests_total{resource="createOrder",result="pass",block_type=""}`); v <= 0 {
		t.Errorf("createOrder passes %v", v)
	}
	if v := sample(`sentinel_requests_total{resource="createOrder",result="block",block_type="flow"}`); v <= 0 {
		t.Errorf("createOrder flow blocks %v (200 calls/s against a limit of 50)", v)
	}
	if v := sample(`sentinel_flow_rule_threshold{resource="createOrder",index="0",grade="qps"}`); v != 50 {
		t.Errorf("createOrder's flow threshold %v, want 50", v)
	}
	sample(`sentinel_circuit_breaker_state{resource="createOrder",`)

	page, ct := get("/")
	if !strings.HasPrefix(ct, "text/html") || !strings.Contains(page, `<script src="console.js"`) {
		t.Errorf("/ is not the page (%s):\n%.300s", ct, page)
	}
	state, _ := get("/api/state")
	var st struct {
		Resources []struct {
			Name string `json:"name"`
			Last struct {
				Pass int64 `json:"pass"`
			} `json:"last"`
		} `json:"resources"`
	}
	if err := json.Unmarshal([]byte(state), &st); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range st.Resources {
		found = found || (r.Name == "createOrder" && r.Last.Pass > 0)
	}
	if !found {
		t.Errorf("api/state shows no createOrder traffic: %s", state)
	}
}

func TestHTTPFlagMisuse(t *testing.T) {
	if err := run(context.Background(), []string{"-simulate", "-http=127.0.0.1:0"}, io.Discard); err == nil {
		t.Error("-simulate with -http succeeded")
	}
	if got := loopbackDefault(":9090"); got != "127.0.0.1:9090" {
		t.Errorf("loopbackDefault(:9090) = %s", got)
	}
	if got := loopbackDefault("0.0.0.0:9090"); got != "0.0.0.0:9090" {
		t.Errorf("loopbackDefault(0.0.0.0:9090) = %s", got)
	}
}
