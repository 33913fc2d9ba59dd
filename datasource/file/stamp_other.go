//go:build !unix

package file

import "io/fs"

// fileIdentity has no portable inode to offer here; size, mtime and the
// content hash still catch every change (see Source).
func fileIdentity(fs.FileInfo) (dev, ino uint64) { return 0, 0 }
