package grpcguard

import (
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
// time, or the one-second window of QPS flow rules).
func BlockStatus(be *runtime.BlockError) error {
	st := status.New(Code(be), be.Error())
	if d := rulewatch.RetryAfter(be); d > 0 {
		if with, err := st.WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(d)}); err == nil {
			st = with
		}
	}
	return st.Err()
}
