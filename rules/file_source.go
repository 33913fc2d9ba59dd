package rules

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/sentinelgen/sentinelgen/internal/atomicfile"
)

// DefaultPollInterval is how often a FileWatchSource looks at its file: a
// change is seen within this time (plus the read and apply, well under a
// millisecond for a rules file), far below a person's edit-save-look cycle.
const DefaultPollInterval = 250 * time.Millisecond

// racyWindow is how recent a file's modification time must be for the file
// to be read again on every poll even though its stat has not changed: within
// it, a rewrite of the same size may keep the same mtime (coarse filesystem
// timestamps), as Git's "racily clean" index entries.
const racyWindow = 2 * time.Second

// rehashPeriod is how often the file is read and hashed even when nothing in
// its stat moved, to catch rewrites that restore the old mtime in place
// (cp -p, touch -r) at little cost.
const rehashPeriod = 5 * time.Second

// FileWatchSource is a Source reading one rule file and a WritableSource
// writing it back. Create it with FileSource.
//
// It polls: every interval it stats the path, following symlinks, and reads
// and hashes the file when size, modification time, inode or device moved,
// while the file was changed in the last 2 s, and every 5 s regardless. It
// pushes only when the content's SHA-256 differs from the last push. This
// sees in-place writes, editors' write-and-rename, delete-and-recreate and
// Kubernetes ConfigMap updates (a symlink swap of the "..data" directory)
// without a dependency on a notification library.
//
// A missing, unreadable or empty file is reported with ReportError and not
// pushed: the last good rules stay in force. An empty file is what a reader
// sees between an editor's truncate and write; to remove every rule write a
// document with none (a TOML comment, or [] in JSON). When the file is good
// again it is pushed even if its content is what was pushed before, so the
// Watcher's LastError clears.
type FileWatchSource struct {
	path     string
	abs      string // absolute path, the identity Persist matches
	interval time.Duration
}

// FileSource returns a source for the rule file at path, TOML or Sentinel
// JSON by extension, then by content (see Document).
func FileSource(path string, opts ...FileOption) *FileWatchSource {
	var cfg fileConfig
	for _, o := range opts {
		o.applyFile(&cfg)
	}
	if cfg.pollInterval <= 0 {
		cfg.pollInterval = DefaultPollInterval
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = filepath.Clean(path)
	}
	return &FileWatchSource{path: path, abs: abs, interval: cfg.pollInterval}
}

// Path returns the file's path as given to FileSource.
func (f *FileWatchSource) Path() string { return f.path }

// String returns the path; Watch names the source by it in logs.
func (f *FileWatchSource) String() string { return f.path }

// Identity implements Identified: "file:" and the absolute path.
func (f *FileWatchSource) Identity() string { return "file:" + f.abs }

// fileStamp is what a stat tells about a file's content without reading it.
type fileStamp struct {
	size     int64
	mtime    int64 // UnixNano
	dev, ino uint64
}

func stampOf(info fs.FileInfo) fileStamp {
	dev, ino := fileIdentity(info)
	return fileStamp{size: info.Size(), mtime: info.ModTime().UnixNano(), dev: dev, ino: ino}
}

// pollState is a FileWatchSource's memory between polls.
type pollState struct {
	stamp   fileStamp
	racy    bool      // the last read saw an mtime within racyWindow
	readAt  time.Time // when the file was last read
	hash    [sha256.Size]byte
	pushed  bool   // something was pushed; hash is its content's
	failure string // the problem last reported, "" when the file was good
}

// Watch pushes the file now and after every change of its content, until ctx
// ends; it returns nil then. Problems with the file are reported, never
// returned: the file may come back.
func (f *FileWatchSource) Watch(ctx context.Context, push func([]Document)) error {
	var st pollState
	f.poll(ctx, &st, push)
	ticker := time.NewTicker(f.interval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-ticker.C:
			f.poll(ctx, &st, push)
		}
	}
}

// poll looks at the file once and pushes it when its content changed.
func (f *FileWatchSource) poll(ctx context.Context, st *pollState, push func([]Document)) {
	info, err := os.Stat(f.path)
	if err != nil {
		f.fail(ctx, st, "cannot stat the rules file", err)
		return
	}
	if !info.Mode().IsRegular() {
		f.fail(ctx, st, "not a regular file", fmt.Errorf("mode %v", info.Mode()))
		return
	}
	stamp := stampOf(info)
	now := time.Now()
	unchanged := st.pushed && st.failure == "" && stamp == st.stamp && !st.racy &&
		now.Sub(st.readAt) < rehashPeriod
	if unchanged {
		return
	}
	data, err := os.ReadFile(f.path)
	if err != nil {
		f.fail(ctx, st, "cannot read the rules file", err)
		return
	}
	st.stamp, st.readAt = stamp, now
	// Measured against the read time, not the poll's: a write landing just
	// after the stat still counts as recent.
	st.racy = now.Sub(info.ModTime()) < racyWindow
	sum := sha256.Sum256(data)
	if st.pushed && st.failure == "" && sum == st.hash {
		return
	}
	if len(bytes.TrimSpace(data)) == 0 {
		f.fail(ctx, st, "file is empty (a write in progress?)", errEmptyFile)
		return
	}
	st.hash, st.pushed, st.failure = sum, true, ""
	push([]Document{{Name: f.path, Data: data}})
}

// errEmptyFile is the cause given for an empty rules file.
var errEmptyFile = errors.New("no rules document; write an empty one (a TOML comment, or [] in JSON) to remove all rules")

// fail reports a problem with the file, once per distinct problem.
func (f *FileWatchSource) fail(ctx context.Context, st *pollState, what string, err error) {
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		err = pathErr.Err // the path is in the message already
	}
	if errors.Is(err, fs.ErrNotExist) {
		what = "file is gone"
	}
	msg := what + ": " + err.Error()
	if st.failure == msg {
		return
	}
	st.failure = msg
	ReportError(ctx, fmt.Errorf("%s: %s: %w", f.path, what, err))
}

// Write replaces the file's rules with s, atomically: it encodes s in the
// file's own format (by extension, else by its current content, else TOML),
// checks that the bytes read back as s, writes them to a temporary file in
// the same directory, syncs it, gives it the old file's permissions and
// renames it over the file, so a reader sees the old rules or the new ones,
// never a partial file. A symlink is followed and its target replaced. When
// the file already holds s (compared as rules, not bytes) nothing is
// written, which keeps a person's formatting and comments and stops a
// Watcher from reading back its own write as a change.
func (f *FileWatchSource) Write(ctx context.Context, s Set) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	target := f.path
	if resolved, err := filepath.EvalSymlinks(f.path); err == nil {
		target = resolved
	}
	old, readErr := os.ReadFile(target)
	if readErr == nil {
		if cur, err := Parse(Document{Name: f.path, Data: old}); err == nil && cur.Equal(s) {
			return nil
		}
	}
	data, err := f.encode(s, old)
	if err != nil {
		return err
	}
	mode := fs.FileMode(0o644)
	if info, err := os.Stat(target); err == nil {
		mode = info.Mode().Perm()
	}
	return atomicfile.WriteFile(target, data, mode)
}

// encode renders s as the file should hold it and checks the round trip, so
// a set the file's format cannot carry (e.g. degrade rules in a JSON file
// whose name says "flow") is an error instead of a wrong file.
func (f *FileWatchSource) encode(s Set, old []byte) ([]byte, error) {
	format := inferFormat(Document{Name: f.path, Data: old})
	data, err := Encode(s, format)
	if err != nil {
		return nil, fmt.Errorf("%s: encoding rules: %w", f.path, err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		// An empty file reads as a write in progress; say "no rules" instead.
		if format == FormatJSON {
			data = []byte("[]\n")
		} else {
			data = []byte("# no rules\n")
		}
	}
	back, err := Parse(Document{Name: f.path, Data: data})
	if err != nil {
		return nil, fmt.Errorf("%s: encoded rules do not read back: %w", f.path, err)
	}
	if !back.Equal(s) {
		return nil, fmt.Errorf("%s: encoded rules read back differently (does the file name's kind match the rules?)", f.path)
	}
	return data, nil
}
