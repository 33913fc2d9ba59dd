package gen

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sentinelgen/sentinelgen/internal/atomicfile"
)

// The cache's housekeeping, after the go command's build cache: an entry's
// modification time says when it was last used (refreshed at most once per
// usedResolution, so that a hit rarely costs a write), and entries unused
// for maxUnused are removed by a sweep that runs at most once per
// trimInterval. Entries are tiny, but every new sentinelgen binary starts a
// new set of them.
const (
	usedResolution = 24 * time.Hour
	maxUnused      = 30 * 24 * time.Hour
	trimInterval   = 24 * time.Hour
	trimStampFile  = "trim.txt" // the Unix time of the last sweep
)

// markUsed refreshes the modification time of an entry last marked before
// usedResolution.
func (c *Cache) markUsed(path string, modified, now time.Time) {
	if now.Sub(modified) > usedResolution {
		_ = os.Chtimes(path, now, now)
	}
}

// Trim removes the entries unused for a month, unless that was done within
// the last day; most calls cost one small file read. The command calls it
// after Sync. A nil cache has nothing to trim.
func (c *Cache) Trim() {
	if c != nil {
		c.trim(time.Now())
	}
}

// trim is Trim at a given time. Errors only leave entries behind, so they
// are dropped.
func (c *Cache) trim(now time.Time) {
	stamp := filepath.Join(c.dir, trimStampFile)
	if data, err := os.ReadFile(stamp); err == nil {
		if last, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64); err == nil &&
			now.Sub(time.Unix(last, 0)) < trimInterval {
			return
		}
	}
	subdirs, err := os.ReadDir(c.dir)
	if err != nil {
		return
	}
	for _, sub := range subdirs {
		// Only the two-hex-digit directories that store creates.
		if !sub.IsDir() || len(sub.Name()) != 2 {
			continue
		}
		dir := filepath.Join(c.dir, sub.Name())
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			info, err := e.Info()
			if err == nil && info.Mode().IsRegular() && now.Sub(info.ModTime()) > maxUnused {
				_ = os.Remove(filepath.Join(dir, e.Name()))
			}
		}
	}
	_ = atomicfile.WriteFile(stamp, []byte(strconv.FormatInt(now.Unix(), 10)+"\n"), generatedFilePerm)
}
