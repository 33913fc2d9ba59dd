// Package policy holds timeout and retry keys the checker refuses, reported
// by the Analyzer as by the generator.
package policy

import "context"

// Service is guarded.
type Service struct{}

// Get has a timeout but no context to carry it.
// want +2 `^timeout needs Get to take a context.Context as its first parameter`
//
//sentinel:resource name=policy.get timeout=800ms
func (s *Service) Get(id string) (string, error) { return id, nil }

// Put misspells retries.
// want +2 `^unknown key "retires"; did you mean retries\?$`
//
//sentinel:resource name=policy.put retires=2
func (s *Service) Put(ctx context.Context, id string) error { return nil }
