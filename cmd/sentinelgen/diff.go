package main

import (
	"fmt"
	"strconv"
	"strings"
)

// lcsCells bounds the table of the line diff (the changed middle of the two
// files, lines times lines): beyond it the middle is shown as removed and
// added whole, which is still a correct diff, only a longer one.
const lcsCells = 1 << 22

// diffContext is the number of unchanged lines around each hunk, as diff -u
// prints them.
const diffContext = 3

// diffOp is one line of an edit script: ' ' kept, '-' only in the old
// text, '+' only in the new one.
type diffOp struct {
	kind byte
	line string
	// a and b are the line's numbers (0-based) in the old and new text
	// (for '+' a is where it goes in the old one, and the reverse for '-').
	a, b int
}

// splitLines splits text into lines without their newlines; a last line
// without one is kept.
func splitLines(text []byte) []string {
	s := string(text)
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\n")
	}
	return lines
}

// firstDifference says where old and new part: the 1-based line and the
// two versions of it ("" and false for a side that has ended there). ok is
// false when they are equal.
func firstDifference(old, new []byte) (line int, have, want string, haveOK, wantOK, ok bool) {
	a, b := splitLines(old), splitLines(new)
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	if i == len(a) && i == len(b) {
		return 0, "", "", false, false, false
	}
	if i < len(a) {
		have, haveOK = a[i], true
	}
	if i < len(b) {
		want, wantOK = b[i], true
	}
	return i + 1, have, want, haveOK, wantOK, true
}

// editScript is a shortest line edit from a to b when the changed middle is
// small enough for the LCS table, otherwise a correct longer one.
func editScript(a, b []string) []diffOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []diffOp
	for i := range pre {
		ops = append(ops, diffOp{' ', a[i], i, i})
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	n, m := len(ma), len(mb)
	if n*m <= lcsCells {
		// lcs[i*(m+1)+j] is the LCS length of ma[i:] and mb[j:].
		lcs := make([]int32, (n+1)*(m+1))
		for i := n - 1; i >= 0; i-- {
			for j := m - 1; j >= 0; j-- {
				if ma[i] == mb[j] {
					lcs[i*(m+1)+j] = lcs[(i+1)*(m+1)+j+1] + 1
				} else {
					lcs[i*(m+1)+j] = max(lcs[(i+1)*(m+1)+j], lcs[i*(m+1)+j+1])
				}
			}
		}
		i, j := 0, 0
		for i < n || j < m {
			switch {
			case i < n && j < m && ma[i] == mb[j]:
				ops = append(ops, diffOp{' ', ma[i], pre + i, pre + j})
				i, j = i+1, j+1
			case i < n && (j == m || lcs[(i+1)*(m+1)+j] >= lcs[i*(m+1)+j+1]):
				// Removals before additions, as diff -u prints a change.
				ops = append(ops, diffOp{'-', ma[i], pre + i, pre + j})
				i++
			default:
				ops = append(ops, diffOp{'+', mb[j], pre + i, pre + j})
				j++
			}
		}
	} else {
		for i, l := range ma {
			ops = append(ops, diffOp{'-', l, pre + i, pre})
		}
		for j, l := range mb {
			ops = append(ops, diffOp{'+', l, pre + n, pre + j})
		}
	}
	for k := range suf {
		ops = append(ops, diffOp{' ', a[len(a)-suf+k], len(a) - suf + k, len(b) - suf + k})
	}
	return ops
}

// unifiedDiff renders the change from old (named oldName) to new (newName)
// as diff -u does, "" when they are equal.
func unifiedDiff(oldName, newName string, old, new []byte) string {
	ops := editScript(splitLines(old), splitLines(new))
	var b strings.Builder
	for k := 0; k < len(ops); {
		if ops[k].kind == ' ' {
			k++
			continue
		}
		// A hunk: from diffContext lines before this change to diffContext
		// after the last change that is not more than 2*diffContext
		// unchanged lines from the one before it.
		start := max(0, k-diffContext)
		end := k
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*diffContext {
				end = min(end+diffContext, len(ops))
				break
			}
			end = run
		}
		if b.Len() == 0 {
			fmt.Fprintf(&b, "--- %s\n+++ %s\n", oldName, newName)
		}
		oldLines, newLines := 0, 0
		for _, op := range ops[start:end] {
			if op.kind != '+' {
				oldLines++
			}
			if op.kind != '-' {
				newLines++
			}
		}
		fmt.Fprintf(&b, "@@ -%s +%s @@\n", hunkRange(ops[start].a, oldLines), hunkRange(ops[start].b, newLines))
		for _, op := range ops[start:end] {
			b.WriteByte(op.kind)
			b.WriteString(op.line)
			b.WriteByte('\n')
		}
		k = end
	}
	return b.String()
}

// hunkRange is diff -u's "start,count", with the start 1-based, or the line
// before an empty range.
func hunkRange(start, count int) string {
	if count == 0 {
		return strconv.Itoa(start) + ",0"
	}
	if count == 1 {
		return strconv.Itoa(start + 1)
	}
	return strconv.Itoa(start+1) + "," + strconv.Itoa(count)
}
