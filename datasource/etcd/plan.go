package etcd

import (
	"bytes"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/sentinelgen/sentinelgen/rules"
)

// kinds are the rule kinds a Set holds, in the order Write places them.
var kinds = rules.Kinds()

// planWrite decides what each key receives so that, after the write, the
// merge of all documents equals set: each kind's rules go to one target key,
// and any other key that held rules of that kind is rewritten without them.
func (s *Source) planWrite(view map[string]entry, set rules.Set) ([]keyWrite, error) {
	held := map[string]rules.Set{} // rules each readable key holds now
	for key, e := range view {
		if cur, err := rules.Parse(s.document(key, e.data)); err == nil {
			held[key] = cur
		}
	}
	parts := map[string]rules.Set{} // what each key of the plan receives
	for key, cur := range held {
		if !isEmpty(cur) {
			parts[key] = rules.Set{} // loses the kinds assigned elsewhere below
		}
	}
	for _, kind := range kinds {
		part := only(set, kind)
		key, err := s.targetFor(kind, view, held, !isEmpty(part))
		if err != nil {
			return nil, err
		}
		if key != "" {
			parts[key] = parts[key].Merge(part)
		}
	}

	plan := make([]keyWrite, 0, len(parts))
	for key, part := range parts {
		if cur, ok := held[key]; ok && cur.Equal(part) {
			plan = append(plan, keyWrite{key: key}) // compared, not rewritten
			continue
		}
		data, err := rules.Encode(part, s.writeFormat(key, view[key].data))
		if err != nil {
			return nil, fmt.Errorf("%v: encoding rules for %s: %w", s, key, err)
		}
		plan = append(plan, keyWrite{key: key, data: data})
	}
	slices.SortFunc(plan, func(a, b keyWrite) int { return strings.Compare(a.key, b.key) })
	return plan, nil
}

// targetFor picks the key that receives the rules of kind; "" when there are
// none to write and no key holds that kind.
func (s *Source) targetFor(kind rules.Kind, view map[string]entry, held map[string]rules.Set, hasRules bool) (string, error) {
	var named, holders, generic []string
	for key := range view {
		switch s.kindOfKey(key) {
		case kind:
			named = append(named, key)
		case rules.KindAuto:
			generic = append(generic, key)
			if cur, ok := held[key]; ok && !isEmpty(only(cur, kind)) {
				holders = append(holders, key)
			}
		}
	}
	slices.Sort(named)
	slices.Sort(holders)
	switch {
	case len(named) == 1:
		return named[0], nil
	case len(named) > 1:
		return "", fmt.Errorf("%v: keys %s are all named for %s rules; Write needs one key per kind", s, strings.Join(named, ", "), kind)
	case len(holders) == 1:
		return holders[0], nil
	case len(holders) > 1:
		return "", fmt.Errorf("%v: keys %s all hold %s rules; Write needs one key per kind", s, strings.Join(holders, ", "), kind)
	case len(generic) == 1:
		return generic[0], nil
	case !hasRules:
		return "", nil
	case !s.cfg.prefix:
		if k := s.kindOfKey(s.key); k != rules.KindAuto && k != kind {
			return "", fmt.Errorf("%v: the key is named for %s rules and cannot hold %s rules", s, k, kind)
		}
		return s.key, nil
	}
	return s.newKey(kind), nil
}

// newKey is the key Write creates under the prefix for a kind no key holds.
func (s *Source) newKey(kind rules.Kind) string {
	name := string(kind) + ".json"
	if s.cfg.format == rules.FormatTOML {
		name = string(kind) + ".toml"
	}
	if strings.HasSuffix(s.key, "/") {
		return s.key + name
	}
	return s.key + "/" + name
}

// kindOfKey is the rule kind a key's name stands for, as rules infers it for
// JSON documents; WithKind overrides it.
func (s *Source) kindOfKey(key string) rules.Kind {
	if s.cfg.kind != rules.KindAuto {
		return s.cfg.kind
	}
	return rules.KindFromName(path.Base(key))
}

// writeFormat is the format Write encodes a key in: WithFormat's, else what
// rules reads the key as (its extension, then its content); JSON for an
// empty key without an extension, since that is what other Sentinel clients
// of the store read.
func (s *Source) writeFormat(key string, current []byte) rules.Format {
	if s.cfg.format != rules.FormatAuto {
		return s.cfg.format
	}
	if path.Ext(key) == "" && len(bytes.TrimSpace(current)) == 0 {
		return rules.FormatJSON
	}
	return rules.Document{Name: key, Data: current}.ResolvedFormat()
}

// document is the rules.Document for a key's value.
func (s *Source) document(key string, data []byte) rules.Document {
	return rules.Document{Name: docName(key), Data: data, Format: s.cfg.format, Kind: s.cfg.kind}
}

// only returns the rules of one kind of set, with their positions.
func only(set rules.Set, kind rules.Kind) rules.Set { return set.Only(kind) }

func isEmpty(set rules.Set) bool { return set.IsEmpty() }
