// Package grpcguard guards gRPC methods with the sentinelgen runtime:
// interceptors for servers (inbound resources) and clients (outbound
// resources), unary and streaming, each method one resource named after its
// full method name ("/orders.Orders/Get").
//
//	srv := grpc.NewServer(
//		grpc.ChainUnaryInterceptor(grpcguard.UnaryServerInterceptor()),
//		grpc.ChainStreamInterceptor(grpcguard.StreamServerInterceptor()),
//	)
//
// A blocked call fails with codes.ResourceExhausted for flow, hot-parameter
// and system blocks (a quota: retrying later helps, and it pages nobody),
// codes.Unavailable for an open circuit breaker (the service is impaired),
// codes.PermissionDenied for an authority block; a google.rpc.RetryInfo
// detail gives the wait when it is known. WithBlockError changes all of it.
// A call that ends with a status WithErrorCodes counts as failed (by
// default the codes HTTP would answer with a 5xx) is traced for the error
// statistics and the circuit breakers.
//
// This is its own module so that the main module does not depend on gRPC.
package grpcguard
