package main

import (
	"strings"
	"testing"
	"time"
)

// stream is go test -json's output for a package with a passing test, a
// failing subtest and a test that panics, and one that fails to build.
const stream = `{"Action":"build-output","ImportPath":"m/b [m/b.test]","Output":"# m/b [m/b.test]\n"}
{"Action":"build-output","ImportPath":"m/b [m/b.test]","Output":"b/b.go:1:23: undefined: x\n"}
{"Action":"build-fail","ImportPath":"m/b [m/b.test]"}
{"Action":"start","Package":"m/b"}
{"Action":"output","Package":"m/b","Output":"FAIL\tm/b [build failed]\n"}
{"Action":"fail","Package":"m/b","Elapsed":0,"FailedBuild":"m/b [m/b.test]"}
{"Action":"start","Package":"m"}
{"Action":"run","Package":"m","Test":"TestOK"}
{"Action":"output","Package":"m","Test":"TestOK","Output":"=== RUN   TestOK\n"}
{"Action":"output","Package":"m","Test":"TestOK","Output":"--- PASS: TestOK (0.00s)\n"}
{"Action":"pass","Package":"m","Test":"TestOK","Elapsed":0}
{"Action":"run","Package":"m","Test":"TestBad"}
{"Action":"run","Package":"m","Test":"TestBad/sub"}
{"Action":"output","Package":"m","Test":"TestBad/sub","Output":"    a_test.go:4: boom\n"}
{"Action":"output","Package":"m","Test":"TestBad/sub","Output":"--- FAIL: TestBad/sub (0.00s)\n"}
{"Action":"fail","Package":"m","Test":"TestBad/sub","Elapsed":0}
{"Action":"output","Package":"m","Test":"TestBad","Output":"--- FAIL: TestBad (0.00s)\n"}
{"Action":"fail","Package":"m","Test":"TestBad","Elapsed":0}
{"Action":"run","Package":"m","Test":"TestPanic"}
{"Action":"output","Package":"m","Test":"TestPanic","Output":"panic: oops\n"}
{"Action":"output","Package":"m","Output":"FAIL\tm\t4.0s\n"}
{"Action":"fail","Package":"m","Elapsed":4}
`

func TestReportPrintsFailuresAndNamesThem(t *testing.T) {
	var out strings.Builder
	r := newReport(&out, "m", time.Now)
	if err := r.read(strings.NewReader(stream)); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{"b/b.go:1:23: undefined: x\n", "FAIL\tm/b [build failed]\n",
		"--- FAIL: TestBad/sub (0.00s)\n    a_test.go:4: boom\n", "--- FAIL: TestBad (0.00s)\n", "panic: oops\n", "FAIL\tm\t4.0s\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	for _, unwanted := range []string{"=== RUN", "TestOK"} {
		if strings.Contains(got, unwanted) {
			t.Errorf("output has %q, which plain go test does not print:\n%s", unwanted, got)
		}
	}
	want := []string{"m/b: build failed", "m: TestBad/sub", "m: TestPanic"}
	if f := r.failures(); strings.Join(f, "|") != strings.Join(want, "|") {
		t.Errorf("failures %q, want %q", f, want)
	}
}

func TestReportSaysWhatRunsWhenQuiet(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var out strings.Builder
	r := newReport(&out, "./cluster/redis", func() time.Time { return now })
	now = now.Add(25 * time.Second)
	r.progress(20 * time.Second)
	if want := "... ./cluster/redis: building and linking test binaries\n"; out.String() != want {
		t.Fatalf("progress before any package started: %q, want %q", out.String(), want)
	}
	out.Reset()
	r.handle(event{Action: "start", Package: "m/redis"})
	r.handle(event{Action: "run", Package: "m/redis", Test: "TestFailover"})
	now = now.Add(10 * time.Second)
	r.progress(20 * time.Second)
	if out.Len() != 0 {
		t.Fatalf("progress printed %q only 10 s after the last line", out.String())
	}
	now = now.Add(15 * time.Second)
	r.progress(20 * time.Second)
	if want := "... ./cluster/redis: still running m/redis (25s, TestFailover for 25s)\n"; out.String() != want {
		t.Errorf("progress %q, want %q", out.String(), want)
	}
}
