package etcd

import (
	"cmp"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/sentinelgen/sentinelgen/rules"
	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// Source reads rule documents from etcd and writes rule sets back. It
// implements datasource.Source and datasource.WritableSource. A Source runs
// one Watch at a time; Write may be called while it runs.
type Source struct {
	client *clientv3.Client
	key    string
	cfg    config

	watching atomic.Bool
	// writeMu orders Writes, so each one builds on the one before.
	writeMu sync.Mutex

	// mu guards base, baseRev, hasBase and written.
	mu sync.Mutex
	// base holds the documents the watch last pushed, as of revision
	// baseRev: the value and mod revision of every key. It is what the
	// rules in force were read from, so it is what Write's compare-and-swap
	// checks etcd against (not a newer read still being pushed, which a
	// write-back of the older rules in force would otherwise undo).
	base    map[string]entry
	baseRev int64
	hasBase bool
	// written holds what Write committed after baseRev, so two Writes in a
	// row compare against the newer revision.
	written map[string]entry

	// resyncs counts full re-reads after a compacted revision; tests read it.
	resyncs atomic.Uint64
}

// entry is one key's value as of its mod revision.
type entry struct {
	data   []byte
	modRev int64
}

// NewSource returns a source for key (with WithPrefix, for every key under
// it) read and written through client. The client belongs to the caller,
// who closes it after the watch has stopped.
func NewSource(client *clientv3.Client, key string, opts ...Option) *Source {
	return &Source{client: client, key: key, cfg: newConfig(opts)}
}

// String names the source in logs and errors: "etcd:/sentinel/orders/rules.toml"
// for a key, "etcd:/sentinel/orders/*" for a prefix.
func (s *Source) String() string {
	if s.cfg.prefix {
		return docName(s.key) + "*"
	}
	return docName(s.key)
}

// docName is the Document name of a key: positions in errors then read
// "etcd:/sentinel/orders/flow.json: [0].count".
func docName(key string) string { return "etcd:" + key }

// documents returns the documents of snapshot in key order, the order their
// rules are merged in.
func (s *Source) documents(snapshot map[string]entry) []rules.Document {
	docs := make([]rules.Document, 0, len(snapshot))
	for key, e := range snapshot {
		docs = append(docs, s.document(key, e.data))
	}
	slices.SortFunc(docs, func(a, b rules.Document) int { return cmp.Compare(a.Name, b.Name) })
	return docs
}

// snapshotOf turns a Get response into key → entry.
func snapshotOf(kvs []*mvccpb.KeyValue) map[string]entry {
	m := make(map[string]entry, len(kvs))
	for _, kv := range kvs {
		m[string(kv.Key)] = entry{data: kv.Value, modRev: kv.ModRevision}
	}
	return m
}

// sameRevisions reports whether a and b hold the same keys at the same mod
// revisions: then they hold the same values, and nothing needs pushing.
func sameRevisions(a, b map[string]entry) bool {
	if len(a) != len(b) {
		return false
	}
	for k, ea := range a {
		if eb, ok := b[k]; !ok || eb.modRev != ea.modRev {
			return false
		}
	}
	return true
}

// keyOptions are the options that select the source's keys in a Get or Watch.
func (s *Source) keyOptions() []clientv3.OpOption {
	if s.cfg.prefix {
		return []clientv3.OpOption{clientv3.WithPrefix()}
	}
	return nil
}
