package file_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/datasource/file"
	"github.com/sentinelgen/sentinelgen/rules"
	sentinel "github.com/sentinelgen/sentinelgen/runtime"
	"github.com/sentinelgen/sentinelgen/transport"
)

// handWritten is a rules file as a person keeps it: comments, a duration
// spelled as one, defaults left out.
const handWritten = `# Entrance layer: fast-fail QPS limit.
[[flow]]
resource = "overlay.order"
count = 100

# Open for 2 s when more than half of the calls are slower than 200 ms.
[[degrade]]
resource = "overlay.order"
slowCall = "200ms"
slowRatioThreshold = 0.5
timeWindow = 2
minRequestAmount = 20
`

// overlayService is one run of a service: a watcher on the hand-written
// file, the overlay loaded over it and a command center writing pushes to
// the overlay. stop ends the run.
type overlayService struct {
	w     *datasource.Watcher
	addr  string
	stop  func()
	kinds []rules.Kind
}

func startOverlayService(t *testing.T, rulesPath, pushPath string) *overlayService {
	t.Helper()
	quiet := slog.New(slog.DiscardHandler)
	ctx, cancel := context.WithCancel(context.Background())
	w, err := datasource.Watch(ctx, file.New(rulesPath, file.WithPollInterval(10*time.Millisecond), file.WithSettle(30*time.Millisecond)),
		datasource.WithLogger(quiet))
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	overlay := file.NewOverlay(pushPath, w)
	kinds, err := overlay.Load()
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	stopPersist := datasource.Persist(overlay, datasource.WithDebounce(time.Millisecond), datasource.WithLogger(quiet))
	srv, err := transport.Start(transport.Config{App: "overlay", Listen: "127.0.0.1:0", Writer: overlay, Logger: quiet})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	s := &overlayService{w: w, addr: "http://" + srv.Addr().String(), kinds: kinds}
	s.stop = func() { _ = srv.Close(); stopPersist(); cancel(); <-w.Done() }
	t.Cleanup(s.stop)
	return s
}

// push sends one setRules of kind as the dashboard does.
func (s *overlayService) push(t *testing.T, kind, data string) {
	t.Helper()
	resp, err := http.PostForm(s.addr+"/setRules", url.Values{"type": {kind}, "data": {data}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || string(body) != "success" {
		t.Fatalf("push of %s answered %d %q", kind, resp.StatusCode, body)
	}
}

// A dashboard push is written to the overlay, never to the hand-written
// file, which stays byte for byte as it was; after a restart the pushed
// rule is in force again over the file's other rules.
func TestOverlayKeepsTheHandWrittenFileAndSurvivesRestart(t *testing.T) {
	if err := sentinel.LoadRules(sentinel.Rules{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sentinel.LoadRules(sentinel.Rules{}) })
	dir := t.TempDir()
	rulesPath, pushPath := filepath.Join(dir, "rules.toml"), filepath.Join(dir, "rules.pushed.json")
	if err := os.WriteFile(rulesPath, []byte(handWritten), 0o644); err != nil {
		t.Fatal(err)
	}
	s := startOverlayService(t, rulesPath, pushPath)
	s.push(t, "flow", `[{"resource":"overlay.order","grade":1,"count":42.0,"limitApp":"default","strategy":0,"controlBehavior":0}]`)

	if f := sentinel.FlowRules(); len(f) != 1 || f[0].Count != 42 {
		t.Fatalf("flow in force %+v, want the pushed count 42", f)
	}
	time.Sleep(100 * time.Millisecond) // room for a write-back to show
	if data, _ := os.ReadFile(rulesPath); string(data) != handWritten {
		t.Fatalf("the hand-written file was rewritten:\n%s", data)
	}
	stored, err := os.ReadFile(pushPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(stored), `"flow"`) || strings.Contains(string(stored), `"degrade"`) {
		t.Errorf("overlay holds\n%s\nwant the pushed flow kind only", stored)
	}
	degrade := sentinel.DegradeRules()

	// Restart: stop everything, forget the rules, start again.
	s.stop()
	if err := sentinel.LoadRules(sentinel.Rules{}); err != nil {
		t.Fatal(err)
	}
	s = startOverlayService(t, rulesPath, pushPath)
	if f := sentinel.FlowRules(); len(f) != 1 || f[0].Count != 42 {
		t.Errorf("flow after restart %+v, want the pushed count 42", f)
	}
	if d := sentinel.DegradeRules(); len(d) != 1 || d[0] != degrade[0] || d[0].Count != 200 {
		t.Errorf("degrade after restart %+v, want the file's %+v", d, degrade)
	}
	if len(s.kinds) != 1 || s.kinds[0] != rules.KindFlow {
		t.Errorf("overlay loaded %v, want [flow]", s.kinds)
	}

	// An edit of the file's breaker applies and keeps the pushed flow
	// rule; the hand-written file stays the person's.
	edited := strings.Replace(handWritten, "timeWindow = 2", "timeWindow = 3", 1)
	tmp := rulesPath + ".tmp"
	if err := os.WriteFile(tmp, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, rulesPath); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for s.w.Applied() < 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if d := sentinel.DegradeRules(); len(d) != 1 || d[0].TimeWindowSec != 3 {
		t.Fatalf("degrade %+v, want the edit's timeWindow 3", d)
	}
	if f := sentinel.FlowRules(); len(f) != 1 || f[0].Count != 42 {
		t.Errorf("flow %+v after an edit of the breaker, want the pushed count 42 kept", f)
	}
	if data, _ := os.ReadFile(rulesPath); string(data) != edited {
		t.Errorf("the hand-written file was rewritten:\n%s", data)
	}
}

// A pushed kind equal to the file's again leaves the overlay; a kind
// pushed empty while the file has rules of it is stored as an empty list.
func TestOverlayStoresOnlyWhatDiffers(t *testing.T) {
	if err := sentinel.LoadRules(sentinel.Rules{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sentinel.LoadRules(sentinel.Rules{}) })
	dir := t.TempDir()
	rulesPath, pushPath := filepath.Join(dir, "rules.toml"), filepath.Join(dir, "pushed.json")
	if err := os.WriteFile(rulesPath, []byte(handWritten), 0o644); err != nil {
		t.Fatal(err)
	}
	s := startOverlayService(t, rulesPath, pushPath)
	s.push(t, "degrade", `[]`)
	stored, _ := os.ReadFile(pushPath)
	if want := "{\n  \"degrade\": []\n}\n"; string(stored) != want {
		t.Errorf("overlay after pushing no breakers holds %q, want %q", stored, want)
	}
	s.push(t, "flow", `[{"resource":"overlay.order","grade":1,"count":100.0,"limitApp":"default","strategy":0,"controlBehavior":0}]`)
	stored, _ = os.ReadFile(pushPath)
	if bytes.Contains(stored, []byte(`"flow"`)) {
		t.Errorf("overlay holds a flow kind equal to the file's:\n%s", stored)
	}
	if data, _ := os.ReadFile(rulesPath); string(data) != handWritten {
		t.Errorf("the hand-written file was rewritten:\n%s", data)
	}
}

// A watcher bound to flow hands the command center a writer that stores
// only flow: a push of breakers leaves its file as it is, a push of flow
// rules replaces the file's flow rules and keeps its breakers.
func TestWatcherWriterStoresOnlyTheOwnedKinds(t *testing.T) {
	if err := sentinel.LoadRules(sentinel.Rules{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sentinel.LoadRules(sentinel.Rules{}) })
	quiet := slog.New(slog.DiscardHandler)
	path := filepath.Join(t.TempDir(), "flow.toml")
	if err := os.WriteFile(path, []byte(handWritten), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	w, err := datasource.Watch(ctx, file.New(path, file.WithPollInterval(10*time.Millisecond)),
		datasource.WithKinds(rules.KindFlow), datasource.WithLogger(quiet))
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	defer func() { cancel(); <-w.Done() }()
	writer, err := w.Writer()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := transport.Start(transport.Config{App: "owned", Listen: "127.0.0.1:0", Writer: writer, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	s := &overlayService{addr: "http://" + srv.Addr().String()}
	s.push(t, "degrade", `[{"resource":"owned.b","grade":2,"count":3,"timeWindow":5}]`)
	if data, _ := os.ReadFile(path); string(data) != handWritten {
		t.Fatalf("a push of a kind the file's watcher does not own was written into it:\n%s", data)
	}
	s.push(t, "flow", `[{"resource":"overlay.order","grade":1,"count":42.0}]`)
	got, err := rules.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Flow) != 1 || got.Flow[0].Count != 42 || len(got.Degrade) != 1 || got.Degrade[0].Resource != "overlay.order" {
		t.Errorf("file after a flow push holds %+v / %+v, want the pushed flow rule and its own breaker", got.Flow, got.Degrade)
	}
}
