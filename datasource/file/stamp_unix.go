//go:build unix

package file

import (
	"io/fs"
	"syscall"
)

// fileIdentity returns the device and inode of the file info describes, so a
// file replaced by rename (same size and mtime) still looks changed.
func fileIdentity(info fs.FileInfo) (dev, ino uint64) {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev), uint64(st.Ino)
	}
	return 0, 0
}
