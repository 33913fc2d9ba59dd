package annotate

import "github.com/sentinelgen/sentinelgen/internal/suggest"

// didYouMean formats suggest.Closest's answer as a message suffix.
func didYouMean(name string, candidates []string) string {
	if c := suggest.Closest(name, candidates); c != "" {
		return "; did you mean " + c + "?"
	}
	return ""
}
