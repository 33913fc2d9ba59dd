// Package datasource feeds rules from live sources into the runtime and
// writes rule changes back: it is sentinel-datasource-extension to package
// rules' rule managers. Package rules reads, checks and applies rule
// documents; this package decides when a document is read and what happens
// when it is bad.
//
//   - Watch runs a Source (a file: package datasource/file; etcd: the
//     nested module datasource/etcd; or your own) and puts every good
//     update in force with one rules.Update, serialized with every other
//     source and every dashboard push. A watcher owns rule kinds (the kinds
//     its source has held, or WithKinds): an update replaces only those,
//     and of them only the ones it changed. A bad update is rejected: the last
//     good rules stay, the Watcher logs the positioned errors and returns
//     them from LastError. Watch fails fast when the first update is bad,
//     so a service with broken rules does not start.
//   - Property holds the last good set of a Watcher and tells listeners.
//   - Persist writes every change made through the runtime API back to a
//     WritableSource, so it survives a restart. Watcher.Persist writes back
//     to the store the watcher reads, and never writes back the rules that
//     came from it; with WithKinds, only the kinds the watcher owns.
//
// A typical service:
//
//	w, err := file.Watch(ctx, "rules.toml") // or datasource.Watch(ctx, src)
//	if err != nil {
//		return err // the rules at start are bad: fail fast
//	}
//	stop, err := w.Persist() // optional: API changes go back to the file
package datasource
