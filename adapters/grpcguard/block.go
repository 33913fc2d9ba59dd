package grpcguard

import (
	"sync"
	"sync/atomic"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/sentinelgen/sentinelgen/adapters/internal/rulewatch"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// Code is the status code BlockStatus gives a block: Unavailable for an
// open circuit breaker, PermissionDenied for an authority rule, and
// ResourceExhausted for flow, hot-parameter and system blocks.
func Code(be *runtime.BlockError) codes.Code {
	switch be.Type() {
	case runtime.BlockTypeDegrade:
		return codes.Unavailable
	case runtime.BlockTypeAuthority:
		return codes.PermissionDenied
	}
	return codes.ResourceExhausted
}

// BlockStatus is the default error of a blocked call: a status with
// Code(be), be's message, and a RetryInfo detail when the wait is known
// (see RetryAfter in package httpguard: an open breaker's remaining open
// time, or the one-second window of QPS flow rules). The errors of blocks
// other than an open breaker's, whose wait changes, are made once per
// *BlockError and shared: building a status with a detail costs about a
// dozen allocations, too much for the path that sheds overload.
func BlockStatus(be *runtime.BlockError) error {
	if be.Type() == runtime.BlockTypeDegrade {
		return newBlockStatus(be)
	}
	cache := blockStatuses.Load()
	if err, ok := cache.m.Load(be); ok {
		return err.(error)
	}
	err := newBlockStatus(be)
	if _, loaded := cache.m.LoadOrStore(be, err); !loaded && cache.n.Add(1) > maxCachedStatuses {
		// Rule reloads make new BlockErrors; start afresh rather than keep
		// the statuses of rules long gone.
		blockStatuses.Store(new(statusCache))
	}
	return err
}

// maxCachedStatuses bounds the cache: far more than the rules of a service.
const maxCachedStatuses = 4096

type statusCache struct {
	m sync.Map // *runtime.BlockError -> error
	n atomic.Int64
}

var blockStatuses = func() *atomic.Pointer[statusCache] {
	var p atomic.Pointer[statusCache]
	p.Store(new(statusCache))
	return &p
}()

func newBlockStatus(be *runtime.BlockError) error {
	st := status.New(Code(be), be.Error())
	if d := rulewatch.RetryAfter(be); d > 0 {
		if with, err := st.WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(d)}); err == nil {
			st = with
		}
	}
	return st.Err()
}
