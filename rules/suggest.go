package rules

import "strings"

// suggest returns the candidate closest to word when it is close enough to
// be a likely typo (a different case, or an edit distance of at most a third
// of the word), else "".
func suggest(word string, candidates []string) string {
	best, bestDist := "", len(word)/3+1
	lw := strings.ToLower(word)
	for _, c := range candidates {
		if c == "" {
			continue
		}
		d := editDistance(lw, strings.ToLower(c))
		if d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance counts the insertions, deletions, substitutions and swaps of
// neighbouring bytes that turn a into b (optimal string alignment distance;
// field names are ASCII). Swaps count once because "flwo" is a typo of
// "flow" as much as "flo" is.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
