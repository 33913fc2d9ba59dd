package zookeeper

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/go-zookeeper/zk"
	"github.com/sentinelgen/sentinelgen/rules"
)

// ErrConflict is returned (wrapped, test with errors.Is) by Write when a
// node it would write kept changing in ZooKeeper under it: every versioned
// set, the first one and Config.ConflictRetries more on the content read
// afresh, found another writer's version there. That node was not written.
var ErrConflict = errors.New("rules in ZooKeeper changed since they were last read")

// Write implements datasource.WritableSource: it sets the rules of each kind
// of set on that kind's node in Sentinel's JSON, but only for the kinds
// whose rules differ from the content the source last read or wrote; the
// others are not touched, so another writer's change to them survives.
//
// Each set is a compare-and-swap on the version of the node the source last
// saw (a versioned SetData); a node that is missing is created, with its
// missing parents, and a node created meanwhile by another writer is a
// conflict too. On a conflict Write logs it, reads the fresh content and,
// unless it already holds set's rules, sets the node again on it, up to
// Config.ConflictRetries times, then gives up with ErrConflict. A kind with
// no rules is written as "[]", and not at all when its node does not exist.
//
// Kinds are written one by one, as Sentinel keeps them in separate nodes:
// a failure may leave the kinds before it written; the error names the node.
func (s *Source) Write(ctx context.Context, set rules.Set) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	c, err := s.client()
	if err != nil {
		return err
	}
	if err := s.session(ctx, c); err != nil {
		return err
	}
	for _, k := range s.kinds {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := s.writeKind(c, k, set.Only(k.kind)); err != nil {
			return err
		}
	}
	return nil
}

// writeKind sets part on k's node unless the content last seen holds the
// same rules.
func (s *Source) writeKind(c *zk.Conn, k kindPath, part rules.Set) error {
	base, ok := s.baseOf(k.path)
	if !ok {
		n, err := s.get(c, k.path)
		if err != nil {
			return err
		}
		base = n
	}
	want, err := encode(part)
	if err != nil {
		return fmt.Errorf("%v: encoding %s rules for node %s: %w", s, k.kind, k.path, err)
	}
	for attempt := 0; ; attempt++ {
		if holds(k, base, part) {
			s.setBase(k.path, base)
			return nil
		}
		var err error
		if base.exists {
			var stat *zk.Stat
			if stat, err = c.Set(k.path, []byte(want), base.version); err == nil {
				s.setBase(k.path, node{data: want, version: stat.Version, exists: true})
				return nil
			}
		} else if err = s.create(c, k.path, want); err == nil {
			s.setBase(k.path, node{data: want, version: 0, exists: true})
			return nil
		}
		if !errors.Is(err, zk.ErrBadVersion) && !errors.Is(err, zk.ErrNodeExists) && !errors.Is(err, zk.ErrNoNode) {
			return fmt.Errorf("%v: writing node %s: %w", s, k.path, err)
		}
		fresh, rerr := s.get(c, k.path)
		if rerr != nil {
			return fmt.Errorf("%v: writing node %s: %v; then %w", s, k.path, err, rerr)
		}
		if attempt >= s.cfg.ConflictRetries {
			return fmt.Errorf("%v: node %s: %w (version %d, expected %d); nothing written to it",
				s, k.path, ErrConflict, fresh.version, base.version)
		}
		s.cfg.Logger.Warn("zookeeper write conflict: the node changed since it was read; writing again on the fresh content",
			"source", s.String(), "node", k.path, "version", fresh.version, "expected", base.version)
		base = fresh
	}
}

// create makes path holding data, and its missing parents empty. A path
// that exists already is ErrNodeExists: another writer made it.
func (s *Source) create(c *zk.Conn, path, data string) error {
	acl := zk.WorldACL(zk.PermAll)
	for i := 1; i < len(path); i++ {
		if path[i] != '/' {
			continue
		}
		if _, err := c.Create(path[:i], nil, 0, acl); err != nil && !errors.Is(err, zk.ErrNodeExists) {
			return fmt.Errorf("creating parent %s: %w", path[:i], err)
		}
	}
	_, err := c.Create(path, []byte(data), 0, acl)
	return err
}

// holds reports whether n already holds exactly the rules of part.
func holds(k kindPath, n node, part rules.Set) bool {
	if strings.TrimSpace(n.data) == "" {
		return part.IsEmpty()
	}
	cur, err := rules.Parse(document(k, n.data))
	return err == nil && cur.Equal(part)
}

// encode writes part as Sentinel's JSON; "[]" when it is empty.
func encode(part rules.Set) (string, error) {
	if part.IsEmpty() {
		return "[]", nil
	}
	data, err := rules.Encode(part, rules.FormatJSON)
	return string(data), err
}
