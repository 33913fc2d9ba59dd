package transport_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"sync"
	"testing"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/rules"
	"github.com/sentinelgen/sentinelgen/runtime"
	"github.com/sentinelgen/sentinelgen/transport"
)

// stepSource is a rules source a test drives: each document sent on docs
// is pushed, and pushed is signalled once the watcher has handled it.
type stepSource struct {
	docs   chan string
	pushed chan struct{}
}

func (s *stepSource) Watch(ctx context.Context, push func([]rules.Document)) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case d := <-s.docs:
			push([]rules.Document{{Name: "step.toml", Data: []byte(d)}})
			s.pushed <- struct{}{}
		}
	}
}

// flowDoc is the source's document: one flow rule on owFlow.
func flowDoc(count int) string {
	return fmt.Sprintf("[[flow]]\nresource = %q\ngrade = \"qps\"\ncount = %d\n", owFlow, count)
}

// quiet drops the notes of the watcher and the command center, one per
// round.
var quiet = slog.New(slog.DiscardHandler)

const (
	owFlow    = "onewriter.flow"
	owDegrade = "onewriter.degrade"
)

// startWatchedPush starts a command center on 127.0.0.1 and a watcher on a
// stepSource holding flowDoc(1); both stop when the test ends.
func startWatchedPush(t *testing.T) (*stepSource, *datasource.Watcher, string) {
	t.Helper()
	if err := runtime.LoadRules(runtime.Rules{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = runtime.LoadRules(runtime.Rules{}) })
	srv, err := transport.Start(transport.Config{App: "onewriter", Listen: "127.0.0.1:0", Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	src := &stepSource{docs: make(chan string), pushed: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { src.docs <- flowDoc(1); <-src.pushed }()
	w, err := datasource.Watch(ctx, src, datasource.WithLogger(quiet))
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); <-w.Done() })
	return src, w, "http://" + srv.Addr().String()
}

// pushDegrade pushes one error-count breaker on owDegrade as the dashboard
// does (a form POST of setRules).
func pushDegrade(client *http.Client, base string, count int) error {
	data := fmt.Sprintf(`[{"resource":%q,"grade":2,"count":%d,"timeWindow":5,"minRequestAmount":5,"statIntervalMs":1000}]`, owDegrade, count)
	resp, err := client.PostForm(base+"/setRules", url.Values{"type": {"degrade"}, "data": {data}})
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || string(body) != "success" {
		return fmt.Errorf("push answered %d %q", resp.StatusCode, body)
	}
	return nil
}

// A source's update of flow rules racing a dashboard push of degrade
// rules: after every round both are in force. When the push read the rules
// in force before the source's update and loaded them after it, the flow
// rule went back to the previous count; when the source's update replaced
// every kind, the pushed breaker was gone.
func TestSourceUpdateRacingPushLosesNothing(t *testing.T) {
	src, w, base := startWatchedPush(t)
	client := &http.Client{}
	defer client.CloseIdleConnections()
	const rounds = 10_000
	lostFlow, lostDegrade := 0, 0
	for i := 2; i < rounds+2; i++ {
		var wg sync.WaitGroup
		var pushErr error
		start := make(chan struct{})
		wg.Add(2)
		go func() {
			defer wg.Done()
			<-start
			src.docs <- flowDoc(i)
			<-src.pushed
		}()
		go func() {
			defer wg.Done()
			<-start
			pushErr = pushDegrade(client, base, i)
		}()
		close(start)
		wg.Wait()
		if pushErr != nil {
			t.Fatalf("round %d: %v", i, pushErr)
		}
		if f := runtime.FlowRules(); len(f) != 1 || f[0].Count != float64(i) {
			lostFlow++
		}
		if d := runtime.DegradeRules(); len(d) != 1 || d[0].Count != float64(i) {
			lostDegrade++
		}
	}
	if lostFlow+lostDegrade != 0 || w.LastError() != nil {
		t.Errorf("in %d rounds the source's flow update was lost %d times and the pushed breaker %d times (watcher error %v)",
			rounds, lostFlow, lostDegrade, w.LastError())
	}
}

// A source that holds only flow rules owns only flow: its next update
// keeps the breaker the dashboard pushed.
func TestFlowOnlyUpdateKeepsPushedDegrade(t *testing.T) {
	src, w, base := startWatchedPush(t)
	if err := pushDegrade(http.DefaultClient, base, 7); err != nil {
		t.Fatal(err)
	}
	src.docs <- flowDoc(2)
	<-src.pushed
	if f := runtime.FlowRules(); len(f) != 1 || f[0].Count != 2 {
		t.Fatalf("flow rules %+v, want the source's count 2", f)
	}
	if d := runtime.DegradeRules(); len(d) != 1 || d[0].Count != 7 {
		t.Errorf("degrade rules %+v after the source's flow-only update, want the pushed breaker (count 7)", d)
	}
	if w.LastError() != nil {
		t.Errorf("watcher error %v", w.LastError())
	}
}
