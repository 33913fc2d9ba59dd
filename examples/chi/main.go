// Command chi is a small service on the chi router whose routes httpguard
// guards: chi's patterns are ServeMux's ("/orders/{id}"), so Guard.Wrap
// takes a route's pattern as its resource and httpguard.PathValue reads its
// wildcards, which chi sets with Request.SetPathValue.
//
//	go run . -addr 127.0.0.1:8080
//	curl -i 127.0.0.1:8080/orders/7
package main

import (
	"flag"
	"io"
	"log"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/sentinelgen/sentinelgen/adapters/httpguard"
	"github.com/sentinelgen/sentinelgen/runtime"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	flag.Parse()
	// Each order may be read twice a second; every route 100 times.
	if err := runtime.LoadRules(runtime.Rules{
		Flow:      []runtime.FlowRule{{Resource: "GET /orders/{id}", Count: 100}},
		ParamFlow: []runtime.ParamFlowRule{{Resource: "GET /orders/{id}", ParamIdx: 0, Count: 2}},
	}); err != nil {
		log.Fatal(err)
	}
	log.Printf("listening on %s", *addr)
	log.Fatal(http.ListenAndServe(*addr, newRouter(httpguard.New())))
}

// newRouter registers the service's routes on a chi router, each guarded by
// the resource named after its method and pattern.
func newRouter(g *httpguard.Guard) http.Handler {
	r := chi.NewRouter()
	route := func(method, pattern string, h http.HandlerFunc, opts ...httpguard.Option) {
		r.Method(method, pattern, g.Wrap(method+" "+pattern, h, opts...))
	}
	route(http.MethodGet, "/orders/{id}", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "order "+chi.URLParam(r, "id")+"\n")
	}, httpguard.WithParams(httpguard.PathValue("id")))
	route(http.MethodPost, "/orders", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusCreated)
	})
	r.Route("/admin", func(r chi.Router) {
		r.Method(http.MethodGet, "/health", g.Wrap("GET /admin/health", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.WriteString(w, "ok\n")
		})))
	})
	return r
}
