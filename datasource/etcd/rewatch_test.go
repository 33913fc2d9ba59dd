package etcd

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/sentinelgen/sentinelgen/datasource/etcd/internal/etcdtest"
	st "github.com/sentinelgen/sentinelgen/datasource/internal/sourcetest"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// losingWatcher wraps the client's Watcher: it records the start revision of
// every watch and ends the first one right after its first batch of events,
// as etcd does when a member loses its leader.
type losingWatcher struct {
	clientv3.Watcher
	mu   sync.Mutex
	revs []int64
}

func (l *losingWatcher) Watch(ctx context.Context, key string, opts ...clientv3.OpOption) clientv3.WatchChan {
	l.mu.Lock()
	l.revs = append(l.revs, clientv3.OpGet(key, opts...).Rev())
	first := len(l.revs) == 1
	l.mu.Unlock()
	if !first {
		return l.Watcher.Watch(ctx, key, opts...)
	}
	ctx, cancel := context.WithCancel(ctx)
	in := l.Watcher.Watch(ctx, key, opts...)
	out := make(chan clientv3.WatchResponse)
	go func() {
		defer close(out)
		defer cancel()
		for resp := range in {
			select {
			case out <- resp:
			case <-ctx.Done():
				return
			}
			if len(resp.Events) > 0 {
				return
			}
		}
	}()
	return out
}

func (l *losingWatcher) startRevisions() []int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.revs)
}

func TestLostWatchResumesFromTheNextRevision(t *testing.T) {
	srv, admin := server(t)
	initial := put(t, admin, ordersKey, flowDoc(10))
	cli := etcdtest.NewClient(t, srv.Endpoint())
	lw := &losingWatcher{Watcher: cli.Watcher}
	cli.Watcher = lw
	w, applied := watch(t, newTestSource(t, cli, "/sentinel/orders/", WithPrefix()))
	applied.waitCount(t, 1)

	// This update is the last the first watch delivers before it ends.
	last := put(t, admin, ordersKey, flowDoc(20))
	applied.waitCount(t, 2)
	waitUntil(t, "the watch is opened again", func() bool { return len(lw.startRevisions()) == 2 })
	put(t, admin, ordersKey, flowDoc(30))
	applied.waitCount(t, 3)

	if got, want := lw.startRevisions(), []int64{initial + 1, last + 1}; !slices.Equal(got, want) {
		t.Errorf("watches started at revisions %v, want %v (after the read, then after the last event)", got, want)
	}
	sets, _ := applied.snapshot()
	var got [][]float64
	for _, s := range sets {
		got = append(got, st.FlowCounts(s))
	}
	if want := [][]float64{{10}, {20}, {30}}; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("applied %v, want %v", got, want)
	}
	settled(t, w, 3)
	if n := w.Rejected(); n != 1 {
		t.Errorf("Rejected() = %d, want 1 (the lost watch reported once)", n)
	}
	if err := w.LastError(); err != nil {
		t.Errorf("LastError() = %v after the watch resumed, want nil", err)
	}
}
