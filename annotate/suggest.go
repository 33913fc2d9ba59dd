package annotate

import "strings"

// closest returns the candidate nearest to name by edit distance (ignoring
// case), or "" when none is near enough to be a plausible typo: at most a
// third of the name's length, and at least one edit.
func closest(name string, candidates []string) string {
	limit := max(1, len(name)/3)
	best, bestDist := "", limit+1
	lower := strings.ToLower(name)
	for _, c := range candidates {
		if c == name {
			continue
		}
		if d := editDistance(lower, strings.ToLower(c)); d < bestDist || d == bestDist && best != "" && c < best {
			best, bestDist = c, d
		}
	}
	return best
}

// didYouMean formats closest's answer as a message suffix.
func didYouMean(name string, candidates []string) string {
	if c := closest(name, candidates); c != "" {
		return "; did you mean " + c + "?"
	}
	return ""
}

// editDistance counts the insertions, deletions, substitutions and swaps
// of adjacent bytes that turn a into b (the optimal string alignment
// distance): a swap is one typo, not two.
func editDistance(a, b string) int {
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
