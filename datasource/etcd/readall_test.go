package etcd

import (
	"context"
	"testing"

	"github.com/sentinelgen/sentinelgen/rules"
)

func TestFullReadPushesOnlyWhenSomethingChanged(t *testing.T) {
	_, cli := server(t)
	put(t, cli, "/sentinel/orders/a.toml", flowDoc(1))
	src := newTestSource(t, cli, "/sentinel/orders/", WithPrefix())
	var pushes [][]rules.Document
	l := &watchLoop{src: src, push: func(d []rules.Document) { pushes = append(pushes, d) }, bo: backoff{min: 1, max: 1}}
	ctx := context.Background()

	mustRead := func() {
		t.Helper()
		if err := l.readAll(ctx); err != nil {
			t.Fatal(err)
		}
	}
	mustRead()
	put(t, cli, "/sentinel/other", "x") // moves the revision, not the documents
	mustRead()
	if len(pushes) != 1 {
		t.Fatalf("%d pushes after two reads of unchanged documents, want 1", len(pushes))
	}

	put(t, cli, "/sentinel/orders/a.toml", flowDoc(1)) // same bytes, new revision: a real write
	mustRead()
	put(t, cli, "/sentinel/orders/b.toml", flowDoc(2))
	mustRead()
	if len(pushes) != 3 {
		t.Fatalf("%d pushes, want 3 (one per changed read)", len(pushes))
	}
	if got := len(pushes[2]); got != 2 {
		t.Errorf("last push has %d documents, want both keys", got)
	}
	if l.next != mustRev(t, src)+1 {
		t.Errorf("next revision %d after the read, want the store's revision + 1", l.next)
	}
}

// mustRev is the store's current revision.
func mustRev(t *testing.T, src *Source) int64 {
	t.Helper()
	resp, err := src.client.Get(context.Background(), "/")
	if err != nil {
		t.Fatal(err)
	}
	return resp.Header.Revision
}
