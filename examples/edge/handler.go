package edge

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/sentinelgen/sentinelgen/adapters/httpguard"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// Resource names of the routes, as the rules name them.
const (
	GetOrder    = "GET /orders/{id}"
	CreateOrder = "POST /orders"
	ListOrders  = "GET /orders"
)

// OriginHeader names the caller, for authority rules and per-caller limits.
// Clients can set it to anything: a real service trusts it only from its
// proxy.
const OriginHeader = "X-Caller"

// NewHandler returns the service's routes, each guarded by httpguard, and an
// unguarded health check.
func NewHandler(s *Store) http.Handler {
	mux := http.NewServeMux()
	g := httpguard.New(httpguard.WithOriginHeader(OriginHeader))
	// The order ID is argument 0 of GET /orders/{id}, so a hot-parameter
	// rule with paramIdx 0 limits reads of one order.
	g.HandleFunc(mux, GetOrder, s.getOrder, httpguard.WithParams(httpguard.PathValue("id")))
	g.HandleFunc(mux, CreateOrder, s.createOrder)
	g.HandleFunc(mux, ListOrders, s.listOrders)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	return mux
}

func (s *Store) getOrder(w http.ResponseWriter, r *http.Request) {
	o, err := s.Get(r.Context(), r.PathValue("id"))
	var be *runtime.BlockError
	switch {
	case errors.As(err, &be):
		// The store read was refused (the chain rule): answer as the route's
		// own block would.
		httpguard.DefaultBlockHandler(w, r, be)
	case errors.Is(err, ErrNotFound):
		http.Error(w, err.Error(), http.StatusNotFound)
	case err != nil:
		http.Error(w, err.Error(), http.StatusInternalServerError)
	default:
		writeJSON(w, http.StatusOK, o)
	}
}

func (s *Store) createOrder(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Item string `json:"item"`
		Qty  int    `json:"qty"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Item == "" || in.Qty <= 0 {
		http.Error(w, "want {\"item\": non-empty, \"qty\": > 0}", http.StatusBadRequest)
		return
	}
	writeJSON(w, http.StatusCreated, s.Add(in.Item, in.Qty))
}

// listOrders reads every order through the store, so reads made through
// this route are not those of the chain rule on GET /orders/{id}.
func (s *Store) listOrders(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	ids := make([]string, 0, len(s.orders))
	for id := range s.orders {
		ids = append(ids, id)
	}
	s.mu.Unlock()
	out := []Order{}
	for _, id := range ids {
		o, err := s.Get(r.Context(), id)
		if err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		out = append(out, o)
	}
	writeJSON(w, http.StatusOK, out)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
