package tokenserver

import (
	"context"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/rules"
)

// WatchRules keeps the flow rules of namespace ns in step with src, any rule
// source of this project (a file, etcd, Nacos, ...): every good update of
// src replaces the namespace's rules with its cluster-mode flow rules, and a
// bad one leaves them as they are, as datasource.Watch does for a service.
// The rules go to the server only, never to the process's own runtime. It
// returns once the first update is in force (or refused: then with its
// error); the watch ends with ctx.
func (s *Server) WatchRules(ctx context.Context, ns string, src datasource.Source, opts ...datasource.WatchOption) (*datasource.Watcher, error) {
	apply := datasource.WithApplier(func(set rules.Set) error { return s.LoadFlowRules(ns, set.Flow) })
	return datasource.Watch(ctx, src, append(opts, apply)...)
}
