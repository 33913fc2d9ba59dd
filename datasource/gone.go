package datasource

import "errors"

// ErrGone marks a report (see ReportError; test with errors.Is) that the
// source's rule document is gone: the rules file was deleted, the etcd key
// was deleted, or every key under an etcd prefix was. It is one meaning for
// every source: by default the Watcher keeps the last good rules in force
// and reports the loss (LastError, Rejected, an Error record), as for any
// other problem with the source, so a document deleted by mistake or while
// it is being replaced lifts no rule. WithGoneMeansEmpty makes it apply an
// empty rule set instead. A document that comes back is applied as usual.
//
// What is gone is the whole document, or all of them: a prefix that still
// holds other keys pushes those, and their merge replaces the rules in force
// (a deleted kind's key removes that kind's rules). A source with nothing
// there when its Watch starts pushes or reports as it documents (the file
// source reports a missing file; the etcd source pushes an empty set).
var ErrGone = errors.New("the rules document is gone; the last good rules stay in force until it is back")

// WithGoneMeansEmpty makes a Watcher apply an empty rule set when its source
// reports its document gone (ErrGone), lifting every rule it put in force,
// instead of keeping the last good rules.
func WithGoneMeansEmpty() WatchOption {
	return watchOption(func(c *watchConfig) { c.goneMeansEmpty = true })
}

// applyGone handles a report of a gone document under WithGoneMeansEmpty: it
// puts an empty set in force and reports true. Any other report, or a gone
// document without the option, it leaves to report (false).
func (w *Watcher) applyGone(err error) bool {
	if !w.cfg.goneMeansEmpty || !errors.Is(err, ErrGone) {
		return false
	}
	w.cfg.logger.Info("rules document gone; applying an empty rule set (WithGoneMeansEmpty)", "source", w.name, "error", err.Error())
	w.push(nil)
	return true
}
