package etcd

import (
	"context"
	"fmt"

	"github.com/sentinelgen/sentinelgen/datasource"
)

// pushOrGone pushes the seen documents, unless there are none where the last
// push had some: the key was deleted, or every key under the prefix. That is
// a gone document, reported with datasource.ErrGone so the Watcher gives it
// the meaning every source's gone document has (keep the last good rules,
// or datasource.WithGoneMeansEmpty). An empty key or prefix when the watch
// starts is pushed as an empty set: the store holds no rules yet.
func (l *watchLoop) pushOrGone(ctx context.Context) {
	s := l.src
	if len(l.seen) == 0 && l.had {
		what := "key deleted"
		if s.cfg.prefix {
			what = "no key left under the prefix"
		}
		s.cfg.logger.Warn("etcd rules document gone", "source", s.String(), "revision", l.next-1)
		datasource.ReportError(ctx, fmt.Errorf("%v: %s at revision %d: %w", s, what, l.next-1, datasource.ErrGone))
		return
	}
	l.had = len(l.seen) > 0
	l.push(s.documents(l.seen))
}
