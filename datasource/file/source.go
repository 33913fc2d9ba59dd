// Package file is a rules source reading one rule file (TOML or Sentinel
// JSON, see package rules) and writing rule changes back to it: Sentinel's
// FileRefreshableDataSource and FileWritableDataSource.
//
//	w, err := file.Watch(ctx, "rules.toml") // fails if the file is bad at start
//	...
//	stop, err := w.Persist() // optional: API changes go back to the file
//
// The source never puts a half-written file in force. A file replaced by
// rename (write a temporary file beside it, then rename it over the rules
// file: what editors, Kubernetes ConfigMaps and the source's own Write do)
// is read at once. A file changed in place is read only once it has stayed
// unchanged for the settle interval (WithSettle, 2 s by default). A file
// bigger than WithMaxSize (1 MiB) is refused without reading it.
package file

import (
	"context"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/rules"
)

// Source is a datasource.Source reading one rule file and a
// datasource.WritableSource writing it back. Create it with New.
//
// It polls: every interval it stats the path, following symlinks, and reads
// and hashes the file when size, modification time, inode or device moved,
// while the file was changed in the last 2 s, while a change waits to
// settle, and every 5 s regardless. It pushes only when the content's
// SHA-256 differs from the last push. This sees in-place writes, editors'
// write-and-rename, delete-and-recreate and Kubernetes ConfigMap updates (a
// symlink swap of the "..data" directory) without a dependency on a
// notification library.
//
// New content is pushed when it has settled: at once when the file was
// replaced by rename (the path names another inode than at the previous
// poll, with no poll in between finding it missing), else once the same
// content has been seen for the settle interval, or its modification time is
// older than the settle interval by more than coarse file system clocks can
// be off (2 s). A file that keeps changing is not pushed at all.
//
// A missing, unreadable, oversized or (once settled) empty file is reported
// with datasource.ReportError and not pushed: the last good rules stay in
// force. A missing file is reported as gone (datasource.ErrGone), so
// datasource.WithGoneMeansEmpty makes its deletion lift the file's rules. An empty file is what a reader sees between a truncate and a write;
// to remove every rule write a document with none (a TOML comment, or [] in
// JSON). When the file is good again it is pushed even if its content is
// what was pushed before, so the Watcher's LastError clears.
type Source struct {
	path string
	cfg  config
}

// New returns a source for the rule file at path, TOML or Sentinel JSON by
// extension, then by content (see rules.Document).
func New(path string, opts ...Option) *Source {
	return &Source{path: path, cfg: newConfig(opts)}
}

// Watch is datasource.Watch(ctx, New(path), opts...): it applies the file
// now, then every change to it, with the default poll and settle intervals
// and size limit (for others, call datasource.Watch with New(path, ...)). A
// missing, empty or invalid file at start is an error.
func Watch(ctx context.Context, path string, opts ...datasource.WatchOption) (*datasource.Watcher, error) {
	return datasource.Watch(ctx, New(path), opts...)
}

// Path returns the file's path as given to New.
func (f *Source) Path() string { return f.path }

// String returns the path; Watch names the source by it in logs.
func (f *Source) String() string { return f.path }

// Watch implements datasource.Source: it pushes the file now and after every
// settled change of its content, until ctx ends; it returns nil then.
// Problems with the file are reported, never returned: the file may come
// back.
func (f *Source) Watch(ctx context.Context, push func([]rules.Document)) error {
	f.watch(ctx, push, func(err error) { datasource.ReportError(ctx, err) })
	return nil
}

// watch polls until ctx ends, pushing and reporting through the callbacks.
func (f *Source) watch(ctx context.Context, push func([]rules.Document), report func(error)) {
	var p poller
	p.init(f)
	t := time.NewTimer(p.poll(time.Now(), push, report))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			t.Reset(p.poll(time.Now(), push, report))
		}
	}
}
