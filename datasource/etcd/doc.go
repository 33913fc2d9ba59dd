// Package etcd is a rules source backed by etcd: it watches one key, or every
// key under a prefix, and hands the documents stored there (the TOML and
// Sentinel JSON formats of package rules) to datasource.Watch, which
// validates each update and keeps the last good rules in force when one is
// bad. It is also a datasource.WritableSource: Watcher.Persist writes rule
// changes made through the runtime API back to etcd with a compare-and-swap
// on the revision.
//
// A typical service:
//
//	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{"10.0.0.1:2379"}})
//	...
//	src := etcd.NewSource(cli, "/sentinel/orders/", etcd.WithPrefix())
//	w, err := datasource.Watch(ctx, src) // fails if the rules in etcd are bad at start
//	...
//	stop, err := w.Persist() // optional: API changes go back to etcd
//	...
//	defer stop()
//
// While etcd is unreachable the rules in force stay as they are. The source
// resumes its watch from the last revision it saw when etcd is back, so no
// update is missed and none is applied twice; if that revision has been
// compacted meanwhile it reads everything again and pushes only if something
// changed. A hung server is found by a periodic read with a deadline
// (WithProbe) and reported, the rules staying; a server that came back with
// another history (an empty data directory, a restored backup) is read
// again and followed. A deleted key is a gone document (datasource.ErrGone):
// the last good rules stay unless the watcher was started with
// datasource.WithGoneMeansEmpty.
package etcd
