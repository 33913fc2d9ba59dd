package etcd

import (
	"strings"
	"testing"

	"go.etcd.io/etcd/api/v3/etcdserverpb"
	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// diverged tells a read that follows from the documents the watch has seen
// from one made in another history: another cluster, a revision that went
// back, or a key whose value at a revision the watch covered is not the one
// seen. Changes past the watch's position are not divergence.
func TestDivergedReadsOfAnotherHistory(t *testing.T) {
	l := &watchLoop{
		seen:    map[string]entry{"/k/a": {data: []byte("a1"), modRev: 5}},
		next:    8, // revisions up to 7 covered
		cluster: 0xc1,
	}
	read := func(cluster uint64, rev int64, kvs ...*mvccpb.KeyValue) *clientv3.GetResponse {
		return &clientv3.GetResponse{Header: &etcdserverpb.ResponseHeader{ClusterId: cluster, Revision: rev}, Kvs: kvs}
	}
	kv := func(key, value string, modRev int64) *mvccpb.KeyValue {
		return &mvccpb.KeyValue{Key: []byte(key), Value: []byte(value), ModRevision: modRev}
	}
	for _, tc := range []struct {
		name string
		resp *clientv3.GetResponse
		want string // in the reason; "" for none
	}{
		{"same history", read(0xc1, 7, kv("/k/a", "a1", 5)), ""},
		{"changes yet to be delivered", read(0xc1, 12, kv("/k/a", "a2", 11), kv("/k/b", "b", 9)), ""},
		{"a key deleted after the watch's position", read(0xc1, 9), ""},
		{"another cluster", read(0xc2, 9, kv("/k/a", "a1", 5)), "cluster ID changed"},
		{"revision went back", read(0xc1, 2, kv("/k/a", "new", 2)), "revision went back from 7 to 2"},
		{"another value at a covered revision", read(0xc1, 7, kv("/k/a", "other", 5)), "key /k/a at revision 5"},
		{"a key the watch never saw", read(0xc1, 8, kv("/k/a", "a1", 5), kv("/k/c", "c", 6)), "key /k/c at revision 6"},
	} {
		got := l.diverged(tc.resp)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: diverged = %q, want %q", tc.name, got, tc.want)
		}
	}
}
