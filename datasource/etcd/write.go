package etcd

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/sentinelgen/sentinelgen/rules"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// ErrConflict is returned (wrapped, test with errors.Is) by Write when a key
// it would write changed in etcd after the source last read it: someone else
// wrote rules in between. Nothing was written. The caller lets the watch
// deliver the newer rules, then decides again and retries if it still wants
// its change.
var ErrConflict = errors.New("rules in etcd changed since they were last read")

// Write implements datasource.WritableSource: it stores s in etcd, in one
// transaction that commits only if every key it writes still has the mod
// revision the source last saw (compare-and-swap), else it returns
// ErrConflict and writes nothing.
//
// A single key receives the whole set, in the key's format. Under a prefix
// each rule kind goes to the key that holds it: the key whose name says the
// kind ("flow.json", "orders-degrade.toml", "param-flow.json", "system",
// "authority"), else the one key whose rules are of that kind, else the one
// key whose name says no kind (a "rules.toml" holding several); when there
// is none Write creates prefix + the kind's name + ".json" ("flow.json",
// "param-flow.json", ...; ".toml" with WithFormat(rules.FormatTOML)), as
// Java services keep one kind per key. Keys whose rules
// are already equal to s's are left alone, and a Write that changes nothing
// sends nothing.
//
// Write compares against the documents the source's Watch last pushed (the
// ones the rules in force came from) and its own writes since; before any
// push it reads the keys first. Without a deadline in ctx it gives up after
// the request timeout (WithRequestTimeout) while etcd does not answer.
func (s *Source) Write(ctx context.Context, set rules.Set) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if _, ok := ctx.Deadline(); !ok {
		// The client waits for etcd to come back; a caller without a
		// deadline (datasource.Persist) must not hang on an outage.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.cfg.requestTimeout)
		defer cancel()
	}
	view, err := s.writeView(ctx)
	if err != nil {
		return err
	}
	plan, err := s.planWrite(view, set)
	if err != nil {
		return err
	}
	var (
		cmps    []clientv3.Cmp
		ops     []clientv3.Op
		written = map[string]entry{}
	)
	for _, w := range plan {
		cmps = append(cmps, clientv3.Compare(clientv3.ModRevision(w.key), "=", view[w.key].modRev))
		if w.data != nil {
			ops = append(ops, clientv3.OpPut(w.key, string(w.data)))
			written[w.key] = entry{data: w.data}
		}
	}
	if len(ops) == 0 {
		return nil
	}
	resp, err := s.client.Txn(ctx).If(cmps...).Then(ops...).Commit()
	if err != nil {
		return fmt.Errorf("%v: writing rules: %w", s, err)
	}
	if !resp.Succeeded {
		return fmt.Errorf("%v: %w (keys %s); nothing written", s, ErrConflict, strings.Join(planKeys(plan), ", "))
	}
	s.mu.Lock()
	if s.written == nil {
		s.written = map[string]entry{}
	}
	for key, e := range written {
		e.modRev = resp.Header.Revision // every put of a transaction has its revision
		if e.modRev > s.baseRev {       // else the watch has pushed it already
			s.written[key] = e
		}
	}
	s.mu.Unlock()
	return nil
}

// writeView returns the keys as Write must assume them: the documents last
// pushed, updated by Writes made since. Before any push it reads etcd now.
func (s *Source) writeView(ctx context.Context) (map[string]entry, error) {
	s.mu.Lock()
	if s.hasBase {
		view := maps.Clone(s.base)
		for key, w := range s.written {
			// The watch may have pushed a newer change since the write.
			if w.modRev > view[key].modRev {
				view[key] = w
			}
		}
		s.mu.Unlock()
		return view, nil
	}
	s.mu.Unlock()
	resp, err := s.client.Get(ctx, s.key, s.keyOptions()...)
	if err != nil {
		return nil, fmt.Errorf("%v: reading before a write: %w", s, err)
	}
	return snapshotOf(resp.Kvs), nil
}

// keyWrite is one key of a write: the compare always, the put when data is
// not nil (nil: the key already holds these rules).
type keyWrite struct {
	key  string
	data []byte
}

func planKeys(plan []keyWrite) []string {
	keys := make([]string, len(plan))
	for i, w := range plan {
		keys[i] = w.key
	}
	return keys
}
