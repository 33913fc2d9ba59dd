package httpguard

import (
	"context"
	"net/http"

	"github.com/sentinelgen/sentinelgen/adapters/internal/rulewatch"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// verdict is what begin decided about a request.
type verdict uint8

const (
	// admitted: the Entry holds the call, which the caller ends.
	admitted verdict = iota
	// refused: a rule refused the request and the block handler answered.
	refused
	// unguarded: the request has no resource.
	unguarded
)

// ServeHTTP checks the request against its resource's rules and serves it
// when they admit it. The Entry is a local variable, entered in place: only
// the deferred function refers to it, so it needs no pool. A panic leaves
// through that function, which traces it and ends the call without
// recovering it, so the panic reaches net/http (or the caller's recovery)
// unchanged; the status writer is then not pooled again, since the handler
// may still hold it.
func (rt *route) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var e runtime.Entry
	next, v := rt.begin(&e, w, r)
	if v != admitted {
		if v == unguarded {
			rt.next.ServeHTTP(w, r)
		}
		return
	}
	returned := false
	defer func() {
		if !returned {
			rt.end(&e, 0, true)
		}
	}()
	if rt.cfg.isError == nil {
		rt.next.ServeHTTP(w, next)
		returned = true
		e.Exit()
		return
	}
	sw := getWriter(w)
	rt.next.ServeHTTP(sw, next)
	returned = true
	if sw.Status != 0 && rt.cfg.isError(sw.Status) {
		e.TraceError(errStatus)
	}
	putWriter(sw)
	e.Exit()
}

// begin checks r, entering e in place. It returns the verdict and, for an admitted
// request, the request to hand on, carrying the origin and the entrance in
// its context when there are any. The block handler has answered a refused
// request.
func (rt *route) begin(e *runtime.Entry, w http.ResponseWriter, r *http.Request) (*http.Request, verdict) {
	res, name := rt.res, rt.name
	if res == nil {
		if res, name = rt.resourceFor(r); res == nil {
			return r, unguarded
		}
	}
	// The origin and the entrance go in one derived context, used by the
	// route's own checks and handed to the handler. Both are skipped when
	// not needed: deriving the request costs two allocations.
	ctx := r.Context()
	derived := false
	if rt.cfg.origin != nil {
		if o := rt.cfg.origin(r); o != "" {
			ctx, derived = runtime.WithOrigin(ctx, o), true
		}
	}
	if rulewatch.ChainNamed(name) {
		ctx, derived = runtime.WithEntrance(ctx, name), true
	}
	var blocked *runtime.BlockError
	if len(rt.cfg.params) != 0 && res.HasParamRules() {
		blocked = rt.enterArgs(res, e, ctx, r)
	} else {
		blocked = res.EntryTo(e.InPlace(), ctx)
	}
	if blocked != nil {
		rt.cfg.block(w, r, blocked)
		return r, refused
	}
	if derived {
		r = r.WithContext(ctx)
	}
	return r, admitted
}

// enterArgs enters e in place with the request's hot-parameter arguments,
// in a buffer on its own stack: the frame of a request without them stays
// small.
func (rt *route) enterArgs(res *runtime.Resource, e *runtime.Entry, ctx context.Context, r *http.Request) *runtime.BlockError {
	var buf [4]runtime.ParamArg
	args := buf[:0]
	for _, p := range rt.cfg.params {
		args = append(args, p.arg(r, rt.path))
	}
	return res.EntryArgsTo(e.InPlace(), ctx, args)
}

// end ends an admitted call with the response's status (0 when none is
// known); panicked says the handler panicked.
func (rt *route) end(e *runtime.Entry, status int, panicked bool) {
	switch {
	case panicked:
		if rt.cfg.tracePanics {
			e.TraceError(ErrPanic)
		}
	case rt.cfg.isError != nil && status != 0 && rt.cfg.isError(status):
		e.TraceError(errStatus)
	}
	e.Exit()
}
