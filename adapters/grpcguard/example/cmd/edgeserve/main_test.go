package main

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/sentinelgen/sentinelgen/adapters/grpcguard/example"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// TestServeHTTPAndGRPC runs the command on free ports of 127.0.0.1 with the
// example's rule file: an order created over HTTP is read over gRPC until
// the method's QPS rule answers ResourceExhausted, and streamed by List.
func TestServeHTTPAndGRPC(t *testing.T) {
	t.Cleanup(func() { _ = runtime.LoadRules(runtime.Rules{}) })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan addrs, 1)
	done := make(chan error, 1)
	args := []string{"-http", "127.0.0.1:0", "-grpc", "127.0.0.1:0", "-rules", "../../rules.toml"}
	go func() { done <- run(ctx, args, io.Discard, ready) }()
	var a addrs
	select {
	case a = <-ready:
	case err := <-done:
		t.Fatalf("run: %v", err)
	}

	resp, err := http.Post("http://"+a.http+"/orders", "application/json", strings.NewReader(`{"item":"lamp","qty":1}`))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create over HTTP: %d", resp.StatusCode)
	}

	conn, err := grpc.NewClient(a.grpc, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	c := example.NewClient(conn)
	ok, exhausted := 0, 0
	for range 15 {
		o, err := c.Get(ctx, "1")
		switch status.Code(err) {
		case codes.OK:
			ok++
			if o.Item != "lamp" {
				t.Fatalf("got %+v", o)
			}
		case codes.ResourceExhausted:
			exhausted++
		default:
			t.Fatalf("Get: %v", err)
		}
	}
	// 10 reads a second: 15 made within a second cannot all pass.
	if exhausted == 0 {
		t.Errorf("%d reads passed and %d were refused; the rule allows 10 per second", ok, exhausted)
	}
	if _, err := c.Get(ctx, "404"); status.Code(err) != codes.NotFound && status.Code(err) != codes.ResourceExhausted {
		t.Errorf("unknown order: %v", err)
	}
	list, err := c.List(ctx)
	if err != nil || len(list) != 1 || list[0].Item != "lamp" {
		t.Errorf("List = %+v, %v", list, err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
