package rules

import "sync"

// Identified is implemented by sources that know the store they read (a
// file's absolute path, an etcd endpoint and key), so Persist can tell when
// the rules in force came from the very store it is about to write to and
// skip writing them back: the store may have moved on since, and a
// write-back would undo the newer edit. Identity must be the same string for
// the Source a Watcher reads and the WritableSource Persist writes.
type Identified interface {
	Identity() string
}

// appliedFrom remembers, per source identity, the set its watcher last put
// in force (or found in force). Persist skips writing that set back: it is
// already there, and the store may have moved on since (a second edit), which
// a write-back would undo.
var appliedFrom struct {
	sync.Mutex
	byKey map[string]appliedEntry
}

type appliedEntry struct {
	by  *Watcher
	set Set
}

// rememberApplied records set as the one w's source put in force and returns
// the entry it replaced, for restoreApplied.
func rememberApplied(key string, w *Watcher, set Set) (previous appliedEntry, had bool) {
	if key == "" {
		return appliedEntry{}, false
	}
	appliedFrom.Lock()
	defer appliedFrom.Unlock()
	if appliedFrom.byKey == nil {
		appliedFrom.byKey = map[string]appliedEntry{}
	}
	previous, had = appliedFrom.byKey[key]
	appliedFrom.byKey[key] = appliedEntry{by: w, set: set}
	return previous, had
}

// restoreApplied undoes rememberApplied after the applier refused the set.
func restoreApplied(key string, w *Watcher, previous appliedEntry, had bool) {
	if key == "" {
		return
	}
	appliedFrom.Lock()
	defer appliedFrom.Unlock()
	if e, ok := appliedFrom.byKey[key]; !ok || e.by != w {
		return
	}
	if had {
		appliedFrom.byKey[key] = previous
	} else {
		delete(appliedFrom.byKey, key)
	}
}

// forgetApplied drops w's entry when it stops watching.
func forgetApplied(key string, w *Watcher) {
	if key == "" {
		return
	}
	appliedFrom.Lock()
	defer appliedFrom.Unlock()
	if e, ok := appliedFrom.byKey[key]; ok && e.by == w {
		delete(appliedFrom.byKey, key)
	}
}

// cameFrom reports whether set is what a running watcher of the store named
// key last put in force.
func cameFrom(key string, set Set) bool {
	if key == "" {
		return false
	}
	appliedFrom.Lock()
	defer appliedFrom.Unlock()
	e, ok := appliedFrom.byKey[key]
	return ok && e.set.Equal(set)
}
