package redis

import (
	"context"
	"errors"
	"fmt"
	"strings"

	goredis "github.com/redis/go-redis/v9"
	"github.com/sentinelgen/sentinelgen/rules"
)

// ErrConflict is returned (wrapped, test with errors.Is) by Write when the
// keys it would write kept changing in Redis under it: every
// compare-and-swap, the first one and Config.ConflictRetries more on the
// content read afresh, found another writer's content there. Nothing was
// written.
var ErrConflict = errors.New("rules in Redis changed since they were last read")

// Write implements datasource.WritableSource: it stores the rules of each
// kind of set in that kind's key in Sentinel's JSON and publishes the same
// text on the kind's channel, as Sentinel documents for its Java
// RedisDataSource (whose subscribers apply the message), but only for the
// kinds whose rules differ from what the key holds; the others are not
// touched. A kind with no rules is written as "[]", and not at all when its
// key does not exist.
//
// All the kinds are written in one compare-and-swap transaction: Write
// WATCHes every key, checks that each holds the content the source last
// read or wrote, and SETs and PUBLISHes the changed ones in one MULTI/EXEC,
// so a reader sees the old set or the new one, never a mix. When another
// writer changed a key in between (a different content, or EXEC refused
// because a WATCHed key changed), Write logs the conflict, takes the fresh
// content as its base and tries again, up to Config.ConflictRetries times,
// then gives up with ErrConflict. Keys the source never read are taken as
// they are when Write starts.
func (s *Source) Write(ctx context.Context, set rules.Set) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	want := make(map[string]string, len(s.kinds))
	for _, k := range s.kinds {
		text, err := encode(set.Only(k.kind))
		if err != nil {
			return fmt.Errorf("%v: encoding %s rules for key %s: %w", s, k.kind, k.key, err)
		}
		want[k.key] = text
	}
	keys := s.allKeys()
	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		err := s.writeOnce(ctx, set, want, keys)
		var c *conflict
		switch {
		case err == nil:
			return nil
		case errors.Is(err, goredis.TxFailedErr):
			c = &conflict{keys: keys}
		case errors.As(err, &c):
		default:
			return err
		}
		if attempt >= s.cfg.ConflictRetries {
			return fmt.Errorf("%v: key %s: %w; nothing written", s, strings.Join(c.keys, ", "), ErrConflict)
		}
		s.cfg.Logger.Warn("redis write conflict: a key changed since it was read; writing again on the fresh content",
			"source", s.String(), "keys", strings.Join(c.keys, ", "), "attempt", attempt+1)
		fresh, err := s.readKeys(ctx, keys)
		if err != nil {
			return err
		}
		s.mu.Lock()
		for k, v := range fresh {
			s.base[k] = v
		}
		s.mu.Unlock()
	}
}

// conflict is the error of a compare-and-swap that found keys changed.
type conflict struct{ keys []string }

func (c *conflict) Error() string { return "keys changed: " + strings.Join(c.keys, ", ") }

// writeOnce makes one compare-and-swap transaction over keys.
func (s *Source) writeOnce(ctx context.Context, set rules.Set, want map[string]string, keys []string) error {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	var written map[string]string
	err := s.client.Watch(ctx, func(tx *goredis.Tx) error {
		var cmds []*goredis.StringCmd
		_, err := tx.Pipelined(ctx, func(p goredis.Pipeliner) error {
			cmds = getAll(ctx, p, keys)
			return nil
		})
		cur, err := s.contents(keys, cmds, err)
		if err != nil {
			return err
		}
		var changed []string
		s.mu.Lock()
		for _, k := range keys {
			if base, ok := s.base[k]; ok && base != cur[k] {
				changed = append(changed, k)
			}
		}
		s.mu.Unlock()
		if len(changed) > 0 {
			return &conflict{keys: changed}
		}
		written = cur
		var todo []kindKey
		for _, k := range s.kinds {
			part := set.Only(k.kind)
			c := cur[k.key]
			if holds(k, c, part) || (strings.TrimSpace(c) == "" && part.IsEmpty()) {
				continue
			}
			todo = append(todo, k)
		}
		if len(todo) == 0 {
			return nil
		}
		if s.beforeExec != nil {
			s.beforeExec()
		}
		_, err = tx.TxPipelined(ctx, func(p goredis.Pipeliner) error {
			for _, k := range todo {
				p.Set(ctx, k.key, want[k.key], 0)
				p.Publish(ctx, k.channel, want[k.key])
				written[k.key] = want[k.key]
			}
			return nil
		})
		if err != nil && !errors.Is(err, goredis.TxFailedErr) {
			return fmt.Errorf("%v: writing key %s: %w", s, keyList(todo), err)
		}
		return err
	}, keys...)
	if err != nil {
		return err
	}
	s.mu.Lock()
	for k, v := range written {
		s.base[k] = v
	}
	s.mu.Unlock()
	return nil
}

// holds reports whether content already holds exactly the rules of part.
func holds(k kindKey, content string, part rules.Set) bool {
	if strings.TrimSpace(content) == "" {
		return part.IsEmpty()
	}
	cur, err := rules.Parse(document(k, content))
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

// keyList names the keys of ks for messages.
func keyList(ks []kindKey) string {
	names := make([]string, len(ks))
	for i, k := range ks {
		names[i] = k.key
	}
	return strings.Join(names, ", ")
}
