package gateway

import (
	"net/http"

	"github.com/sentinelgen/sentinelgen/runtime"
)

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

func (a *admitted) exitAll() {
	for i := len(a.more) - 1; i >= 0; i-- {
		a.more[i].Exit()
	}
	for i := a.n - 1; i >= 0; i-- {
		a.buf[i].Exit()
	}
}

// ServeHTTP enters the request's resources in order (route, then APIs in
// definition order) and serves it when all admit it; a block ends the
// entries already made.
func (g *Guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	st := current.Load()
	var held admitted
	defer held.exitAll()
	if g.route != nil {
		if name := g.route(r); name != "" {
			if be := g.enter(st, &held, r, name, ModeRoute); be != nil {
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
			g.block(w, r, be)
			return
		}
	}
	g.next.ServeHTTP(w, r)
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
