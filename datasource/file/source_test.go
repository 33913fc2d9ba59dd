package file

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/rules"
	"github.com/sentinelgen/sentinelgen/runtime"
)

const (
	fileTestPoll   = 5 * time.Millisecond
	fileTestSettle = 20 * time.Millisecond
)

// sourceRun runs a Source and collects what it pushes and reports.
type sourceRun struct {
	pushes  chan string // the content of each push
	reports chan error
	cancel  context.CancelFunc
	done    chan struct{}
}

func runNew(t *testing.T, path string) *sourceRun {
	t.Helper()
	r := &sourceRun{pushes: make(chan string, 100), reports: make(chan error, 100), done: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	src := New(path, WithPollInterval(fileTestPoll), WithSettle(fileTestSettle))
	go func() {
		defer close(r.done)
		src.watch(ctx, func(docs []rules.Document) {
			if len(docs) != 1 || docs[0].Name != path {
				t.Errorf("pushed %d documents (%v), want the one file", len(docs), docs)
			}
			r.pushes <- string(docs[0].Data)
		}, func(err error) { r.reports <- err })
	}()
	t.Cleanup(func() {
		cancel()
		<-r.done
	})
	return r
}

// next returns the next push, failing after a second.
func (r *sourceRun) next(t *testing.T) string {
	t.Helper()
	select {
	case s := <-r.pushes:
		return s
	case <-time.After(time.Second):
		t.Fatal("no push")
		return ""
	}
}

// nextReport returns the next report, failing after a second.
func (r *sourceRun) nextReport(t *testing.T) error {
	t.Helper()
	select {
	case err := <-r.reports:
		return err
	case <-time.After(time.Second):
		t.Fatal("no report")
		return nil
	}
}

// quiet fails if anything is pushed or reported during a few polls.
func (r *sourceRun) quiet(t *testing.T, why string) {
	t.Helper()
	select {
	case s := <-r.pushes:
		t.Errorf("%s: unexpected push %q", why, s)
	case err := <-r.reports:
		t.Errorf("%s: unexpected report %v", why, err)
	case <-time.After(8 * fileTestPoll):
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSourceSeesRewriteWithSameSizeAndMtime rewrites the file in place
// with content of the same length and puts the old mtime back: only the
// content hash can tell.
func TestSourceSeesRewriteWithSameSizeAndMtime(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rules.toml")
	write(t, path, "# version 1\n")
	r := runNew(t, path)
	if got := r.next(t); got != "# version 1\n" {
		t.Fatalf("first push %q", got)
	}
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("2"), int64(len("# version "))); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(path, time.Time{}, before.ModTime()); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(path)
	if stampOf(after) != stampOf(before) {
		t.Fatalf("the stat changed (%+v -> %+v); the test needs it not to", stampOf(before), stampOf(after))
	}
	if got := r.next(t); got != "# version 2\n" {
		t.Errorf("push after rewrite %q, want version 2", got)
	}
}

func TestSourcePushesOnlyWhenContentChanges(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rules.toml")
	write(t, path, "# v1\n")
	r := runNew(t, path)
	r.next(t)

	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	r.quiet(t, "touch")

	tmp := path + ".new"
	write(t, tmp, "# v1\n")
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	r.quiet(t, "rename of identical content")

	write(t, path, "# v2, longer\n")
	if got := r.next(t); got != "# v2, longer\n" {
		t.Errorf("push %q, want v2", got)
	}
}

func TestSourceReportsProblemsOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rules.toml")
	write(t, path, "# v1\n")
	r := runNew(t, path)
	r.next(t)

	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	err := r.nextReport(t)
	if !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), path+": file is gone") {
		t.Errorf("report %q, want the path, 'file is gone' and fs.ErrNotExist", err)
	}
	r.quiet(t, "still gone")

	write(t, path, "")
	if err := r.nextReport(t); !errors.Is(err, errEmptyFile) || !strings.HasPrefix(err.Error(), path+": file is empty") {
		t.Errorf("report %q for an empty file", err)
	}
	r.quiet(t, "still empty")

	write(t, path, "# v1\n")
	if got := r.next(t); got != "# v1\n" {
		t.Errorf("recovery push %q: the old content must be pushed again after a problem", got)
	}
	r.quiet(t, "recovered")

	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	err = r.nextReport(t)
	if errors.Is(err, fs.ErrNotExist) { // a poll fell between Remove and Mkdir
		err = r.nextReport(t)
	}
	if !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("report %q for a directory", err)
	}
}

// sampleSet is a set of both kinds, as the runtime would hold it.
func sampleSet() rules.Set {
	return rules.Set{
		Flow: []runtime.FlowRule{
			{Resource: "w.a", Grade: runtime.FlowGradeQPS, Count: 5},
			{Resource: "w.b", Grade: runtime.FlowGradeConcurrency, Count: 2},
		},
		Degrade: []runtime.DegradeRule{{Resource: "w.a", Grade: runtime.DegradeErrorRatio, Count: 0.5, TimeWindowSec: 10}},
	}
}

func TestSourceWrite(t *testing.T) {
	for _, tc := range []struct {
		name      string
		file      string
		wantFirst byte // first byte of what is written
	}{
		{"toml", "rules.toml", '['},
		{"json", "rules.json", '{'},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, tc.file)
			write(t, path, "")
			if err := os.Chmod(path, 0o600); err != nil {
				t.Fatal(err)
			}
			set := sampleSet()
			if err := New(path).Write(context.Background(), set); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(data) == 0 || data[0] != tc.wantFirst {
				t.Errorf("wrote %q, want a %s document", data, tc.name)
			}
			back, err := rules.Load(path)
			if err != nil || !back.Equal(set) {
				t.Errorf("reads back %+v, %v; want %+v", back, err, set)
			}
			info, _ := os.Stat(path)
			if info.Mode().Perm() != 0o600 {
				t.Errorf("mode %v, want 0600 kept", info.Mode().Perm())
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("directory holds %d entries, want only the file", len(entries))
			}
		})
	}
}

func TestSourceWriteKeepsEqualFileAndSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.json")
	handWritten := "[ {\"resource\": \"w.a\", \"grade\": 1, \"count\": 5} ]\n"
	write(t, target, handWritten)
	link := filepath.Join(dir, "flow.json")
	if err := os.Symlink("real.json", link); err != nil {
		t.Fatal(err)
	}
	src := New(link)
	same, err := rules.Load(link) // with Sentinel's defaults for the fields left out
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(target)
	if err := src.Write(context.Background(), same); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(target)
	if data, _ := os.ReadFile(target); string(data) != handWritten || !os.SameFile(before, after) {
		t.Errorf("an equal set rewrote the file: %q", data)
	}

	changed := rules.Set{Flow: append([]runtime.FlowRule(nil), same.Flow...)}
	changed.Flow[0].Count = 6
	if err := src.Write(context.Background(), changed); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced: %v, %v", fi, err)
	}
	if back, err := rules.Load(target); err != nil || !back.Equal(changed) {
		t.Errorf("target reads %+v, %v; want the changed set", back, err)
	}
}

func TestSourceWriteRefusesWhatDoesNotReadBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "flow.json")
	original := "[]\n"
	write(t, path, original)
	degradeOnly := rules.Set{Degrade: []runtime.DegradeRule{{Resource: "w.a", Grade: runtime.DegradeErrorCount, Count: 1, TimeWindowSec: 1}}}
	err := New(path).Write(context.Background(), degradeOnly)
	if err == nil {
		t.Fatal("wrote degrade rules into a file its name says holds flow rules")
	}
	if data, _ := os.ReadFile(path); string(data) != original {
		t.Errorf("file changed to %q by a refused write", data)
	}
}

func TestSourceWriteEmptySet(t *testing.T) {
	for _, name := range []string{"rules.toml", "rules.json"} {
		path := filepath.Join(t.TempDir(), name)
		write(t, path, "")
		if err := New(path).Write(context.Background(), sampleSet()); err != nil {
			t.Fatal(err)
		}
		if err := New(path).Write(context.Background(), rules.Set{}); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(path)
		if len(bytes.TrimSpace(data)) == 0 {
			t.Errorf("%s: no rules written as an empty file, which reads as a write in progress", name)
		}
		if back, err := rules.Load(path); err != nil || len(back.Flow)+len(back.Degrade) != 0 {
			t.Errorf("%s reads back %+v, %v; want no rules", name, back, err)
		}
	}
}
