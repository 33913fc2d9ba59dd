package httpguard

import (
	"net/http"

	"github.com/sentinelgen/sentinelgen/adapters/internal/rulewatch"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// ServeHTTP checks the request against its resource's rules and serves it
// when they admit it.
func (rt *route) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c, r, guarded := rt.begin(w, r)
	if !guarded {
		rt.next.ServeHTTP(w, r)
		return
	}
	if c == nil {
		return // refused, and answered
	}
	rt.serve(c, w, r)
	rt.end(c, c.sw.Status, false)
}

// begin checks r. It returns guarded false when the request has no
// resource, a nil call when a rule refused the request (which the block
// handler has answered), and otherwise the admitted call and the request to
// hand on, carrying the origin and entrance in its context when there are
// any. The admitted call ends with end.
func (rt *route) begin(w http.ResponseWriter, r *http.Request) (c *call, next *http.Request, guarded bool) {
	res, name := rt.resourceFor(r)
	if res == nil {
		return nil, r, false
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
	c = getCall()
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
		return nil, r, true
	}
	if derived {
		r = r.WithContext(ctx)
	}
	return c, r, true
}

// end ends an admitted call with the response's status (0 when none is
// known) and releases it; panicked says the handler panicked.
func (rt *route) end(c *call, status int, panicked bool) {
	switch {
	case panicked:
		if rt.cfg.tracePanics {
			c.e.TraceError(ErrPanic)
		}
	case rt.cfg.isError != nil && status != 0 && rt.cfg.isError(status):
		c.e.TraceError(errStatus)
	}
	c.e.Exit()
	if !panicked {
		c.release()
	}
}

// serve runs the handler. A panic leaves through the deferred function,
// which traces it and ends the call without recovering it, so the panic
// reaches net/http (or the caller's recovery) unchanged. The call is then
// not pooled again: the handler may still hold its writer.
func (rt *route) serve(c *call, w http.ResponseWriter, r *http.Request) {
	returned := false
	defer func() {
		if !returned {
			rt.end(c, 0, true)
		}
	}()
	if rt.cfg.isError != nil {
		c.sw.W = w
		w = &c.sw
	}
	rt.next.ServeHTTP(w, r)
	returned = true
}
