package rules

// Imported under another name: suggest is this package's own helper.
import names "github.com/sentinelgen/sentinelgen/internal/suggest"

// suggest returns the candidate closest to word when it is close enough to
// be a likely typo, else "": the suggestion the directive checks and the
// linter make too (see suggest.Closest).
func suggest(word string, candidates []string) string {
	return names.Closest(word, candidates)
}

// suggestKey is suggest for a field's key, which may also be written short
// or run on (slowRatio for slowRatioThreshold).
func suggestKey(key string, candidates []string) string {
	if s := suggest(key, candidates); s != "" {
		return s
	}
	return names.Prefixed(key, candidates)
}
