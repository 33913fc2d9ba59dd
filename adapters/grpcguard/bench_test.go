package grpcguard

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// BenchmarkUnaryServerOverhead calls a unary handler bare and through the
// server interceptor, in one run: the pass path (a flow rule that admits
// and a closed breaker) and the block path (a QPS rule of 0, answered with
// a status error). The network is left out: it is the same with or without
// the guard.
func BenchmarkUnaryServerOverhead(b *testing.B) {
	handler := func(ctx context.Context, req any) (any, error) { return req, nil }
	guard := UnaryServerInterceptor()
	pass := &grpc.UnaryServerInfo{FullMethod: "/bench.Svc/Pass"}
	block := &grpc.UnaryServerInfo{FullMethod: "/bench.Svc/Block"}
	if err := runtime.LoadRules(runtime.Rules{
		Flow: []runtime.FlowRule{
			{Resource: pass.FullMethod, Grade: runtime.FlowGradeQPS, Count: 1e12},
			{Resource: block.FullMethod, Grade: runtime.FlowGradeQPS, Count: 0},
		},
		Degrade: []runtime.DegradeRule{{Resource: pass.FullMethod, Grade: runtime.DegradeErrorRatio, Count: 0.5, TimeWindowSec: 10}},
	}); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = runtime.LoadRules(runtime.Rules{}) })
	ctx, req := context.Background(), new(int)
	b.Run("bare", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = handler(ctx, req)
		}
	})
	b.Run("pass", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := guard(ctx, req, pass, handler); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("block", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := guard(ctx, req, block, handler); err == nil {
				b.Fatal("not blocked")
			}
		}
	})
}

// BenchmarkUnaryServerOverheadRotating is BenchmarkUnaryServerOverhead for a
// loaded machine: the variants take turns in slices of 1000 calls, so load
// slows them alike. It reports per variant the mean ns per call
// (NAME-ns/op) and that of its fastest slice (NAME-min-ns/op); b.N counts
// rounds.
func BenchmarkUnaryServerOverheadRotating(b *testing.B) {
	handler := func(ctx context.Context, req any) (any, error) { return req, nil }
	guard := UnaryServerInterceptor()
	pass := &grpc.UnaryServerInfo{FullMethod: "/rot.Svc/Pass"}
	block := &grpc.UnaryServerInfo{FullMethod: "/rot.Svc/Block"}
	if err := runtime.LoadRules(runtime.Rules{
		Flow: []runtime.FlowRule{
			{Resource: pass.FullMethod, Grade: runtime.FlowGradeQPS, Count: 1e12},
			{Resource: block.FullMethod, Grade: runtime.FlowGradeQPS, Count: 0},
		},
		Degrade: []runtime.DegradeRule{{Resource: pass.FullMethod, Grade: runtime.DegradeErrorRatio, Count: 0.5, TimeWindowSec: 10}},
	}); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = runtime.LoadRules(runtime.Rules{}) })
	ctx, req := context.Background(), new(int)
	const slice = 1000
	variants := []struct {
		name       string
		call       func()
		total, min time.Duration
	}{
		{name: "bare", call: func() { _, _ = handler(ctx, req) }},
		{name: "pass", call: func() { _, _ = guard(ctx, req, pass, handler) }},
		{name: "block", call: func() { _, _ = guard(ctx, req, block, handler) }},
	}
	for b.Loop() {
		for i := range variants {
			v := &variants[i]
			start := time.Now()
			for range slice {
				v.call()
			}
			d := time.Since(start)
			v.total += d
			if v.min == 0 || d < v.min {
				v.min = d
			}
		}
	}
	for _, v := range variants {
		b.ReportMetric(float64(v.total.Nanoseconds())/float64(b.N*slice), v.name+"-ns/op")
		b.ReportMetric(float64(v.min.Nanoseconds())/slice, v.name+"-min-ns/op")
	}
}
