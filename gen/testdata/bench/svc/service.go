// Package svc is the generator benchmark's input: ten annotated methods in
// the three shapes of scripts/genspeed (local, imported, slice and
// multi-result types; blockHandler, fallback and ignore=), so that
// BenchmarkGenerate measures a package like the speed goal's.
package svc

import (
	"context"
	"errors"

	"github.com/sentinelgen/sentinelgen/gen/testdata/bench/parent"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// ErrNotFound reports a missing item; it is ignored by the guards.
var ErrNotFound = errors.New("svc: not found")

// Item is the entity this service manages.
type Item struct {
	ID     string
	Parent *parent.Item
}

// Service serves items.
type Service struct {
	items map[string]*Item
}

// Method00 looks an item up by id.
//
//sentinel:resource name=svc.method00 blockHandler=method00Blocked fallback=method00Fallback ignore=ErrNotFound
func (s *Service) Method00(ctx context.Context, id string, limit int) (*Item, error) {
	it, ok := s.items[id]
	if !ok {
		return nil, ErrNotFound
	}
	return it, nil
}

func (s *Service) method00Blocked(ctx context.Context, id string, limit int, blocked *runtime.BlockError) (*Item, error) {
	return nil, blocked
}

func (s *Service) method00Fallback(ctx context.Context, id string, limit int, err error) (*Item, error) {
	return &Item{ID: id}, nil
}

// Method01 derives an item from one of another package.
//
//sentinel:resource name=svc.method01 blockHandler=method01Blocked fallback=method01Fallback
func (s *Service) Method01(ctx context.Context, in *parent.Item) (*Item, error) {
	return &Item{ID: in.ID, Parent: in}, nil
}

func (s *Service) method01Blocked(ctx context.Context, in *parent.Item, blocked *runtime.BlockError) (*Item, error) {
	return nil, blocked
}

func (s *Service) method01Fallback(ctx context.Context, in *parent.Item) (*Item, error) {
	return &Item{Parent: in}, nil
}

// Method02 lists the items among ids and counts the missing ones.
//
//sentinel:resource name=svc.method02 blockHandler=method02Blocked fallback=method02Fallback
func (s *Service) Method02(ctx context.Context, ids []string) ([]Item, int, error) {
	var found []Item
	missing := 0
	for _, id := range ids {
		if it, ok := s.items[id]; ok {
			found = append(found, *it)
		} else {
			missing++
		}
	}
	return found, missing, nil
}

func (s *Service) method02Blocked(ctx context.Context, ids []string, blocked *runtime.BlockError) ([]Item, int, error) {
	return nil, len(ids), blocked
}

func (s *Service) method02Fallback(ctx context.Context, ids []string, err error) ([]Item, int, error) {
	return nil, len(ids), nil
}

// Method03 looks an item up by id.
//
//sentinel:resource name=svc.method03 blockHandler=method03Blocked fallback=method03Fallback ignore=ErrNotFound
func (s *Service) Method03(ctx context.Context, id string, limit int) (*Item, error) {
	it, ok := s.items[id]
	if !ok {
		return nil, ErrNotFound
	}
	return it, nil
}

func (s *Service) method03Blocked(ctx context.Context, id string, limit int, blocked *runtime.BlockError) (*Item, error) {
	return nil, blocked
}

func (s *Service) method03Fallback(ctx context.Context, id string, limit int, err error) (*Item, error) {
	return &Item{ID: id}, nil
}

// Method04 derives an item from one of another package.
//
//sentinel:resource name=svc.method04 blockHandler=method04Blocked fallback=method04Fallback
func (s *Service) Method04(ctx context.Context, in *parent.Item) (*Item, error) {
	return &Item{ID: in.ID, Parent: in}, nil
}

func (s *Service) method04Blocked(ctx context.Context, in *parent.Item, blocked *runtime.BlockError) (*Item, error) {
	return nil, blocked
}

func (s *Service) method04Fallback(ctx context.Context, in *parent.Item) (*Item, error) {
	return &Item{Parent: in}, nil
}

// Method05 lists the items among ids and counts the missing ones.
//
//sentinel:resource name=svc.method05 blockHandler=method05Blocked fallback=method05Fallback
func (s *Service) Method05(ctx context.Context, ids []string) ([]Item, int, error) {
	var found []Item
	missing := 0
	for _, id := range ids {
		if it, ok := s.items[id]; ok {
			found = append(found, *it)
		} else {
			missing++
		}
	}
	return found, missing, nil
}

func (s *Service) method05Blocked(ctx context.Context, ids []string, blocked *runtime.BlockError) ([]Item, int, error) {
	return nil, len(ids), blocked
}

func (s *Service) method05Fallback(ctx context.Context, ids []string, err error) ([]Item, int, error) {
	return nil, len(ids), nil
}

// Method06 looks an item up by id.
//
//sentinel:resource name=svc.method06 blockHandler=method06Blocked fallback=method06Fallback ignore=ErrNotFound
func (s *Service) Method06(ctx context.Context, id string, limit int) (*Item, error) {
	it, ok := s.items[id]
	if !ok {
		return nil, ErrNotFound
	}
	return it, nil
}

func (s *Service) method06Blocked(ctx context.Context, id string, limit int, blocked *runtime.BlockError) (*Item, error) {
	return nil, blocked
}

func (s *Service) method06Fallback(ctx context.Context, id string, limit int, err error) (*Item, error) {
	return &Item{ID: id}, nil
}

// Method07 derives an item from one of another package.
//
//sentinel:resource name=svc.method07 blockHandler=method07Blocked fallback=method07Fallback
func (s *Service) Method07(ctx context.Context, in *parent.Item) (*Item, error) {
	return &Item{ID: in.ID, Parent: in}, nil
}

func (s *Service) method07Blocked(ctx context.Context, in *parent.Item, blocked *runtime.BlockError) (*Item, error) {
	return nil, blocked
}

func (s *Service) method07Fallback(ctx context.Context, in *parent.Item) (*Item, error) {
	return &Item{Parent: in}, nil
}

// Method08 lists the items among ids and counts the missing ones.
//
//sentinel:resource name=svc.method08 blockHandler=method08Blocked fallback=method08Fallback
func (s *Service) Method08(ctx context.Context, ids []string) ([]Item, int, error) {
	var found []Item
	missing := 0
	for _, id := range ids {
		if it, ok := s.items[id]; ok {
			found = append(found, *it)
		} else {
			missing++
		}
	}
	return found, missing, nil
}

func (s *Service) method08Blocked(ctx context.Context, ids []string, blocked *runtime.BlockError) ([]Item, int, error) {
	return nil, len(ids), blocked
}

func (s *Service) method08Fallback(ctx context.Context, ids []string, err error) ([]Item, int, error) {
	return nil, len(ids), nil
}

// Method09 looks an item up by id.
//
//sentinel:resource name=svc.method09 blockHandler=method09Blocked fallback=method09Fallback ignore=ErrNotFound
func (s *Service) Method09(ctx context.Context, id string, limit int) (*Item, error) {
	it, ok := s.items[id]
	if !ok {
		return nil, ErrNotFound
	}
	return it, nil
}

func (s *Service) method09Blocked(ctx context.Context, id string, limit int, blocked *runtime.BlockError) (*Item, error) {
	return nil, blocked
}

func (s *Service) method09Fallback(ctx context.Context, id string, limit int, err error) (*Item, error) {
	return &Item{ID: id}, nil
}
