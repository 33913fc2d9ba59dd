// Package nacos reads Sentinel rules from Nacos configuration and writes
// them back, as Java Sentinel services keep them: one dataId per rule kind
// (flow, degrade, param-flow, system, authority, gw-flow, gw-api-group) in
// one group (SENTINEL_GROUP by default) of a namespace, each holding
// Sentinel's JSON unchanged, so a Java service and a Go service can share a
// dataId.
//
// A Source implements datasource.Source and datasource.WritableSource:
//
//	src, err := nacos.NewSource(nacos.Config{
//		ServerAddrs: []string{"127.0.0.1:8848"},
//		Namespace:   "prod",
//		App:         "orders",
//	})
//	if err != nil { ... }
//	defer src.Close()
//	w, err := datasource.Watch(ctx, src, datasource.WithInitialTimeout(5*time.Second))
//
// The default dataIds follow the Sentinel dashboard's Nacos rule publisher
// (NacosConfigUtil): "<app>-flow-rules", "<app>-degrade-rules",
// "<app>-param-rules", "<app>-system-rules"; the kinds it names no suffix
// for use "<app>-authority-rules", "<app>-gw-flow-rules" and
// "<app>-gw-api-group-rules". Config.DataIDs overrides any of them.
//
// It is a module of its own so that the main module does not depend on the
// Nacos SDK.
package nacos
