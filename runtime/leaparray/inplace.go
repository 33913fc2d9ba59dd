package leaparray

import (
	"fmt"
	"sync/atomic"
)

// Statistics built inside memory the caller allocates. A first load of
// 100k rules naming new resources makes 100k second-level windows and
// gauges; made one by one (NewSecond, Window.NewGauge) each resource's
// cost four objects, two of them with pointers, and their allocation and
// the garbage collector's scanning of them were most of such a load.
// NewSecondIn lets the caller put the window and the gauge in one object of
// its own (with the resource handle, say), and holds the counter words of
// both in one more, pointer-free.

// NewSecondIn makes *w the window NewSecond(counters) returns and *g the
// gauge w.NewGauge then returns, with one allocation for the words of both.
// w and g must be zero values not yet in use; the caller allocates them,
// typically together inside a larger object. It panics where NewSecond
// does.
func NewSecondIn(w *Window, g *Gauge, counters int) {
	NewSecondOn(w, g, counters, alignedWords(SecondWords(counters)))
}

// SecondWords is how many words NewSecondOn takes for a window of counters
// counters and its gauge: a whole number of cache lines.
func SecondWords(counters int) int {
	cfg := secondConfig(counters)
	if err := cfg.check(); err != nil {
		panic(err)
	}
	return lines(cfg.layout().words) + wordsPerLine
}

// AlignedWords returns n zero words starting on a cache line, in one
// pointer-free allocation: cut in pieces of SecondWords(counters) words,
// it holds the words of many windows for NewSecondOn.
func AlignedWords(n int) []atomic.Uint64 { return alignedWords(n) }

// NewSecondOn is NewSecondIn with the words given: buf must be
// SecondWords(counters) zero words starting on a cache line (such as a
// piece of AlignedWords' buffer), used by nothing else; NewSecondOn panics
// otherwise.
func NewSecondOn(w *Window, g *Gauge, counters int, buf []atomic.Uint64) {
	cfg := secondConfig(counters)
	if err := cfg.check(); err != nil {
		panic(err)
	}
	// The window's words, padded to whole lines, then the gauge's shared
	// line: every stripe keeps lines of its own.
	l := cfg.layout()
	at := lines(l.words)
	if len(buf) != at+wordsPerLine || !onLine(&buf[0]) {
		panic(fmt.Sprintf("leaparray: NewSecondOn needs %d words starting on a cache line, got %d", at+wordsPerLine, len(buf)))
	}
	w.build(cfg, l, buf[:l.words:l.words])
	g.build(&buf[at])
	w.gauge.Store(g) // a new window: no processor has claimed a stripe to pass on
}
