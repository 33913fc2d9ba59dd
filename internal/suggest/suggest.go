// Package suggest proposes the name a user most likely meant, for the "did
// you mean" hints of directive checks, rule readers and the linter, so that
// they all suggest alike.
package suggest

import "strings"

// Closest returns the candidate nearest to word by edit distance, ignoring
// case, when it is close enough to be a plausible typo: at most a third of
// the word's length in edits, and always at least one. A candidate equal to
// word, or empty, is no suggestion. Among equally near candidates the first
// in byte order wins, so that the answer does not depend on the order the
// candidates come in (names of a scope, keys of a map).
func Closest(word string, candidates []string) string {
	limit := max(1, len(word)/3)
	best, bestDist := "", limit+1
	lower := strings.ToLower(word)
	for _, c := range candidates {
		if c == word || c == "" {
			continue
		}
		if d := Distance(lower, strings.ToLower(c)); d < bestDist || d == bestDist && c < best {
			best, bestDist = c, d
		}
	}
	return best
}

// Distance counts the insertions, deletions, substitutions and swaps of
// adjacent bytes that turn a into b (the optimal string alignment
// distance): a swap ("flwo" for "flow") is one typo, not two.
func Distance(a, b string) int {
	// rows[2] is the current row, rows[1] the previous, rows[0] the one before.
	rows := [3][]int{make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)}
	for j := range rows[1] {
		rows[1][j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur, prev, prev2 := rows[2], rows[1], rows[0]
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		rows[0], rows[1], rows[2] = prev, cur, prev2
	}
	return rows[1][len(b)]
}

// Prefixed returns the shortest candidate that word is a prefix of, or that
// is a prefix of word, ignoring case (the first in byte order among equally
// short ones), for a key written short or run on: slowRatio for
// slowRatioThreshold. Words and candidates under four letters match
// nothing. It suits a fixed vocabulary of keys; among a scope's identifiers
// a prefix is often a different thing (Ping and pingBlocked).
func Prefixed(word string, candidates []string) string {
	if len(word) < 4 {
		return ""
	}
	lower := strings.ToLower(word)
	best := ""
	for _, c := range candidates {
		if c == word || len(c) < 4 {
			continue
		}
		lc := strings.ToLower(c)
		if !strings.HasPrefix(lc, lower) && !strings.HasPrefix(lower, lc) {
			continue
		}
		if best == "" || len(c) < len(best) || len(c) == len(best) && c < best {
			best = c
		}
	}
	return best
}
