package nacosrules

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/sentinelgen/sentinelgen/internal/nacosapi"
	"github.com/sentinelgen/sentinelgen/rules"
)

// ErrConflict is returned (wrapped) by Write when a dataId kept changing
// under it: every compare-and-swap, the first and Config.ConflictRetries
// more on the content read afresh, found another writer's content there.
var ErrConflict = errors.New("rules in Nacos changed since they were last read")

// Write implements datasource.WritableSource: it publishes the rules of
// each kind of set, in Sentinel's JSON, to that kind's dataId, for the kinds
// whose rules differ from the content last read or written; the others are
// not touched, so another writer's change to them survives.
//
// Each publish is a compare-and-swap on the MD5 of the content last seen (a
// dataId seen missing is created only if still missing). When another
// writer got there first, Write reads the fresh content and, unless it
// already holds set's rules, publishes again on it, up to
// Config.ConflictRetries times, then fails with ErrConflict. A kind with no
// rules is written as "[]" (Nacos keeps no empty content), and not at all
// when its dataId does not exist. Nacos has no transaction over several
// dataIds: a failure may leave the kinds before it written; the error names
// the dataId.
func (s *Source) Write(ctx context.Context, set rules.Set) error {
	s.writing.Add(1)
	defer s.writing.Add(-1)
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	for _, k := range s.kinds {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := s.writeKind(ctx, k, set.Only(k.kind)); err != nil {
			return err
		}
	}
	return nil
}

// writeKind publishes part to k's dataId unless the content last seen holds
// the same rules.
func (s *Source) writeKind(ctx context.Context, k kindID, part rules.Set) error {
	base, ok := s.baseOf(k.dataID)
	if !ok {
		c, err := s.read(ctx, k)
		if err != nil {
			return err
		}
		base = c
	}
	want := "[]"
	if !part.IsEmpty() {
		data, err := rules.Encode(part, rules.FormatJSON)
		if err != nil {
			return s.errorf("encoding %s rules for dataId %s: %w", k.kind, k.dataID, err)
		}
		want = string(data)
	}
	for attempt := 0; ; attempt++ {
		if s.holds(k, base, part) {
			s.setBase(k.dataID, base)
			return nil
		}
		if base == "" && part.IsEmpty() {
			return nil // nothing there, nothing to write
		}
		err := s.cfg.Client.Publish(ctx, k.dataID, s.cfg.Group, s.cfg.Namespace, want, "json", nacosapi.MD5(base))
		if err == nil {
			s.mu.Lock()
			s.base[k.dataID] = want
			s.written[k.dataID] = publish{content: want, at: time.Now()}
			s.mu.Unlock()
			return nil
		}
		if !errors.Is(err, nacosapi.ErrConflict) {
			return s.errorf("%w", err)
		}
		fresh, rerr := s.readChanged(ctx, k, base)
		if rerr != nil {
			return s.errorf("%v; then %w", err, rerr)
		}
		if attempt >= s.cfg.ConflictRetries {
			return s.errorf("dataId %s: %w; nothing written to it", k.dataID, ErrConflict)
		}
		s.cfg.Logger.Warn("nacos write conflict: the dataId changed since it was read; writing again on the fresh content",
			"source", s.String(), "dataId", k.dataID)
		base = fresh
	}
}

// readChanged reads a dataId that a refused compare-and-swap says is no
// longer base. Nacos serves reads from a cache that follows its database
// a moment behind, so a read may still answer base: it is read again until
// it does not, within staleReads.
func (s *Source) readChanged(ctx context.Context, k kindID, base string) (string, error) {
	deadline := time.Now().Add(staleReads)
	for {
		fresh, err := s.read(ctx, k)
		if err != nil || fresh != base || time.Now().After(deadline) {
			return fresh, err
		}
		sleep(ctx, settle)
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
	}
}

// staleReads bounds how long Nacos's reads may lag behind its writes, and
// how long a read that may be older than the rules in force is made again.
const staleReads = 2 * time.Second

// read fetches a dataId's content, "" when it is missing.
func (s *Source) read(ctx context.Context, k kindID) (string, error) {
	c, _, err := s.cfg.Client.Get(ctx, k.dataID, s.cfg.Group, s.cfg.Namespace)
	if errors.Is(err, nacosapi.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", s.errorf("%w", err)
	}
	return c, nil
}

// holds reports whether content already holds exactly the rules of part.
func (s *Source) holds(k kindID, content string, part rules.Set) bool {
	if strings.TrimSpace(content) == "" {
		return part.IsEmpty()
	}
	cur, err := rules.Parse(s.document(k, content))
	return err == nil && cur.Equal(part)
}
