package main

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// syncBuffer is a bytes.Buffer safe for the logger and the test at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestServeWithRules runs the command on a free port of 127.0.0.1 with the
// example's rule file and checks that a route's limit answers 429.
func TestServeWithRules(t *testing.T) {
	t.Cleanup(func() { _ = runtime.LoadRules(runtime.Rules{}) })
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	var log syncBuffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-rules", "../../rules.toml"}, &log, ready) }()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("run: %v\n%s", err, log.String())
	}
	refused := 0
	for range 8 {
		resp, err := http.Post("http://"+addr+"/orders", "application/json", strings.NewReader(`{"item":"cup","qty":1}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusTooManyRequests {
			refused++
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// 5 creations a second: 8 made within a second (loopback requests take
	// well under a millisecond each) cannot all pass.
	if refused == 0 {
		t.Errorf("no creation refused among 8; the rule allows 5 per second\n%s", log.String())
	}
	if !strings.Contains(log.String(), "flow=3 degrade=1") {
		t.Errorf("log does not report the file's rules:\n%s", log.String())
	}
}
