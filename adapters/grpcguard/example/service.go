package example

import (
	"context"
	"errors"
	"io"
	"strconv"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/sentinelgen/sentinelgen/examples/edge"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// Full method names of the service, which are its resource names.
const (
	GetMethod  = "/edge.Orders/Get"
	ListMethod = "/edge.Orders/List"
)

// GetRequest asks for one order.
type GetRequest struct {
	ID string `json:"id"`
}

// ListRequest asks for every order, streamed one by one.
type ListRequest struct{}

// Orders serves the store over gRPC.
type Orders struct{ Store *edge.Store }

// Get returns one order: NotFound for an unknown ID (the caller's error,
// not traced), ResourceExhausted when the store read is refused.
func (o *Orders) Get(ctx context.Context, req *GetRequest) (*edge.Order, error) {
	ord, err := o.Store.Get(ctx, req.ID)
	var be *runtime.BlockError
	switch {
	case errors.As(err, &be):
		return nil, status.Error(codes.ResourceExhausted, be.Error())
	case errors.Is(err, edge.ErrNotFound):
		return nil, status.Error(codes.NotFound, err.Error())
	case err != nil:
		return nil, status.Error(codes.Internal, err.Error())
	}
	return &ord, nil
}

// List streams the IDs 1..n that the store has.
func (o *Orders) List(_ *ListRequest, ss grpc.ServerStream) error {
	for id := 1; ; id++ {
		ord, err := o.Store.Get(ss.Context(), strconv.Itoa(id))
		if errors.Is(err, edge.ErrNotFound) {
			return nil
		}
		if err != nil {
			return status.Error(codes.ResourceExhausted, err.Error())
		}
		if err := ss.SendMsg(&ord); err != nil {
			return err
		}
	}
}

// ordersServer is the service's handler type, as generated code declares
// it, for grpc.ServiceDesc.HandlerType.
type ordersServer interface {
	Get(context.Context, *GetRequest) (*edge.Order, error)
	List(*ListRequest, grpc.ServerStream) error
}

// Register adds the service to s.
func Register(s *grpc.Server, o *Orders) { s.RegisterService(&serviceDesc, o) }

var serviceDesc = grpc.ServiceDesc{
	ServiceName: "edge.Orders",
	HandlerType: (*ordersServer)(nil),
	Methods: []grpc.MethodDesc{{
		MethodName: "Get",
		// The interceptor chain, and so the guard, runs here, as in the
		// handlers protoc-gen-go-grpc writes.
		Handler: func(srv any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
			in := new(GetRequest)
			if err := dec(in); err != nil {
				return nil, err
			}
			call := func(ctx context.Context, req any) (any, error) {
				return srv.(ordersServer).Get(ctx, req.(*GetRequest))
			}
			if interceptor == nil {
				return call(ctx, in)
			}
			return interceptor(ctx, in, &grpc.UnaryServerInfo{Server: srv, FullMethod: GetMethod}, call)
		},
	}},
	Streams: []grpc.StreamDesc{{
		StreamName:    "List",
		ServerStreams: true,
		Handler: func(srv any, ss grpc.ServerStream) error {
			in := new(ListRequest)
			if err := ss.RecvMsg(in); err != nil {
				return err
			}
			return srv.(ordersServer).List(in, ss)
		},
	}},
}

// Client calls the service.
type Client struct{ cc grpc.ClientConnInterface }

// NewClient returns a client of the service over cc.
func NewClient(cc grpc.ClientConnInterface) *Client { return &Client{cc: cc} }

// Get calls Get.
func (c *Client) Get(ctx context.Context, id string, opts ...grpc.CallOption) (*edge.Order, error) {
	out := new(edge.Order)
	opts = append([]grpc.CallOption{grpc.CallContentSubtype(Codec{}.Name())}, opts...)
	if err := c.cc.Invoke(ctx, GetMethod, &GetRequest{ID: id}, out, opts...); err != nil {
		return nil, err
	}
	return out, nil
}

// List calls List and collects the streamed orders.
func (c *Client) List(ctx context.Context, opts ...grpc.CallOption) ([]edge.Order, error) {
	opts = append([]grpc.CallOption{grpc.CallContentSubtype(Codec{}.Name())}, opts...)
	st, err := c.cc.NewStream(ctx, &serviceDesc.Streams[0], ListMethod, opts...)
	if err != nil {
		return nil, err
	}
	if err := st.SendMsg(&ListRequest{}); err != nil {
		return nil, err
	}
	if err := st.CloseSend(); err != nil {
		return nil, err
	}
	var out []edge.Order
	for {
		var o edge.Order
		if err := st.RecvMsg(&o); err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return out, err
		}
		out = append(out, o)
	}
}
