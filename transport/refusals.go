package transport

import (
	"net/http"
	"time"
)

// PushRefusal is one push the command center refused.
type PushRefusal struct {
	// At is when it was refused.
	At time.Time
	// Kind is the kind of rules the push named (flow, degrade, system,
	// authority, paramFlow, gw-flow, gw-api-group), or the command's name
	// when it was refused before its kind was read.
	Kind string
	// Caller is the client's address (host:port).
	Caller string
	// Reason is what the caller was answered.
	Reason string
}

// PushRefusals tells how many pushes the command center refused since it
// started, and the last one. The dashboard's degrade, system, authority and
// gateway pages show a push as saved whatever the answer (their
// controllers ignore it), so a refusal is visible only here, in the log and
// where this is shown (the built-in page, the metrics).
type PushRefusals struct {
	// Count is the number of refused pushes.
	Count int64
	// Last is the latest refusal; its At is zero when Count is 0.
	Last PushRefusal
}

// Refusals returns the pushes refused so far.
func (s *Server) Refusals() PushRefusals {
	s.refusalMu.Lock()
	defer s.refusalMu.Unlock()
	return s.refusals
}

// refused records and logs a refused push of kind from r's caller.
func (s *Server) refused(r *http.Request, kind, reason string) {
	s.refusalMu.Lock()
	s.refusals.Count++
	s.refusals.Last = PushRefusal{At: time.Now(), Kind: kind, Caller: r.RemoteAddr, Reason: reason}
	n := s.refusals.Count
	s.refusalMu.Unlock()
	s.log.Warn("sentinel transport: refused a rule push; the rules in force are unchanged",
		"caller", r.RemoteAddr, "kind", kind, "reason", reason, "refused", n)
}
