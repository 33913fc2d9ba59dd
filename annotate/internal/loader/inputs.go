package loader

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"hash"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// The inputs key of a load: one hash of everything the outcome of loading
// and checking the targets on the host can depend on, so that a caller
// that recorded the outcome of a load with the same key (see Config.Known)
// can skip parsing and type-checking altogether. It is derived, not
// listed field by field:
//
//   - the configuration, as configParts gives it to the listing cache too;
//   - every target's listing, whole, as go list reported it (every field
//     listFields asks for, so a field added there is keyed without more
//     code), with the target architecture;
//   - the export data file of every direct import of a target: the go
//     command names those files by the hash of their content, and a
//     package's export data holds whatever of its own dependencies its API
//     exposes, so a dependency's exported type changing changes the file
//     name of every package that shows it;
//   - every .go file of every target directory, by name and content hash:
//     the files go list compiles, those it leaves out by build constraints
//     (where directives are reported), test files, and the previous
//     generated files, so that a generated file edited or deleted on disk
//     changes the key too.

// dirHashes hashes the .go files of directories once per load, however
// many times a key is computed.
type dirHashes struct {
	mu   sync.Mutex
	dirs map[string][]byte // directory -> digest of its .go files, nil if unreadable
}

func newDirHashes() *dirHashes { return &dirHashes{dirs: map[string][]byte{}} }

// digest returns the digest of dir's .go files, names and contents, in
// name order, or nil when the directory or one of them cannot be read.
func (d *dirHashes) digest(dir string) []byte {
	d.mu.Lock()
	sum, ok := d.dirs[dir]
	d.mu.Unlock()
	if ok {
		return sum
	}
	sum = hashGoFiles(dir)
	d.mu.Lock()
	d.dirs[dir] = sum
	d.mu.Unlock()
	return sum
}

// hashGoFiles is digest without the memo.
func hashGoFiles(dir string) []byte {
	entries, err := os.ReadDir(dir) // sorted by name
	if err != nil {
		return nil
	}
	h := sha256.New()
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil
		}
		writeField(h, []byte(e.Name()))
		content := sha256.Sum256(src)
		writeField(h, content[:])
	}
	return h.Sum(nil)
}

// writeField writes b with its length, so that fields cannot run into
// each other.
func writeField(h hash.Hash, b []byte) {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
	h.Write(n[:])
	h.Write(b)
}

// inputKey returns the inputs key of loading list's targets with cfg, or
// false when the load cannot be keyed: a target the fast route would not
// load, an import without export data, an unreadable directory.
func inputKey(cfg Config, list *packageList, files *dirHashes) (string, bool) {
	if list.goarch == "" || list.ineligible(list.targets) != "" {
		return "", false
	}
	parts, ok := configParts(cfg)
	if !ok {
		return "", false
	}
	h := sha256.New()
	for _, p := range parts {
		writeField(h, []byte(p))
	}
	writeField(h, []byte(list.goarch))
	// Directories are hashed in parallel: on a warm module this is most of
	// the key's cost, and it runs while nothing else does.
	digests := make([][]byte, len(list.targets))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for i, t := range list.targets {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			digests[i] = files.digest(t.Dir)
		})
	}
	wg.Wait()
	for i, t := range list.targets {
		listed, err := json.Marshal(t)
		if err != nil || digests[i] == nil {
			return "", false
		}
		writeField(h, listed)
		writeField(h, digests[i])
		imports := slices.Sorted(slices.Values(t.Imports))
		for _, path := range imports {
			writeField(h, []byte(path))
			if path == "unsafe" {
				continue // no export data, and none needed
			}
			dep := list.byPath[path]
			if dep == nil || dep.Export == "" {
				return "", false
			}
			writeField(h, []byte(dep.Export))
		}
	}
	return hex.EncodeToString(h.Sum(nil)), true
}
