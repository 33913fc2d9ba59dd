package echoguard_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/labstack/echo/v4"

	"github.com/sentinelgen/sentinelgen/adapters/echoguard"
	"github.com/sentinelgen/sentinelgen/adapters/httpguard"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// One order may be read once a second: a second read of the same order is
// refused with 429, another order is served.
func Example() {
	e := echo.New()
	e.Use(echoguard.Middleware(httpguard.WithParams(httpguard.PathValue("id"))))
	e.GET("/orders/:id", func(c echo.Context) error { return c.String(http.StatusOK, "order "+c.Param("id")) })
	defer runtime.LoadRules(runtime.Rules{})
	if err := runtime.LoadRules(runtime.Rules{ParamFlow: []runtime.ParamFlowRule{{
		Resource: "GET /orders/:id", ParamIdx: 0, Count: 1,
	}}}); err != nil {
		panic(err)
	}
	srv := httptest.NewServer(e)
	defer srv.Close()
	for _, path := range []string{"/orders/1", "/orders/1", "/orders/2"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			panic(err)
		}
		resp.Body.Close()
		fmt.Println(path, resp.StatusCode)
	}
	// Output:
	// /orders/1 200
	// /orders/1 429
	// /orders/2 200
}
