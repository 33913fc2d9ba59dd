module example.com/analyzertest

go 1.26.0

require github.com/sentinelgen/sentinelgen v0.0.0

replace github.com/sentinelgen/sentinelgen => ../../../
