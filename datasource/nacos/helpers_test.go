package nacos

import (
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
)

// waitTimeout bounds every wait for something the tests expect; a publish
// normally reaches listeners far sooner.
const waitTimeout = 15 * time.Second

func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// quietLogger logs at Info level and above, for tests that make many
// changes.
func quietLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// testApp is an app name of the test's own, so tests sharing the server
// never see each other's dataIds.
func testApp(t *testing.T) string {
	return "app-" + strings.NewReplacer("/", "-", "_", "-").Replace(t.Name())
}

// newTestSource is a Source for the test's app on the test server, with the
// SDK's cache and log in the test's temporary directory.
func newTestSource(t *testing.T, addr string, change func(*Config)) *Source {
	t.Helper()
	dir := sdkDir(t)
	cfg := Config{
		ServerAddrs:   []string{addr},
		App:           testApp(t),
		CacheDir:      dir + "/cache",
		LogDir:        dir + "/log",
		RetryInterval: 200 * time.Millisecond,
		Logger:        testLogger(t),
	}
	if change != nil {
		change(&cfg)
	}
	src, err := NewSource(cfg)
	if err != nil {
		t.Fatalf("NewSource: %v", err)
	}
	t.Cleanup(src.Close)
	return src
}

// openAPI calls Nacos's HTTP config API; the tests change dataIds through
// it, as an operator or another service would.
func openAPI(t *testing.T, addr, method string, form url.Values) string {
	t.Helper()
	u := "http://" + addr + "/nacos/v1/cs/configs"
	var body io.Reader
	if method == http.MethodGet || method == http.MethodDelete {
		u += "?" + form.Encode()
	} else {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if method != http.MethodGet && resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %s: %s", method, u, resp.Status, b)
	}
	if resp.StatusCode != http.StatusOK {
		return ""
	}
	return string(b)
}

// publish stores content in dataId of the default group.
func publish(t *testing.T, addr, dataID, content string) {
	t.Helper()
	openAPI(t, addr, http.MethodPost, url.Values{"dataId": {dataID}, "group": {DefaultGroup}, "content": {content}, "type": {"json"}})
}

// remove deletes dataId from the default group.
func remove(t *testing.T, addr, dataID string) {
	t.Helper()
	openAPI(t, addr, http.MethodDelete, url.Values{"dataId": {dataID}, "group": {DefaultGroup}})
}

// stored is dataId's content as Nacos serves it now ("" when missing).
func stored(t *testing.T, addr, dataID string) string {
	t.Helper()
	return openAPI(t, addr, http.MethodGet, url.Values{"dataId": {dataID}, "group": {DefaultGroup}})
}

// watch runs datasource.Watch on src with a capturing applier until the
// test ends.
func watch(t *testing.T, src datasource.Source, opts ...datasource.WatchOption) (*datasource.Watcher, *st.AppliedSets) {
	t.Helper()
	return st.WatchApplied(t, src, testLogger(t), waitTimeout, opts...)
}

// waitUntil polls cond until it holds, failing the test after waitTimeout.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// flowJSON is Sentinel's JSON for one flow rule on createOrder.
func flowJSON(count string) string {
	return `[{"resource":"createOrder","grade":1,"count":` + count + `}]`
}
