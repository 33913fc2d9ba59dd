package file

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/rules"
)

// fakeFile drives a poller by hand on a clock the test moves: every write
// stamps the file with the fake time, so the modification time tells the
// poller what a real write at that time would.
type fakeFile struct {
	t      *testing.T
	path   string
	now    time.Time
	p      poller
	pushes []string
	errs   []error
	next   time.Duration // what the last poll asked for
}

func newFakeFile(t *testing.T, opts ...Option) *fakeFile {
	f := &fakeFile{t: t, path: filepath.Join(t.TempDir(), "rules.toml"), now: time.Now()}
	f.p.init(New(f.path, opts...))
	return f
}

// poll polls once at the fake time.
func (f *fakeFile) poll() {
	f.next = f.p.poll(f.now,
		func(docs []rules.Document) { f.pushes = append(f.pushes, string(docs[0].Data)) },
		func(err error) { f.errs = append(f.errs, err) })
}

// wait moves the clock by d, polling on the way at the poll interval.
func (f *fakeFile) wait(d time.Duration) {
	for end := f.now.Add(d); f.now.Before(end); {
		f.now = f.now.Add(min(f.p.interval, end.Sub(f.now)))
		f.poll()
	}
}

// write replaces the content in place (truncate and write, same inode) at
// the fake time; append adds to it.
func (f *fakeFile) write(content string) { f.writeFlags(content, os.O_TRUNC) }

func (f *fakeFile) append(content string) { f.writeFlags(content, os.O_APPEND) }

func (f *fakeFile) writeFlags(content string, flag int) {
	f.t.Helper()
	file, err := os.OpenFile(f.path, os.O_WRONLY|os.O_CREATE|flag, 0o644)
	if err != nil {
		f.t.Fatal(err)
	}
	if _, err := file.WriteString(content); err != nil {
		f.t.Fatal(err)
	}
	if err := file.Close(); err != nil {
		f.t.Fatal(err)
	}
	f.stamp(f.now)
}

// rename writes content to a temporary file and renames it over the file.
func (f *fakeFile) rename(content string) {
	f.t.Helper()
	tmp := f.path + ".tmp"
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
	if err := os.Chtimes(tmp, f.now, f.now); err != nil {
		f.t.Fatal(err)
	}
	if err := os.Rename(tmp, f.path); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fakeFile) stamp(at time.Time) {
	f.t.Helper()
	if err := os.Chtimes(f.path, at, at); err != nil {
		f.t.Fatal(err)
	}
}

// lastPush is the content pushed last, "" before any.
func (f *fakeFile) lastPush() string {
	if len(f.pushes) == 0 {
		return ""
	}
	return f.pushes[len(f.pushes)-1]
}

// The half-written file drill: a writer truncates the file, writes "[[flow]]" and
// the resource of each rule, pauses a second, then writes its count. Not one
// of the sets pushed may be partial: every push parses, with every rule at
// its full count, and each round's complete file is pushed once written.
func TestSlowWriterNeverPutsAPartialFileInForce(t *testing.T) {
	f := newFakeFile(t) // the defaults: 250 ms polls, 2 s settle
	f.write(flowRule("a", 1))
	f.stamp(f.now.Add(-time.Hour)) // written long before the service starts
	f.poll()
	if len(f.pushes) != 1 {
		t.Fatalf("an old file was not pushed at start: %d pushes, errors %v", len(f.pushes), f.errs)
	}

	const rounds, rulesPerFile = 5, 13
	for round := range rounds {
		count := 2000 + round
		f.write("")
		f.wait(300 * time.Millisecond)
		var full strings.Builder
		for i := range rulesPerFile {
			head := fmt.Sprintf("[[flow]]\nresource = \"r%d\"\n", i)
			f.append(head)
			f.wait(time.Second) // the writer pauses mid-rule
			tail := fmt.Sprintf("count = %d\n", count)
			f.append(tail)
			f.wait(100 * time.Millisecond)
			full.WriteString(head + tail)
		}
		f.wait(DefaultSettle + f.p.interval)
		if f.lastPush() != full.String() {
			t.Fatalf("round %d: the complete file was not pushed after it settled; last push:\n%s", round, f.lastPush())
		}
	}

	for i, data := range f.pushes[1:] {
		s, err := rules.Parse(rules.Document{Name: f.path, Data: []byte(data)})
		if err != nil {
			t.Errorf("push %d does not parse: %v\n%s", i+1, err, data)
			continue
		}
		if len(s.Flow) != rulesPerFile {
			t.Errorf("push %d holds %d of the %d rules", i+1, len(s.Flow), rulesPerFile)
		}
		for _, r := range s.Flow {
			if r.Count < 2000 {
				t.Errorf("push %d puts %s in force with count %v", i+1, r.Resource, r.Count)
			}
		}
	}
	if len(f.pushes) != rounds+1 {
		t.Errorf("%d pushes, want %d: the start and each round's complete file", len(f.pushes), rounds+1)
	}
	if len(f.errs) != 0 {
		t.Errorf("reports %v: a file being written is not a problem until it settles", f.errs)
	}
}

func flowRule(resource string, count int) string {
	return fmt.Sprintf("[[flow]]\nresource = %q\ncount = %d\n", resource, count)
}

// A file changed in place is pushed once it has stayed unchanged for the
// settle interval, not before; the poll asks to be called back when that
// interval ends, even if the poll interval is longer.
func TestInPlaceWriteIsPushedOnceSettled(t *testing.T) {
	const settle = 500 * time.Millisecond
	f := newFakeFile(t, WithPollInterval(time.Hour), WithSettle(settle))
	f.write(flowRule("a", 1))
	f.poll()
	if len(f.pushes) != 0 {
		t.Fatalf("a file written just now was pushed before it settled")
	}
	if f.next != settle {
		t.Errorf("poll asks to be called in %v, want the settle interval %v", f.next, settle)
	}
	f.now = f.now.Add(settle - time.Millisecond)
	f.poll()
	if len(f.pushes) != 0 || f.next != time.Millisecond {
		t.Fatalf("pushed %d times %v before the settle interval ended (next poll in %v)", len(f.pushes), settle-time.Millisecond, f.next)
	}
	f.now = f.now.Add(time.Millisecond)
	f.poll()
	if f.lastPush() != flowRule("a", 1) {
		t.Fatalf("not pushed once settled: %q", f.pushes)
	}
	if f.next != time.Hour {
		t.Errorf("next poll in %v once nothing waits, want the poll interval", f.next)
	}

	// A change during the wait starts it again.
	f.write(flowRule("a", 2))
	f.poll()
	f.now = f.now.Add(settle / 2)
	f.write(flowRule("a", 3))
	f.poll()
	f.now = f.now.Add(settle / 2)
	f.poll()
	if len(f.pushes) != 1 {
		t.Fatalf("pushed %q while the file kept changing", f.pushes[1:])
	}
	f.now = f.now.Add(settle / 2)
	f.poll()
	if f.lastPush() != flowRule("a", 3) || len(f.pushes) != 2 {
		t.Errorf("pushes %q, want the last version once settled", f.pushes)
	}
}

// A file replaced by rename is complete: it is pushed at the poll that sees
// it, without waiting. One that was missing at the poll before (deleted, then
// written) may still be being written, and waits like an in-place write.
func TestRenamedFileIsPushedAtOnce(t *testing.T) {
	f := newFakeFile(t, WithSettle(time.Minute))
	f.rename(flowRule("a", 1))
	f.poll()
	if len(f.pushes) != 0 {
		t.Fatal("the first sight of a fresh file was pushed at once: nothing shows it complete")
	}
	f.wait(time.Minute)
	if len(f.pushes) != 1 {
		t.Fatalf("not pushed after the settle interval: %d pushes", len(f.pushes))
	}

	f.rename(flowRule("a", 2))
	f.poll()
	if f.lastPush() != flowRule("a", 2) {
		t.Fatalf("a rename was not pushed at once: %q", f.pushes)
	}

	if err := os.Remove(f.path); err != nil {
		t.Fatal(err)
	}
	f.poll()
	f.rename(flowRule("a", 3))
	f.poll()
	if len(f.pushes) != 2 {
		t.Errorf("a file recreated after a poll found it gone was pushed at once")
	}
	f.wait(time.Minute)
	if f.lastPush() != flowRule("a", 3) {
		t.Errorf("the recreated file was not pushed once settled: %q", f.pushes)
	}
}

// An empty file is a write in progress until it settles; then it is
// reported, once.
func TestEmptyFileIsReportedOnceSettled(t *testing.T) {
	f := newFakeFile(t, WithSettle(time.Second))
	f.write("")
	f.poll()
	if len(f.errs) != 0 {
		t.Fatalf("an empty file was reported before it settled: %v", f.errs)
	}
	f.wait(2 * time.Second)
	if len(f.errs) != 1 || !errors.Is(f.errs[0], errEmptyFile) || len(f.pushes) != 0 {
		t.Errorf("reports %v, pushes %q; want one empty-file report and no push", f.errs, f.pushes)
	}
}

// A file over the size limit is refused without being read, with its path,
// its size and the limit in the report; once it is small again it is read.
func TestOversizedFileIsRefused(t *testing.T) {
	f := newFakeFile(t, WithMaxSize(1000), WithSettle(0))
	big := flowRule("a", 1) + "# " + strings.Repeat("x", 1000) + "\n"
	f.write(big)
	f.poll()
	f.poll()
	want := fmt.Sprintf("%s: file is %d bytes: over the size limit of 1000 bytes (raise it with file.WithMaxSize)", f.path, len(big))
	if len(f.errs) != 1 || f.errs[0].Error() != want || !errors.Is(f.errs[0], errTooBig) {
		t.Fatalf("reports %v, want once %q", f.errs, want)
	}
	if len(f.pushes) != 0 {
		t.Fatalf("an oversized file was pushed")
	}
	f.write(flowRule("a", 1))
	f.poll()
	if f.lastPush() != flowRule("a", 1) {
		t.Errorf("the file back under the limit was not pushed: %q", f.pushes)
	}
}

// BenchmarkRehashFile is one of the periodic re-reads of a 50 MB file: with
// the default limit it is a stat, without one it reads the whole file.
func BenchmarkRehashFile(b *testing.B) {
	path := filepath.Join(b.TempDir(), "rules.toml")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.Truncate(path, 50<<20); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		max  int64
	}{{"limit=default", 0}, {"limit=none", 1 << 40}} {
		b.Run(c.name, func(b *testing.B) {
			var p poller
			p.init(New(path, WithMaxSize(c.max), WithSettle(0)))
			b.ReportAllocs()
			for b.Loop() {
				p.readAt, p.failure = time.Time{}, "" // as when the rehash period is due
				p.poll(time.Now(), func([]rules.Document) {}, func(error) {})
			}
		})
	}
}
