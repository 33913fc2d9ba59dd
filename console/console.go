// Package console is a built-in page for watching sentinelgen without the
// Sentinel dashboard: an http.Handler that serves one page (HTML, script and
// style embedded in the binary: no CDN, no build step) showing every
// resource with live pass / block / response-time charts, the circuit
// breakers' states and transitions, and the rules in force. It is
// read-only: it answers GET and HEAD only and changes nothing.
//
// The page draws its charts itself (canvas) from the handler's JSON
// endpoint, api/state, which it polls once a second. Paths are relative,
// so the handler can be mounted under a prefix with http.StripPrefix.
//
// The page has no authentication: serve it on a loopback address (as the
// example's -http flag does by default) or behind one.
package console

import (
	"embed"
	"encoding/json"
	"io/fs"
	"net/http"
	"sync"
	"time"

	"github.com/sentinelgen/sentinelgen/metrics"
	"github.com/sentinelgen/sentinelgen/runtime"
	"github.com/sentinelgen/sentinelgen/transport"
)

//go:embed assets
var assets embed.FS

// DefaultHistory is how many seconds of each resource the page charts.
const DefaultHistory = 60

// maxTransitions is how many breaker transitions the page lists.
const maxTransitions = 50

// Config configures a Console.
type Config struct {
	// Sampler supplies the per-second statistics (required, and started:
	// metrics.Sampler.Start).
	Sampler *metrics.Sampler
	// Title heads the page ("sentinelgen" when empty).
	Title string
	// History is how many seconds each chart shows (DefaultHistory when 0).
	History int
	// Now reads the wall clock (time.Now when nil); transitions are stamped
	// with it.
	Now func() time.Time
	// Refusals, when set, tells the rule pushes the command center refused
	// (transport.Server.Refusals): the page shows how many and the last
	// one. The dashboard's degrade, system and authority pages report a
	// refused push as saved, so this is where a refusal shows.
	Refusals func() transport.PushRefusals
}

// Console is the page's http.Handler. Close stops its listening to the
// runtime's breaker transitions.
type Console struct {
	cfg        Config
	mux        *http.ServeMux
	unregister func()

	mu          sync.Mutex
	transitions []Transition // newest last, at most maxTransitions
}

// New returns a Console. It listens to breaker transitions from now on.
func New(cfg Config) *Console {
	if cfg.Title == "" {
		cfg.Title = "sentinelgen"
	}
	if cfg.History <= 0 {
		cfg.History = DefaultHistory
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	c := &Console{cfg: cfg, mux: http.NewServeMux()}
	c.unregister = runtime.OnBreakerStateChange(c.onTransition)
	static, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	c.mux.Handle("GET /api/state", http.HandlerFunc(c.serveState))
	c.mux.Handle("GET /", http.FileServerFS(static))
	return c
}

// Close stops recording breaker transitions. The handler keeps serving.
func (c *Console) Close() { c.unregister() }

// ServeHTTP serves the page (/, console.js, console.css) and api/state.
// Anything but GET and HEAD is refused: the page is read-only.
func (c *Console) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "the console is read-only", http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", "default-src 'self'")
	c.mux.ServeHTTP(w, r)
}

// onTransition records a breaker state change. It runs on the call that
// caused the change, so it only appends under a short lock.
func (c *Console) onTransition(ev runtime.BreakerEvent) {
	t := Transition{
		AtMs: c.cfg.Now().UnixMilli(), Resource: ev.Resource, Rule: describeDegrade(ev.Rule),
		From: ev.From.String(), To: ev.To.String(), Value: ev.Value,
	}
	c.mu.Lock()
	if len(c.transitions) == maxTransitions {
		c.transitions = append(c.transitions[:0], c.transitions[1:]...)
	}
	c.transitions = append(c.transitions, t)
	c.mu.Unlock()
}

func (c *Console) serveState(w http.ResponseWriter, _ *http.Request) {
	st := c.State()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(st) // a write error is the client gone
}
