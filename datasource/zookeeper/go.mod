module github.com/sentinelgen/sentinelgen/datasource/zookeeper

go 1.26.0

replace github.com/sentinelgen/sentinelgen => ../..

require (
	github.com/go-zookeeper/zk v1.0.4
	github.com/sentinelgen/sentinelgen v0.0.0-00010101000000-000000000000
)

require github.com/BurntSushi/toml v1.6.0 // indirect
