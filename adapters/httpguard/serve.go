package httpguard

import (
	"net/http"

	"github.com/sentinelgen/sentinelgen/adapters/internal/rulewatch"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// ServeHTTP checks the request against its resource's rules and serves it
// when they admit it.
func (rt *route) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	res, name := rt.resourceFor(r)
	if res == nil {
		rt.next.ServeHTTP(w, r)
		return
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
	// c.e is entered in place (no exit ticket): the pooled call holds it
	// until its Exit and is never copied.
	c := getCall()
	var blocked *runtime.BlockError
	if n := len(rt.cfg.params); n != 0 && res.HasParamRules() {
		args := c.args[:0]
		if n > len(c.args) {
			args = make([]runtime.ParamArg, 0, n)
		}
		for _, p := range rt.cfg.params {
			args = append(args, p.arg(r, rt.path))
		}
		blocked = res.EntryArgsTo(c.e.InPlace(), ctx, args)
	} else {
		blocked = res.EntryTo(c.e.InPlace(), ctx)
	}
	if blocked != nil {
		c.release()
		rt.cfg.block(w, r, blocked)
		return
	}
	if derived {
		r = r.WithContext(ctx)
	}
	rt.serve(c, w, r)
	if rt.cfg.isError != nil && c.sw.Status != 0 && rt.cfg.isError(c.sw.Status) {
		c.e.TraceError(errStatus)
	}
	c.e.Exit()
	c.release()
}

// serve runs the handler. A panic leaves through the deferred function,
// which traces it and ends the call without recovering it, so the panic
// reaches net/http (or the caller's recovery) unchanged. The call is then
// not pooled again: the handler may still hold its writer.
func (rt *route) serve(c *call, w http.ResponseWriter, r *http.Request) {
	returned := false
	defer func() {
		if !returned {
			if rt.cfg.tracePanics {
				c.e.TraceError(ErrPanic)
			}
			c.e.Exit()
		}
	}()
	if rt.cfg.isError != nil {
		c.sw.W = w
		w = &c.sw
	}
	rt.next.ServeHTTP(w, r)
	returned = true
}
