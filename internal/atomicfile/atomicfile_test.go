package atomicfile

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// entries lists the names in dir, to catch temporary files left behind.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteFileCreatesWithPerm(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rules.toml")
	for _, perm := range []os.FileMode{0o640, 0o604} {
		if err := WriteFile(path, []byte("count = 1\n"), perm); err != nil {
			t.Fatal(err)
		}
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode().Perm(); got != perm {
			t.Errorf("mode %v, want %v", got, perm)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "count = 1\n" {
		t.Errorf("content %q, %v", got, err)
	}
	if names := entries(t, dir); len(names) != 1 || names[0] != "rules.toml" {
		t.Errorf("directory holds %v, want only rules.toml", names)
	}
}

func TestWriteFileReplaces(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.go")
	if err := os.WriteFile(path, []byte("a long old content that is longer than the new one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "new\n" {
		t.Errorf("content %q, want %q", got, "new\n")
	}
}

// A failed write leaves the target as it was and no temporary file behind.
func TestWriteFileFailureLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	// A non-empty directory under the target name: the rename fails after
	// the temporary file was written.
	target := filepath.Join(dir, "target")
	if err := os.MkdirAll(filepath.Join(target, "inside"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(target, []byte("x"), 0o644); err == nil {
		t.Fatal("no error renaming over a non-empty directory")
	}
	if names := entries(t, dir); len(names) != 1 || names[0] != "target" {
		t.Errorf("directory holds %v, want only target", names)
	}
	if info, err := os.Stat(target); err != nil || !info.IsDir() {
		t.Errorf("target changed: %v, %v", info, err)
	}

	if err := WriteFile(filepath.Join(dir, "no-such-dir", "f"), []byte("x"), 0o644); err == nil {
		t.Error("no error writing into a missing directory")
	}
}

// Readers racing with writers see one whole version or the other, never a
// truncated or mixed file.
func TestWriteFileReadersSeeWholeVersions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	versions := [][]byte{bytes.Repeat([]byte("a"), 64<<10), bytes.Repeat([]byte("b"), 32<<10)}
	if err := WriteFile(path, versions[0], 0o644); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Go(func() {
		defer close(done)
		for i := range 50 {
			if err := WriteFile(path, versions[i%2], 0o644); err != nil {
				t.Error(err)
				return
			}
		}
	})
	defer wg.Wait()
	for {
		// Read before looking at done, so at least one read overlaps.
		got, err := os.ReadFile(path)
		if err != nil {
			t.Error(err)
			return
		}
		if !bytes.Equal(got, versions[0]) && !bytes.Equal(got, versions[1]) {
			t.Errorf("read %d bytes that are neither version", len(got))
			return
		}
		select {
		case <-done:
			return
		default:
		}
	}
}

// BenchmarkWriteFile measures one replacement of a small file, fsyncs
// included: what the generator pays per file written and per cache entry.
func BenchmarkWriteFile(b *testing.B) {
	path := filepath.Join(b.TempDir(), "f")
	data := bytes.Repeat([]byte("x"), 4<<10)
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteFile(path, data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
}
