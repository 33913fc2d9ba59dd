// Package platforms has a directive built everywhere and one in a file
// built on Linux only: the generator writes sentinel_gen_linux.go for
// Linux and sentinel_gen.go for every other platform.
package platforms

import "context"

// Service is guarded.
type Service struct{}

// Get is guarded on every platform.
//
//sentinel:resource name=platforms.get
func (s *Service) Get(ctx context.Context, id string) (string, error) {
	return id, nil
}
