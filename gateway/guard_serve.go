package gateway

import (
	"errors"
	"net/http"
	"sync"

	"github.com/sentinelgen/sentinelgen/internal/statuswriter"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// ErrPanic is the error traced for a request whose handler panicked.
var ErrPanic = errors.New("gateway: handler panicked")

// errStatus is the error traced for a 5xx response.
var errStatus = errors.New("gateway: server error status")

// writers are the status-recording writers handed to the next handler,
// pooled so an admitted request allocates none.
var writers = sync.Pool{New: func() any { return new(statuswriter.Writer) }}

// maxEntries is how many resources (route and API groups) a request enters
// without allocating; more are entered all the same.
const maxEntries = 4

// maxArgs is how many rules of one resource get their arguments without
// allocating.
const maxArgs = 8

// admitted is the entries a request holds, ended in reverse order.
type admitted struct {
	buf [maxEntries]runtime.Entry
	n   int
	// more holds the entries beyond buf.
	more []runtime.Entry
}

func (a *admitted) add(e *runtime.Entry) {
	if a.n < len(a.buf) {
		a.buf[a.n] = *e
		a.n++
		return
	}
	a.more = append(a.more, *e)
}

// exitAll ends every entry, traced with err when it is not nil.
func (a *admitted) exitAll(err error) {
	for i := len(a.more) - 1; i >= 0; i-- {
		a.more[i].TraceError(err)
		a.more[i].Exit()
	}
	for i := a.n - 1; i >= 0; i-- {
		a.buf[i].TraceError(err)
		a.buf[i].Exit()
	}
}

// ServeHTTP enters the request's resources in order (route, then APIs in
// definition order) and serves it when all admit it; a block ends the
// entries already made. A handler panic (which goes on unrecovered) and a
// 5xx status are traced as errors of every entered resource, as
// Sentinel's gateway adapters trace the exceptions of a route.
func (g *Guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	st := current.Load()
	var held admitted
	if g.route != nil {
		if name := g.route(r); name != "" {
			if be := g.enter(st, &held, r, name, ModeRoute); be != nil {
				held.exitAll(nil)
				g.block(w, r, be)
				return
			}
		}
	}
	for _, a := range st.apis {
		if !a.matches(r.URL.Path) {
			continue
		}
		if be := g.enter(st, &held, r, a.name, ModeAPI); be != nil {
			held.exitAll(nil)
			g.block(w, r, be)
			return
		}
	}
	if held.n == 0 {
		g.next.ServeHTTP(w, r)
		return
	}
	sw := writers.Get().(*statuswriter.Writer)
	sw.W = w
	g.serve(&held, sw, r)
	var err error
	if sw.Status >= 500 {
		err = errStatus
	}
	held.exitAll(err)
	*sw = statuswriter.Writer{}
	writers.Put(sw)
}

// serve runs the next handler; on a panic it ends the entries traced, and
// the panic goes on (the writer is then not pooled again).
func (g *Guard) serve(held *admitted, sw *statuswriter.Writer, r *http.Request) {
	returned := false
	defer func() {
		if !returned {
			held.exitAll(ErrPanic)
		}
	}()
	g.next.ServeHTTP(sw, r)
	returned = true
}

// enter enters one resource with its rules' arguments, adding the entry to
// held when admitted.
func (g *Guard) enter(st *state, held *admitted, r *http.Request, name string, mode ResourceMode) *runtime.BlockError {
	res := g.resource(name)
	var e runtime.Entry
	var be *runtime.BlockError
	if rules := st.rules[name]; len(rules) != 0 && res.HasParamRules() {
		var buf [maxArgs]runtime.ParamArg
		args := buf[:0]
		for _, c := range rules {
			args = append(args, c.arg(r, mode))
		}
		be = res.EntryArgsTo(&e, r.Context(), args)
	} else {
		be = res.EntryTo(&e, r.Context())
	}
	if be == nil {
		held.add(&e)
	}
	return be
}
