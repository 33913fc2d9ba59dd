package cache

import (
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sentinelgen/sentinelgen/internal/atomicfile"
)

// The caches' housekeeping, after the go command's build cache: a file's
// modification time says when it was last used (a hit refreshes it at most
// once per usedResolution, so that a hit rarely costs a write), and files
// unused for maxUnused are removed by a sweep that runs at most once per
// trimInterval. The sweep covers every cache under the root (the loader's
// listings too, and the temporary files a crash may leave), by the same
// rule. Entries are tiny, but every new sentinelgen binary starts a new set
// of them.
const (
	usedResolution = 24 * time.Hour
	maxUnused      = 30 * 24 * time.Hour
	trimInterval   = 24 * time.Hour
	trimStampFile  = "trim.txt" // in the root: the Unix time of the last sweep
)

// sweptDir reports whether a directory of the cache root belongs to a
// sentinelgen cache: the generation cache, the loader's listings
// (cachedir.Sub("golist")) and two-hex-digit directories, where older
// sentinelgen binaries kept their model entries directly under the root.
// Nothing else is swept: SENTINELGEN_CACHE may name a directory that holds
// other files too.
func sweptDir(name string) bool {
	switch name {
	case Subdir, "golist":
		return true
	}
	_, err := hex.DecodeString(name)
	return len(name) == 2 && err == nil
}

// markUsed refreshes the modification time of an entry last marked before
// usedResolution.
func markUsed(path string, modified, now time.Time) {
	if now.Sub(modified) > usedResolution {
		_ = os.Chtimes(path, now, now)
	}
}

// Trim removes the files under the cache root unused for a month, unless
// that was done within the last day; most calls cost one small file read.
// A nil cache has nothing to trim.
func (c *Cache) Trim() {
	if c != nil {
		c.trim(time.Now())
	}
}

// trim is Trim at a given time. Errors only leave files behind, so they
// are dropped.
func (c *Cache) trim(now time.Time) {
	stamp := filepath.Join(c.root, trimStampFile)
	if data, err := os.ReadFile(stamp); err == nil {
		if last, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64); err == nil &&
			now.Sub(time.Unix(last, 0)) < trimInterval {
			return
		}
	}
	top, err := os.ReadDir(c.root)
	if err != nil {
		return
	}
	for _, d := range top {
		if !d.IsDir() || !sweptDir(d.Name()) {
			continue
		}
		_ = filepath.WalkDir(filepath.Join(c.root, d.Name()), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil // an unreadable directory is skipped, not fatal
			}
			if info, err := d.Info(); err == nil && info.Mode().IsRegular() && now.Sub(info.ModTime()) > maxUnused {
				_ = os.Remove(path)
			}
			return nil
		})
	}
	_ = atomicfile.WriteFile(stamp, []byte(strconv.FormatInt(now.Unix(), 10)+"\n"), entryPerm)
}
