package rules

import "errors"

// ParseDocuments parses every document and merges the results in order: the
// set that a source delivering several documents at once (a directory, an
// etcd prefix) stands for. All documents are parsed even when one fails, and
// every error is returned, joined; on error the Set is empty, so a caller
// putting the result in force never applies part of it.
func ParseDocuments(docs []Document) (Set, error) {
	set, err := parseEach(docs, Parse)
	if err != nil {
		return Set{}, err
	}
	return set, nil
}

// parseEach reads every item with parse, even after one fails, and returns
// the merge, in order, of the sets parse returned, with the errors joined.
// Parse and Load return an empty set with an error, so the merge holds the
// items that read cleanly; loadPath returns the part of a directory that did.
func parseEach[T any](items []T, parse func(T) (Set, error)) (Set, error) {
	var (
		set  Set
		errs []error
	)
	for _, it := range items {
		s, err := parse(it)
		set = set.Merge(s)
		errs = append(errs, err)
	}
	return set, errors.Join(errs...)
}

// ParseAll is LoadAll for documents read from a store rather than files:
// every document is parsed, and the Set holds every rule that has no problem
// of its own, also from documents with invalid rules, while the error joins
// the problems of all of them. A non-nil error means the set is partial:
// report it, never Apply it.
func ParseAll(docs []Document) (Set, error) {
	return parseEach(docs, parsePartial)
}
