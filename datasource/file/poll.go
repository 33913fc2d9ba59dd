package file

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/rules"
)

// racyWindow is how recent a file's modification time must be for the file
// to be read again on every poll even though its stat has not changed: within
// it, a rewrite of the same size may keep the same mtime (coarse filesystem
// timestamps), as Git's "racily clean" index entries. It is also the slack
// given to a modification time before it counts as proof that a file has
// settled.
const racyWindow = 2 * time.Second

// rehashPeriod is how often the file is read and hashed even when nothing in
// its stat moved, to catch rewrites that restore the old mtime in place
// (cp -p, touch -r) at little cost.
const rehashPeriod = 5 * time.Second

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

// sameFile reports whether a and b are the same inode; true when the
// platform gives no inode (then no change looks like a rename).
func (a fileStamp) sameFile(b fileStamp) bool {
	return a.ino == 0 || (a.dev == b.dev && a.ino == b.ino)
}

// poller is a Source's memory between polls.
type poller struct {
	path     string
	interval time.Duration
	settle   time.Duration
	maxSize  int64

	// present is set when the last poll found a regular file; seen is its
	// stamp. A new inode right after a present file is a rename.
	present bool
	seen    fileStamp

	// The last read: its stamp, content hash and time, whether its mtime
	// was recent (racy), when that content was first read (since) and
	// whether it arrived by rename.
	readStamp fileStamp
	hash      [sha256.Size]byte
	readAt    time.Time
	racy      bool
	read      bool
	since     time.Time
	renamed   bool

	pushed     bool // something was pushed; pushedHash is its content's
	pushedHash [sha256.Size]byte
	failure    string // the problem last reported, "" when the file was good
}

func (p *poller) init(f *Source) {
	*p = poller{path: f.path, interval: f.cfg.pollInterval, settle: f.cfg.settle, maxSize: f.cfg.maxSize}
}

// poll looks at the file once at time now, pushes its content when it
// changed and has settled, and returns when to look again: the poll
// interval, or sooner when a change is due to settle before that.
func (p *poller) poll(now time.Time, push func([]rules.Document), report func(error)) time.Duration {
	info, err := os.Stat(p.path)
	if err != nil {
		p.present = false
		p.fail(report, "cannot stat the rules file", err)
		return p.interval
	}
	if !info.Mode().IsRegular() {
		p.present = false
		p.fail(report, "not a regular file", fmt.Errorf("mode %v", info.Mode()))
		return p.interval
	}
	stamp := stampOf(info)
	renamed := p.present && !p.seen.sameFile(stamp)
	p.present, p.seen = true, stamp

	idle := p.read && p.pushed && p.hash == p.pushedHash && p.failure == ""
	if idle && stamp == p.readStamp && !p.racy && now.Sub(p.readAt) < rehashPeriod {
		return p.interval // nothing moved, nothing waits
	}
	if info.Size() > p.maxSize {
		p.fail(report, fmt.Sprintf("file is %d bytes", info.Size()), p.overLimit())
		return p.interval
	}
	data, err := readAtMost(p.path, info.Size(), p.maxSize)
	if err != nil {
		p.fail(report, "cannot read the rules file", err)
		return p.interval
	}
	sum := sha256.Sum256(data)
	if !p.read || sum != p.hash || stamp != p.readStamp {
		p.since, p.renamed = now, renamed
	}
	p.read, p.readStamp, p.hash, p.readAt = true, stamp, sum, now
	// Measured against the read time, not the poll's: a write landing just
	// after the stat still counts as recent.
	p.racy = now.Sub(info.ModTime()) < racyWindow

	if p.pushed && p.failure == "" && sum == p.pushedHash {
		return p.interval // the content in force, perhaps rewritten or touched
	}
	if wait := p.unsettled(now, info.ModTime()); wait > 0 {
		return min(wait, p.interval)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		p.fail(report, "file is empty (a write in progress?)", errEmptyFile)
		return p.interval
	}
	p.pushed, p.pushedHash, p.failure = true, sum, ""
	push([]rules.Document{{Name: p.path, Data: data}})
	return p.interval
}

// unsettled returns how much longer the content last read must stay as it
// is before it is pushed; 0 when it has settled: it came by rename, has been
// seen unchanged for the settle interval, or its modification time is older
// than that by more than a coarse clock's slack.
func (p *poller) unsettled(now, mtime time.Time) time.Duration {
	if p.renamed || now.Sub(mtime) >= p.settle+racyWindow {
		return 0
	}
	return max(p.since.Add(p.settle).Sub(now), 0)
}

// errEmptyFile is the cause given for an empty rules file.
var errEmptyFile = errors.New("no rules document; write an empty one (a TOML comment, or [] in JSON) to remove all rules")

// errTooBig is the cause given for a file over the size limit.
var errTooBig = errors.New("over the size limit")

// overLimit is the error for a file over the size limit.
func (p *poller) overLimit() error {
	return fmt.Errorf("%w of %d bytes (raise it with file.WithMaxSize)", errTooBig, p.maxSize)
}

// readAtMost reads the file at path, refusing it when it holds more than max
// bytes: it may have grown since the stat said size. The buffer is sized
// from the stat, so a file is read with one allocation.
func readAtMost(path string, size, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// One byte beyond the expected size, so the read that finds the end
	// needs no room of its own.
	buf := make([]byte, 0, min(size, max)+1)
	for {
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > max {
			return nil, fmt.Errorf("grew past %d bytes while read: %w (raise it with file.WithMaxSize)", max, errTooBig)
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
	}
}

// fail reports a problem with the file, once per distinct problem.
func (p *poller) fail(report func(error), what string, err error) {
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		err = pathErr.Err // the path is in the message already
	}
	gone := errors.Is(err, fs.ErrNotExist)
	if gone {
		what = "file is gone"
	}
	msg := what + ": " + err.Error()
	if p.failure == msg {
		return
	}
	p.failure = msg
	if gone {
		// One meaning for a gone document across sources: see
		// datasource.ErrGone and datasource.WithGoneMeansEmpty.
		report(fmt.Errorf("%s: %s: %w; %w", p.path, what, err, datasource.ErrGone))
		return
	}
	report(fmt.Errorf("%s: %s: %w", p.path, what, err))
}
