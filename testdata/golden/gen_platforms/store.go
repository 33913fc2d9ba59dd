// Package platforms guards methods in files built for some platforms only:
// each platform must get exactly the wrappers of the files it compiles.
package platforms

import "context"

// Store is guarded everywhere; its Sync is guarded differently per system.
type Store struct{ Calls int }

// Get is guarded on every platform.
//
//sentinel:resource name=platforms.get
func (s *Store) Get(ctx context.Context, key string) (string, error) {
	s.Calls++
	return "v:" + key, nil
}
