package cache

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/binary"
	"io"
	"os"
	"runtime"
	"strings"
)

// executableID identifies the running generator: entries of one binary
// never answer for another. It is the Go build ID the go command wrote into
// the executable when it has one, else the SHA-256 of the whole file. The
// build ID ends in a hash of the binary's own content, so it tells builds
// apart as well as a hash of the file does, and reading it costs a few
// kilobytes instead of the whole executable (BenchmarkExecutableID compares
// the two).
func executableID() ([]byte, error) {
	f, err := openExecutable()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if id := goBuildID(f); id != "" {
		return []byte("go build ID " + id), nil
	}
	return contentID(f)
}

// contentID hashes the whole file: the identity of an executable without a
// usable build ID.
func contentID(f *os.File) ([]byte, error) {
	h := sha256.New()
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	return append([]byte("sha256 "), h.Sum(nil)...), nil
}

// openExecutable opens the file the process runs. On Linux /proc/self/exe
// is that file even when a new build has since been installed under its
// name (go install renames over it); reading the new one would file this
// binary's outputs under the other's identity. Elsewhere the path is the
// best there is.
func openExecutable() (*os.File, error) {
	if runtime.GOOS == "linux" {
		if f, err := os.Open("/proc/self/exe"); err == nil {
			return f, nil
		}
	}
	path, err := os.Executable()
	if err != nil {
		return nil, err
	}
	return os.Open(path)
}

// goBuildID returns the build ID the go command's linker stored in f, or ""
// when there is none or it does not have the go command's shape (a build
// with -ldflags=-buildid=... may set any string, even one shared by
// different builds). ELF executables keep it in the note section
// .note.go.buildid; other formats as a marked string near the start of the
// text, within the first 32 KB.
func goBuildID(f *os.File) string {
	var id string
	if ef, err := elf.NewFile(f); err == nil {
		if s := ef.Section(".note.go.buildid"); s != nil {
			if data, err := s.Data(); err == nil {
				id = elfNoteDesc(data, ef.ByteOrder)
			}
		}
	} else {
		head := make([]byte, 32<<10)
		n, _ := f.ReadAt(head, 0)
		id = rawBuildID(head[:n])
	}
	if !goCommandShape(id) {
		return ""
	}
	return id
}

// elfNoteDesc returns the description of the "Go" note in data: name size,
// description size and type (4 bytes each), the name padded to 4 bytes,
// then the description.
func elfNoteDesc(data []byte, order binary.ByteOrder) string {
	if len(data) < 16 {
		return ""
	}
	nameSize, descSize := order.Uint32(data[0:]), order.Uint32(data[4:])
	if nameSize != 4 || string(data[12:16]) != "Go\x00\x00" || uint64(len(data)) < 16+uint64(descSize) {
		return ""
	}
	return string(data[16 : 16+descSize])
}

// rawBuildID finds `\xff Go build ID: "<id>"\n \xff` in head.
func rawBuildID(head []byte) string {
	const prefix, suffix = "\xff Go build ID: \"", "\"\n \xff"
	i := bytes.Index(head, []byte(prefix))
	if i < 0 {
		return ""
	}
	rest := head[i+len(prefix):]
	j := bytes.Index(rest, []byte(suffix))
	if j < 0 {
		return ""
	}
	return string(rest[:j])
}

// goCommandShape reports whether id looks like a build ID the go command
// computed: slash-separated hashes, at least two, each of 20 or more
// base64url characters.
func goCommandShape(id string) bool {
	parts := strings.Split(id, "/")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if len(p) < 20 {
			return false
		}
		for _, c := range p {
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}
