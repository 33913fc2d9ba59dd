package datasource

import (
	"context"
	"fmt"

	"github.com/sentinelgen/sentinelgen/rules"
)

// Source delivers rule documents; it is the shape of Sentinel's
// ReadableDataSource. Watch sends the current documents at once, then again
// after every change, until ctx ends or an unrecoverable error. A source with
// several documents (a directory, an etcd prefix) sends all of them each
// time: the set is their merge (rules.ParseDocuments).
//
// An adapter for a configuration store must:
//   - push the full current set of documents every time, never a partial
//     one or only the document that changed: what is pushed replaces the
//     rules in force of every kind the watcher owns (see Watcher.Kinds), so
//     a missing document means "no rules from it";
//   - push an empty list only when the store really holds no documents, never
//     as a stand-in for "could not read" (that would lift every rule); when
//     documents it pushed are all gone (deleted), report an error wrapping
//     ErrGone instead, so the Watcher gives it one meaning for every source
//     (keep the last good rules, or WithGoneMeansEmpty);
//   - push a document only once it is complete: a file being written, a
//     value being uploaded in parts, is not pushed until it is whole;
//   - report a problem that is not a document (connection lost, key gone,
//     file unreadable) with ReportError and keep watching, so the last good
//     rules stay in force and the Watcher shows why nothing changes;
//   - call push from one goroutine at a time and return nil when ctx ends;
//     return an error only when it cannot go on.
//
// A Source may implement fmt.Stringer; Watch uses String to name it in logs
// and errors.
type Source interface {
	Watch(ctx context.Context, push func([]rules.Document)) error
}

// WritableSource persists a set back where it was read (Sentinel's
// WritableDataSource), so rules changed through an API survive a restart.
// Write must replace the stored set whole and atomically: a reader must see
// the old set or the new one, never a mix or an empty store.
type WritableSource interface {
	Write(ctx context.Context, s rules.Set) error
}

// reporterKey is the context key under which Watch hands a Source its
// ReportError callback.
type reporterKey struct{}

// ReportError tells the Watch that gave ctx to a Source about a problem that
// is not a rule document: the file is gone or unreadable, the store is
// unreachable. The last good rules stay in force; the Watcher logs err,
// counts it as a rejected update and returns it from LastError until the next
// good push. Outside a Watch (ctx without a watcher) it does nothing, so a
// Source may call it unconditionally.
func ReportError(ctx context.Context, err error) {
	if report, ok := ctx.Value(reporterKey{}).(func(error)); ok && err != nil {
		report(err)
	}
}

// withReporter returns ctx carrying report for ReportError.
func withReporter(ctx context.Context, report func(error)) context.Context {
	return context.WithValue(ctx, reporterKey{}, report)
}

// sourceName is how logs and errors name src: its String method when it has
// one, else its type.
func sourceName(src any) string {
	if s, ok := src.(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprintf("%T", src)
}
