package example

import (
	"google.golang.org/grpc"

	"github.com/sentinelgen/sentinelgen/adapters/grpcguard"
	"github.com/sentinelgen/sentinelgen/examples/edge"
)

// OriginKey is the metadata key naming the caller, the gRPC counterpart of
// edge.OriginHeader.
const OriginKey = "x-caller"

// NewServer returns a gRPC server of the store's Orders service with every
// method guarded: flow blocks answer ResourceExhausted, an open breaker
// Unavailable, and the caller named by OriginKey is the origin.
func NewServer(store *edge.Store, opts ...grpc.ServerOption) *grpc.Server {
	guard := []grpcguard.Option{grpcguard.WithOriginMetadata(OriginKey)}
	s := grpc.NewServer(append([]grpc.ServerOption{
		grpc.ChainUnaryInterceptor(grpcguard.UnaryServerInterceptor(guard...)),
		grpc.ChainStreamInterceptor(grpcguard.StreamServerInterceptor(guard...)),
	}, opts...)...)
	Register(s, &Orders{Store: store})
	return s
}
