package etcd

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/grpc/connectivity"
)

// reachability follows the client's connection and reports when etcd becomes
// unreachable (no endpoint answers: gRPC's TRANSIENT_FAILURE) with false and
// reachable again (READY) with true. The client's own watch resumes by
// itself after such an outage, so without this a Watch would not notice it
// and could not say why no updates arrive.
//
// The channel holds only the latest news: a reader that was busy sees the
// current state, not a backlog. It is never closed; the goroutine ends with
// ctx.
func reachability(ctx context.Context, conn *grpc.ClientConn) <-chan bool {
	news := make(chan bool, 1)
	tell := func(up bool) {
		select {
		case <-news: // drop unread news: only the latest counts
		default:
		}
		news <- up
	}
	go func() {
		down := false
		state := conn.GetState()
		for {
			switch {
			case state == connectivity.TransientFailure && !down:
				down = true
				tell(false)
			case state == connectivity.Ready && down:
				down = false
				tell(true)
			}
			if !conn.WaitForStateChange(ctx, state) {
				return // ctx ended
			}
			state = conn.GetState()
		}
	}()
	return news
}
