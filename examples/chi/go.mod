module github.com/sentinelgen/sentinelgen/examples/chi

go 1.26.0

require github.com/sentinelgen/sentinelgen v0.0.0

require github.com/go-chi/chi/v5 v5.5.0

replace github.com/sentinelgen/sentinelgen => ../..
