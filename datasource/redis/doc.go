// Package redis reads Sentinel rules from Redis and writes them back, as
// Sentinel's Java RedisDataSource keeps them: the rules of each kind (flow,
// degrade, param-flow, system, authority, gw-flow, gw-api-group) in a string
// key holding Sentinel's JSON unchanged, and every change announced on a
// pub/sub channel of that kind, so a Java service and a Go service can share
// a key.
//
// A Source implements datasource.Source and datasource.WritableSource:
//
//	src, err := redis.NewSource(redis.Config{Addr: "127.0.0.1:6379", App: "orders"})
//	if err != nil { ... }
//	defer src.Close()
//	w, err := datasource.Watch(ctx, src, datasource.WithInitialTimeout(5*time.Second))
//
// Sentinel gives its Redis data source no default names: each Java service
// passes a rule key and a channel. The defaults here are the names
// Sentinel's dashboard gives the Nacos dataIds (NacosConfigUtil):
// "<app>-flow-rules", "<app>-degrade-rules", "<app>-param-rules",
// "<app>-system-rules", and "<app>-authority-rules", "<app>-gw-flow-rules",
// "<app>-gw-api-group-rules" for the kinds it names no suffix for; each
// channel is its key's name followed by "-channel". Config.Keys and
// Config.Channels override any of them, for example with the names a Java
// service already uses.
//
// A writer changes a kind the way Sentinel documents for its Java data
// source, in one transaction:
//
//	MULTI
//	SET orders-flow-rules '[{"resource":"createOrder","grade":1,"count":20}]'
//	PUBLISH orders-flow-rules-channel '[{"resource":"createOrder","grade":1,"count":20}]'
//	EXEC
//
// Java subscribers apply the message's text; this source reads the key
// again on every message (see Source.Watch), so it follows writers that
// publish the rules as well as writers that publish only a notice.
//
// Behind Redis Sentinel, Config.SentinelAddrs and Config.MasterName take
// the place of Config.Addr.
//
// It is a module of its own so that the main module does not depend on the
// Redis client.
package redis
