package nacos

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/nacos-group/nacos-sdk-go/v2/vo"
	"github.com/sentinelgen/sentinelgen/rules"
)

// ErrConflict is returned (wrapped, test with errors.Is) by Write when a
// dataId it would write kept changing in Nacos under it: every
// compare-and-swap, the first one and Config.ConflictRetries more on the
// content read afresh, found another writer's content there. That dataId was
// not written.
var ErrConflict = errors.New("rules in Nacos changed since they were last read")

// Write implements datasource.WritableSource: it publishes the rules of
// each kind of set to that kind's dataId in Sentinel's JSON, but only for
// the kinds whose rules differ from the content the source last read or
// wrote; the others are not touched, so another writer's change to them
// survives.
//
// Each publish is a compare-and-swap (PublishConfigCas) on the MD5 of the
// content the source last saw. When another writer changed the dataId in
// between, Nacos refuses it: Write logs the conflict, reads the fresh
// content and, unless it already holds set's rules, publishes again on it,
// up to Config.ConflictRetries times, then gives up with ErrConflict. A
// kind with no rules is written as "[]" (Nacos keeps no empty content), and
// not at all when its dataId does not exist. Writing a dataId that does not
// exist yet is a plain create, since Nacos has no compare-and-swap on
// absence.
//
// Kinds are written one by one: Nacos has no transaction over several
// dataIds, so a failure may leave the kinds before it written; the error
// names the dataId.
func (s *Source) Write(ctx context.Context, set rules.Set) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	for _, k := range s.kinds {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := s.writeKind(k, set.Only(k.kind)); err != nil {
			return err
		}
	}
	return nil
}

// writeKind publishes part to k's dataId unless the content last seen holds
// the same rules.
func (s *Source) writeKind(k kindID, part rules.Set) error {
	base, ok := s.baseOf(k.dataID)
	if !ok {
		c, err := s.read(k.dataID)
		if err != nil {
			return err
		}
		base = c
	}
	want, err := encode(part)
	if err != nil {
		return fmt.Errorf("%v: encoding %s rules for dataId %s: %w", s, k.kind, k.dataID, err)
	}
	for attempt := 0; ; attempt++ {
		if s.holds(k, base, part) {
			s.setBase(k.dataID, base)
			return nil
		}
		if strings.TrimSpace(base) == "" && part.IsEmpty() {
			return nil // nothing there, nothing to write
		}
		ok, err := s.client.PublishConfig(vo.ConfigParam{
			DataId: k.dataID, Group: s.cfg.Group, Content: want, CasMd5: casMD5(base), Type: "json",
		})
		if err == nil && ok {
			s.setBase(k.dataID, want)
			return nil
		}
		// Refused: a changed MD5, or Nacos failing. The fresh content
		// tells which.
		fresh, rerr := s.read(k.dataID)
		if rerr != nil {
			return fmt.Errorf("%v: publishing dataId %s: %v; then %w", s, k.dataID, err, rerr)
		}
		if fresh == base {
			return fmt.Errorf("%v: publishing dataId %s: %v", s, k.dataID, err)
		}
		if attempt >= s.cfg.ConflictRetries {
			return fmt.Errorf("%v: dataId %s: %w (md5 %s, expected %s); nothing written to it",
				s, k.dataID, ErrConflict, casMD5(fresh), casMD5(base))
		}
		s.cfg.Logger.Warn("nacos write conflict: the dataId changed since it was read; writing again on the fresh content",
			"source", s.String(), "dataId", k.dataID, "md5", casMD5(fresh), "expected", casMD5(base))
		base = fresh
	}
}

// holds reports whether content already holds exactly the rules of part.
func (s *Source) holds(k kindID, content string, part rules.Set) bool {
	if strings.TrimSpace(content) == "" {
		return part.IsEmpty()
	}
	cur, err := rules.Parse(s.document(k, content))
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

// casMD5 is the MD5 Nacos compares a publish against: the hex MD5 of the
// content, "" (no comparison) for a dataId that does not exist.
func casMD5(content string) string {
	if content == "" {
		return ""
	}
	sum := md5.Sum([]byte(content))
	return hex.EncodeToString(sum[:])
}

func (s *Source) baseOf(dataID string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.base[dataID]
	return c, ok
}

func (s *Source) setBase(dataID, content string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.base[dataID] = content
}
