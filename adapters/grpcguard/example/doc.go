// Package example is the gRPC half of the edge example of docs/adapters.md:
// the orders of package examples/edge served over gRPC, guarded by the
// interceptors of grpcguard, beside the same store's HTTP routes.
//
// To stay free of a code generator the service is declared by hand (a
// grpc.ServiceDesc, as protoc-gen-go-grpc would write it) and its messages
// travel as JSON (content subtype "json", see Codec). The interceptors do
// not care: they see full method names and status codes, whatever the
// messages are.
package example
