// Package zookeeper reads Sentinel rules from ZooKeeper nodes and writes
// them back, as Java Sentinel services keep them with
// sentinel-datasource-zookeeper: one node per rule kind (flow, degrade,
// param-flow, system, authority, gw-flow, gw-api-group), each holding
// Sentinel's JSON unchanged, so a Java service and a Go service can share a
// node.
//
// A Source implements datasource.Source and datasource.WritableSource:
//
//	src, err := zookeeper.NewSource(zookeeper.Config{
//		Servers: []string{"127.0.0.1:2181"},
//		App:     "orders",
//	})
//	if err != nil { ... }
//	defer src.Close()
//	w, err := datasource.Watch(ctx, src, datasource.WithInitialTimeout(5*time.Second))
//
// The default nodes sit under DefaultRoot, "/sentinel_rule_config", the
// root of the Sentinel dashboard's ZooKeeper rule sample: the flow rules in
// "/sentinel_rule_config/<app>", the very node that sample publishes to, so
// its dashboard and a Go service share them; the other kinds, which the
// sample has no node for, in siblings named with the suffixes of the
// dashboard's Nacos dataIds: "<app>-degrade-rules", "<app>-param-rules",
// "<app>-system-rules", "<app>-authority-rules", "<app>-gw-flow-rules",
// "<app>-gw-api-group-rules". Config.Root moves them all; Config.Paths
// overrides any node, for example "/SENTINEL_GROUP/orders-flow-rules" for
// a Java service that uses ZookeeperDataSource's group and dataId
// constructor (its path is "/group/dataId").
//
// ZooKeeper's watches fire once: the source arms a node's watch again on
// every read, and reads every node again when its session comes back, so no
// change is missed. Write is a compare-and-swap on each node's version.
//
// It is a module of its own so that the main module does not depend on the
// ZooKeeper client.
package zookeeper
