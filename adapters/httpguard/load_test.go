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
// in the seconds where a request was refused in their second half, at
// least the limit (-2%). The rule's window is the second's two half-second
// buckets, so a refusal in the second half means the second's passes
// reached the limit; a refusal in the first half may be owed to the
// previous second's passes, and a slow load generator (the race detector,
// a busy machine) may offer less than the limit in some seconds. Passes
// and refusals are stamped on the server with the runtime's Clock. It
// takes about five seconds, so -short skips it.
func TestLoopbackQPSHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("five seconds of load")
	}
	const limit = 200
	const seconds = 5
	mux := http.NewServeMux()
	var mu sync.Mutex
	passes := map[int64]int{}
	refused := map[int64]int{}     // per second
	lateRefused := map[int64]int{} // per second, in its second half
	countBlock := func(w http.ResponseWriter, r *http.Request, be *runtime.BlockError) {
		ms := runtime.CurrentClock().Nanotime() / 1e6
		mu.Lock()
		refused[ms/1000]++
		if ms%1000 >= 500 {
			lateRefused[ms/1000]++
		}
		mu.Unlock()
		DefaultBlockHandler(w, r, be)
	}
	New(WithBlockHandler(countBlock)).HandleFunc(mux, "GET /load/{id}", func(w http.ResponseWriter, r *http.Request) {
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
		t.Logf("second %d: %d passed, %d refused (%d in its second half)", s-first, passes[s], refused[s], lateRefused[s])
		if passes[s] > limit*102/100 {
			t.Errorf("second %d: %d passes over a limit of %d", s-first, passes[s], limit)
		}
		if lateRefused[s] > 0 {
			checked++
			if passes[s] < limit*98/100 {
				t.Errorf("second %d: %d passes while requests were refused in its second half, under 98%% of %d", s-first, passes[s], limit)
			}
		}
	}
	t.Logf("%d requests in %d s; %d whole seconds with refusals in their second half", sent.Load(), seconds, checked)
	if checked == 0 {
		t.Errorf("no whole second had more demand than the limit of %d: the load generator is too slow here", limit)
	}
}
