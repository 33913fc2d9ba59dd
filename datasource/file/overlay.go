package file

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"sync"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/internal/atomicfile"
	"github.com/sentinelgen/sentinelgen/rules"
)

// Overlay is a machine-owned rules document laid over a hand-written one: a
// datasource.WritableSource for rules pushed from the dashboard that never
// writes the document people edit. Write stores only the kinds whose rules
// in force differ from what the base watcher's source holds, so the
// hand-written file keeps its comments and spelling and stays the home of
// every kind nobody pushed; Load puts the stored kinds back in force over
// the base's at start, so pushed rules survive a restart.
//
// The document is Sentinel JSON in the object form, one key per kind it
// stores ({"flow": [...], "degrade": []}); a kind stored with an empty list
// means "none", which differs from the base. It is read once, by Load; it
// is not watched. Delete it (with the service stopped) to go back to the
// hand-written rules alone.
type Overlay struct {
	path string
	base *datasource.Watcher
	mu   sync.Mutex // serialises Write
}

// NewOverlay returns the overlay document at path over the rules base
// reads (base.Owned).
func NewOverlay(path string, base *datasource.Watcher) *Overlay {
	return &Overlay{path: path, base: base}
}

// Path returns the document's path as given to NewOverlay.
func (o *Overlay) Path() string { return o.path }

// String returns the path; logs name the overlay by it.
func (o *Overlay) String() string { return o.path }

// Load puts the kinds the document stores in force over the rules in force
// (one rules.Update) and returns them. A missing document stores nothing
// and is not an error; one that does not read or validate is an error
// naming the file and line, and changes nothing.
func (o *Overlay) Load() ([]rules.Kind, error) {
	data, err := os.ReadFile(o.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	set, kinds, err := o.parse(data)
	if err != nil {
		return nil, err
	}
	if set, err = rules.Resolve(set); err != nil {
		return nil, err
	}
	_, err = rules.Update(func(cur rules.Set) (rules.Set, error) { return cur.Replace(set, kinds...), nil })
	if err != nil {
		return nil, err
	}
	return kinds, nil
}

// parse reads the document: its rules and the kinds its keys name.
func (o *Overlay) parse(data []byte) (rules.Set, []rules.Kind, error) {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(data, &keys); err != nil {
		return rules.Set{}, nil, fmt.Errorf("%s: want a JSON object with one key per rule kind: %w", o.path, err)
	}
	var kinds []rules.Kind
	for key := range keys {
		if !slices.Contains(rules.AllKinds(), rules.Kind(key)) {
			return rules.Set{}, nil, fmt.Errorf("%s: unknown rule kind %q (want one of %v)", o.path, key, rules.AllKinds())
		}
	}
	for _, k := range rules.AllKinds() {
		if _, ok := keys[string(k)]; ok {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) == 0 {
		return rules.Set{}, nil, nil
	}
	set, err := rules.Parse(rules.Document{Name: o.path, Data: data, Format: rules.FormatJSON})
	if err != nil {
		return rules.Set{}, nil, err
	}
	return set, kinds, nil
}

// Write implements datasource.WritableSource: it stores the kinds of s
// whose rules differ from the base's (base.Owned: none for a kind the base
// does not own), replacing the document atomically (write a temporary file
// beside it, rename it over). A document that already holds those bytes is
// not touched; with nothing to store and no document, none is created.
func (o *Overlay) Write(ctx context.Context, s rules.Set) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	base := o.base.Owned()
	var kinds []rules.Kind
	for _, k := range rules.AllKinds() {
		if !s.Only(k).Equal(base.Only(k)) {
			kinds = append(kinds, k)
		}
	}
	data, err := o.encode(s, kinds)
	if err != nil {
		return err
	}
	old, readErr := os.ReadFile(o.path)
	if readErr == nil && bytes.Equal(old, data) {
		return nil
	}
	if errors.Is(readErr, fs.ErrNotExist) && len(kinds) == 0 {
		return nil
	}
	return atomicfile.WriteFile(o.path, data, 0o644)
}

// encode renders the rules of kinds in s as the document, and checks that
// it reads back as them.
func (o *Overlay) encode(s rules.Set, kinds []rules.Kind) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("{")
	for i, k := range kinds {
		part, err := rules.Encode(s.Only(k), rules.FormatJSON)
		if err != nil {
			return nil, fmt.Errorf("%s: encoding %s rules: %w", o.path, k, err)
		}
		if i > 0 {
			b.WriteString(",")
		}
		key, _ := json.Marshal(string(k))
		b.Write(key)
		b.WriteString(":")
		b.Write(bytes.TrimSpace(part))
	}
	b.WriteString("}")
	var out bytes.Buffer
	if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
		return nil, fmt.Errorf("%s: encoding rules: %w", o.path, err)
	}
	out.WriteString("\n")
	back, backKinds, err := o.parse(out.Bytes())
	if err != nil {
		return nil, fmt.Errorf("%s: encoded rules do not read back: %w", o.path, err)
	}
	if !slices.Equal(backKinds, kinds) || !back.Equal(rules.Set{}.Replace(s, kinds...)) {
		return nil, fmt.Errorf("%s: encoded rules read back differently", o.path)
	}
	return out.Bytes(), nil
}
