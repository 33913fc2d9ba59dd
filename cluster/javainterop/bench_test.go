package javainterop

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/cluster/tokenclient"
	"github.com/sentinelgen/sentinelgen/cluster/tokenserver"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// cpuTime is the user and system CPU time process pid has used.
func cpuTime(b *testing.B, pid int) time.Duration {
	b.Helper()
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		b.Skipf("no /proc: %v", err)
	}
	// The fields after the command name, which is in parentheses.
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+2:]))
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	const ticksPerSecond = 100 // USER_HZ on Linux
	return time.Duration(utime+stime) * time.Second / ticksPerSecond
}

// BenchmarkTokenServer asks a token server for tokens from 4 Go clients,
// 8 callers each, Go's server and Java's in turn, each a process of its
// own, and reports the round trip's median and 99th percentile and the
// server's CPU time per token (the inverse of its tokens per second per
// core):
//
//	go test -run '^$' -bench TokenServer -benchtime 200000x ./cluster/javainterop
func BenchmarkTokenServer(b *testing.B) {
	rule := runtime.FlowRule{Resource: "bench", Grade: runtime.FlowGradeQPS, Count: 1e9, ClusterMode: true,
		ClusterConfig: runtime.ClusterConfig{FlowID: 101, ThresholdType: runtime.Global}}
	for _, name := range []string{"go", "java"} {
		b.Run(name, func(b *testing.B) {
			var srv *serverProcess
			if name == "go" {
				srv = goServerProcess(b, freePort(b), []runtime.FlowRule{rule}, tokenserver.FlowConfig{MaxAllowedQps: 1e9})
			} else {
				srv = javaServerProcess(b, freePort(b), `[{"resource":"bench","count":1e9,"clusterMode":true,"clusterConfig":{"flowId":101,"thresholdType":1}}]`,
					`{"maxAllowedQps":1e9,"exceedCount":1,"maxOccupyRatio":1,"intervalMs":1000,"sampleCount":10}`)
			}
			srv.pid = srv.start()
			const clients, callers = 4, 8
			var cs []*tokenclient.Client
			for range clients {
				c, err := tokenclient.New(tokenclient.Config{Addr: srv.addr, Namespace: namespace, RequestTimeout: time.Second, Logger: quiet})
				if err != nil {
					b.Fatal(err)
				}
				defer c.Close()
				waitConnected(b, c, 20*time.Second)
				cs = append(cs, c)
			}
			// Warm up: a JVM compiles its hot paths first.
			run := func(n int, lat []time.Duration) (failed int) {
				var wg sync.WaitGroup
				var mu sync.Mutex
				per := max(1, n/(clients*callers))
				for i := range clients * callers {
					wg.Add(1)
					go func(c *tokenclient.Client, out []time.Duration) {
						defer wg.Done()
						bad := 0
						for j := range per {
							start := time.Now()
							if c.Request(101, 1, false).Status != runtime.TokenOK {
								bad++
							}
							if out != nil {
								out[j] = time.Since(start)
							}
						}
						mu.Lock()
						failed += bad
						mu.Unlock()
					}(cs[i%clients], func() []time.Duration {
						if lat == nil {
							return nil
						}
						return lat[i*per : (i+1)*per]
					}())
				}
				wg.Wait()
				return failed
			}
			run(200_000, nil)
			lat := make([]time.Duration, max(1, b.N/(clients*callers))*(clients*callers))
			cpu0 := cpuTime(b, srv.pid)
			b.ResetTimer()
			failed := run(b.N, lat)
			b.StopTimer()
			cpu := cpuTime(b, srv.pid) - cpu0
			if failed > 0 {
				b.Errorf("%d of %d requests not answered OK", failed, len(lat))
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(len(lat)), "server-cpu-ns/token")
			fmt.Fprintf(os.Stderr, "%s server: %d tokens, server CPU %v\n", name, len(lat), cpu)
		})
	}
}
