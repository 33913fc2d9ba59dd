package httpguard

import (
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// TestLoopbackQPSHeld drives a real http.Server on 127.0.0.1 with more
// traffic than a QPS rule on its route admits, and checks the passes of
// every whole second of the runtime's clock: at most the limit (+2%), and,
// in the seconds where requests were refused (so demand exceeded the
// limit), at least the limit (-2%). Seconds are those of the runtime's
// Clock, in which the rule's window is aligned; the handler stamps each
// pass with it. It takes about five seconds, so -short skips it.
func TestLoopbackQPSHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("five seconds of load")
	}
	const limit = 200
	const seconds = 5
	mux := http.NewServeMux()
	var mu sync.Mutex
	passes := map[int64]int{}
	New().HandleFunc(mux, "GET /load/{id}", func(w http.ResponseWriter, r *http.Request) {
		sec := runtime.CurrentClock().Nanotime() / 1e9
		mu.Lock()
		passes[sec]++
		mu.Unlock()
		_, _ = io.WriteString(w, "ok")
	})
	if err := runtime.LoadRules(runtime.Rules{Flow: []runtime.FlowRule{
		{Resource: "GET /load/{id}", Grade: runtime.FlowGradeQPS, Count: limit},
	}}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = runtime.LoadRules(runtime.Rules{}) })

	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: mux}
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(func() { _ = srv.Close() })

	var blocked sync.Map // second -> *atomic.Int64
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	url := "http://" + lis.Addr().String() + "/load/7"
	stop := time.Now().Add(seconds * time.Second)
	var wg sync.WaitGroup
	var sent, failures atomic.Int64
	for range 8 {
		wg.Go(func() {
			for time.Now().Before(stop) {
				resp, err := client.Get(url)
				if err != nil {
					failures.Add(1)
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				sent.Add(1)
				if resp.StatusCode == http.StatusTooManyRequests {
					sec := runtime.CurrentClock().Nanotime() / 1e9
					c, _ := blocked.LoadOrStore(sec, new(atomic.Int64))
					c.(*atomic.Int64).Add(1)
				}
			}
		})
	}
	wg.Wait()
	t.Logf("load ended %v after its planned end", time.Since(stop).Round(time.Millisecond))
	if n := failures.Load(); n != 0 {
		t.Fatalf("%d requests failed", n)
	}
	mu.Lock()
	defer mu.Unlock()
	first, last := int64(1<<62), int64(0)
	for s := range passes {
		first, last = min(first, s), max(last, s)
	}
	checked := 0
	// The first and last seconds are partial; every second in between is whole.
	for s := first + 1; s < last; s++ {
		var refused int64
		if c, ok := blocked.Load(s); ok {
			refused = c.(*atomic.Int64).Load()
		}
		t.Logf("second %d: %d passed, %d refused", s-first, passes[s], refused)
		if passes[s] > limit*102/100 {
			t.Errorf("second %d: %d passes over a limit of %d", s-first, passes[s], limit)
		}
		if refused > 0 {
			checked++
			if passes[s] < limit*98/100 {
				t.Errorf("second %d: %d passes while requests were refused, under 98%% of %d", s-first, passes[s], limit)
			}
		}
	}
	t.Logf("%d requests in %d s; %d whole seconds over the limit", sent.Load(), seconds, checked)
	if checked == 0 {
		t.Errorf("no whole second had more demand than the limit of %d: the load generator is too slow here", limit)
	}
}
