// Command testreport reads the JSON stream of `go test -json` and prints what
// `go test` without -json prints (each package's result line, the output of
// each failing test, build errors), plus two things it lacks:
//
//   - while tests run, a line every -quiet interval in which nothing else was
//     printed, naming the packages and tests still running and for how long,
//     so a long run is never silent;
//   - at the end, one line per failing test or package build, which
//     scripts/test.sh lists in its summary (also appended to -failures).
//
// It exits 1 when anything failed, else 0.
//
//	go test -json ./... | go run ./scripts/testreport -label . -failures /tmp/failed
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"time"
)

// event is one line of go test -json (cmd/test2json's TestEvent, with the
// go command's build events).
type event struct {
	Action      string
	Package     string
	Test        string
	Elapsed     float64
	Output      string
	FailedBuild string
	ImportPath  string // build-output and build-fail events
}

func main() {
	label := flag.String("label", "", "what is being tested, for the progress lines (a module's directory)")
	failures := flag.String("failures", "", "append one line per failure to this `file`")
	quiet := flag.Duration("quiet", 20*time.Second, "print a progress line after this long without output")
	flag.Parse()

	r := newReport(os.Stdout, *label, time.Now)
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				r.progress(*quiet)
			}
		}
	}()
	err := r.read(os.Stdin)
	close(done)
	lines := r.failures()
	for _, l := range lines {
		fmt.Fprintln(os.Stdout, "FAIL", l)
	}
	if *failures != "" && len(lines) > 0 {
		f, ferr := os.OpenFile(*failures, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if ferr == nil {
			for _, l := range lines {
				fmt.Fprintln(f, l)
			}
			ferr = f.Close()
		}
		if ferr != nil {
			fmt.Fprintln(os.Stderr, "testreport:", ferr)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "testreport:", err)
		os.Exit(1)
	}
	if len(lines) > 0 {
		os.Exit(1)
	}
}

// report turns events into go test's plain output and remembers what
// failed and what is running.
type report struct {
	mu       sync.Mutex
	out      io.Writer
	label    string
	now      func() time.Time
	lastLine time.Time

	running map[string]time.Time // package -> start
	tests   map[string]time.Time // package + "\x00" + test -> start
	buf     map[string]*strings.Builder
	failed  []string // "pkg: TestA" or "pkg: build failed", in order
	seen    map[string]bool
}

func newReport(out io.Writer, label string, now func() time.Time) *report {
	return &report{out: out, label: label, now: now, lastLine: now(),
		running: map[string]time.Time{}, tests: map[string]time.Time{}, buf: map[string]*strings.Builder{}, seen: map[string]bool{}}
}

// read handles every event of in; a line that is not JSON is passed
// through (the go command prints some errors before any event).
func (r *report) read(in io.Reader) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			r.print(string(line) + "\n")
			continue
		}
		r.handle(e)
	}
	return sc.Err()
}

// handle takes one event.
func (r *report) handle(e event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	key := e.Package + "\x00" + e.Test
	switch e.Action {
	case "build-output":
		r.printLocked(e.Output)
	case "build-fail":
		// The package's own fail event, with FailedBuild, follows.
	case "start":
		r.running[e.Package] = r.now()
	case "run":
		r.tests[key] = r.now()
	case "output":
		if e.Test == "" {
			if o := strings.TrimSpace(e.Output); o != "PASS" && o != "FAIL" {
				r.printLocked(e.Output)
			}
			return
		}
		b := r.buf[key]
		if b == nil {
			b = &strings.Builder{}
			r.buf[key] = b
		}
		b.WriteString(e.Output)
	case "pass", "skip", "fail", "bench":
		if e.Test == "" {
			delete(r.running, e.Package)
			if e.Action == "fail" {
				r.flushUnfinishedLocked(e.Package)
				what := "FAIL"
				if e.FailedBuild != "" {
					what = "build failed"
				}
				r.failLocked(e.Package + ": " + what)
			}
			return
		}
		delete(r.tests, key)
		if e.Action == "fail" {
			if b := r.buf[key]; b != nil {
				r.printLocked(dropRunLines(b.String()))
			}
			r.failLocked(e.Package + ": " + e.Test)
		}
		delete(r.buf, key)
	}
}

// flushUnfinishedLocked prints the output of pkg's tests that never ended
// (the binary panicked or timed out in them) and records them as failed.
func (r *report) flushUnfinishedLocked(pkg string) {
	var keys []string
	for k := range r.buf {
		if p, _, _ := strings.Cut(k, "\x00"); p == pkg {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		_, test, _ := strings.Cut(k, "\x00")
		if _, running := r.tests[k]; running {
			r.printLocked(dropRunLines(r.buf[k].String()))
			r.failLocked(pkg + ": " + test)
			delete(r.tests, k)
		}
		delete(r.buf, k)
	}
}

// dropRunLines removes the "=== RUN" and similar framing lines that -json
// mode adds to a test's output, which plain go test does not print, and puts
// the test's "--- FAIL" line first, where plain go test prints it.
func dropRunLines(s string) string {
	var head, body strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "=== RUN"), strings.HasPrefix(t, "=== PAUSE"), strings.HasPrefix(t, "=== CONT"),
			strings.HasPrefix(t, "=== NAME"):
		case strings.HasPrefix(t, "--- FAIL") && head.Len() == 0:
			head.WriteString(l)
		default:
			body.WriteString(l)
		}
	}
	return head.String() + body.String()
}

// failLocked records a failure once. A package whose tests failed is named
// by its tests; its own FAIL line is kept only when no test of it is.
func (r *report) failLocked(what string) {
	if r.seen[what] {
		return
	}
	r.seen[what] = true
	r.failed = append(r.failed, what)
}

// failures returns one line per failure: each failing test (parents of
// failing subtests left out), or the package when no test of it failed.
func (r *report) failures() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, f := range r.failed {
		pkg, what, _ := strings.Cut(f, ": ")
		if what == "FAIL" && r.hasTestFailure(pkg) {
			continue
		}
		if r.hasSubtestFailure(f) {
			continue
		}
		out = append(out, f)
	}
	return out
}

// hasTestFailure reports whether a test of pkg failed.
func (r *report) hasTestFailure(pkg string) bool {
	for _, f := range r.failed {
		p, what, _ := strings.Cut(f, ": ")
		if p == pkg && what != "FAIL" && !strings.HasPrefix(what, "build failed") {
			return true
		}
	}
	return false
}

// hasSubtestFailure reports whether a subtest of the failing test f failed
// too; the subtest says more.
func (r *report) hasSubtestFailure(f string) bool {
	for _, g := range r.failed {
		if strings.HasPrefix(g, f+"/") {
			return true
		}
	}
	return false
}

// print writes s as output of the run.
func (r *report) print(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.printLocked(s)
}

func (r *report) printLocked(s string) {
	if s == "" {
		return
	}
	io.WriteString(r.out, s)
	r.lastLine = r.now()
}

// progress prints what is running when nothing was printed for quiet.
func (r *report) progress(quiet time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	if now.Sub(r.lastLine) < quiet {
		return
	}
	r.printLocked(r.describeLocked(now) + "\n")
}

// describeLocked says what is running: each package with its longest
// running test, or that test binaries are being built.
func (r *report) describeLocked(now time.Time) string {
	prefix := "... "
	if r.label != "" {
		prefix += r.label + ": "
	}
	if len(r.running) == 0 {
		return prefix + "building and linking test binaries"
	}
	pkgs := make([]string, 0, len(r.running))
	for p := range r.running {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	var parts []string
	for _, p := range pkgs {
		part := fmt.Sprintf("%s (%ds", p, int(now.Sub(r.running[p]).Seconds()))
		if name, since, ok := r.longestTestLocked(p); ok {
			part += fmt.Sprintf(", %s for %ds", name, int(now.Sub(since).Seconds()))
		}
		parts = append(parts, part+")")
	}
	return prefix + "still running " + strings.Join(parts, "; ")
}

// longestTestLocked returns pkg's running test that started first.
func (r *report) longestTestLocked(pkg string) (string, time.Time, bool) {
	var (
		name  string
		since time.Time
		ok    bool
	)
	for k, t := range r.tests {
		p, test, _ := strings.Cut(k, "\x00")
		if p != pkg || test == "" {
			continue
		}
		if !ok || t.Before(since) || t.Equal(since) && test < name {
			name, since, ok = test, t, true
		}
	}
	return name, since, ok
}
