package cache

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

const sampleBuildID = "3bOmecQESWAbz82MkH6Q/kXCG2KRcAu9H4ukIYIyS/Cz9xaTA49g-dn08SCHp6/wRnlOjuRiLp_OPud-Did"

func TestBuildIDFormats(t *testing.T) {
	note := binary.LittleEndian.AppendUint32(nil, 4)
	note = binary.LittleEndian.AppendUint32(note, uint32(len(sampleBuildID)))
	note = binary.LittleEndian.AppendUint32(note, 4)
	note = append(append(note, "Go\x00\x00"...), sampleBuildID...)
	if got := elfNoteDesc(note, binary.LittleEndian); got != sampleBuildID {
		t.Errorf("ELF note: %q, want %q", got, sampleBuildID)
	}
	if got := elfNoteDesc(note[:20], binary.LittleEndian); got != "" {
		t.Errorf("truncated ELF note: %q, want none", got)
	}
	raw := []byte("\x00\x01\xff Go build ID: \"" + sampleBuildID + "\"\n \xff\x00")
	if got := rawBuildID(raw); got != sampleBuildID {
		t.Errorf("raw marker: %q, want %q", got, sampleBuildID)
	}
	for id, want := range map[string]bool{
		sampleBuildID:                true,
		"":                           false,
		"release-1.0":                false, // -ldflags=-buildid=release-1.0: shared by builds
		"aaaaaaaaaaaaaaaaaaaa/short": false,
		"aaaaaaaaaaaaaaaaaaaa/b b b b b b b b b b b": false,
	} {
		if got := goCommandShape(id); got != want {
			t.Errorf("goCommandShape(%q) = %v, want %v", id, got, want)
		}
	}
}

// A file without a build ID falls back to the content hash, which the
// caller computes: goBuildID reports none.
func TestNoBuildIDInAPlainFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tool")
	if err := os.WriteFile(path, []byte("#!/bin/sh\necho not a go binary\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if id := goBuildID(f); id != "" {
		t.Fatalf("goBuildID = %q, want none", id)
	}
}

// BenchmarkExecutableID compares the two ways to identify the running
// executable (here the test binary): reading its Go build ID, and hashing
// the whole file, the fallback.
func BenchmarkExecutableID(b *testing.B) {
	f, err := openExecutable()
	if err != nil {
		b.Skip(err)
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil {
		b.Logf("executable: %d bytes", info.Size())
	}
	b.Run("build-id", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if goBuildID(f) == "" {
				b.Fatal("no build ID")
			}
		}
	})
	b.Run("sha256", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := contentID(f); err != nil {
				b.Fatal(err)
			}
		}
	})
}
