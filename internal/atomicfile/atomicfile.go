// Package atomicfile replaces files so that a reader sees the old content or
// the new, never a half-written file, even across a crash.
package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile replaces the file at path by data with permissions perm.
//
// The data goes to a temporary file in path's directory (so the final rename
// stays on one file system and is atomic), which is given perm, synced,
// closed and renamed over path; the directory is then synced so the rename
// itself survives a crash. On error the temporary file is removed and path
// is left as it was. The temporary name starts with "." and the base name of
// path, and ends in ".tmp".
func WriteFile(path string, data []byte, perm fs.FileMode) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	// CreateTemp makes the file 0600 whatever the umask; Chmod gives it the
	// permissions the caller asked for before anyone can see it under path.
	if err = tmp.Chmod(perm); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	syncDir(dir)
	return nil
}

// syncDir flushes dir's entries, making a rename inside it durable. It is
// best effort: some systems and file systems cannot open or sync a
// directory, and the data itself is already safe by then.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	d.Close()
}
