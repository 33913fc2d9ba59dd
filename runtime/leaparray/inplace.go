package leaparray

// Statistics built inside memory the caller allocates. A first load of
// 100k rules naming new resources makes 100k second-level windows and
// gauges; made apart (NewSecond, Window.NewGauge), a window and its gauge
// take four objects, two of them with pointers, and allocating them and
// the garbage collector's work on them were most of such a load.
// NewSecondIn lets the caller put the window and the gauge in one object of
// its own (with the resource handle, say), and holds the counter words of
// both in one more, pointer-free.

// NewSecondIn makes *w the window NewSecond(counters) returns and *g the
// gauge w.NewGauge then returns, with one allocation for the words of both.
// w and g must be zero values not yet in use; the caller allocates them,
// typically together inside a larger object. It panics where NewSecond
// does.
func NewSecondIn(w *Window, g *Gauge, counters int) {
	cfg := secondConfig(counters)
	if err := cfg.check(); err != nil {
		panic(err)
	}
	// The window's words, padded to whole lines, then the gauge's shared
	// line: every stripe keeps lines of its own, and the total is a whole
	// number of lines, which alignedWords gets aligned without padding.
	// (One object of at most 512 bytes for 12 counters: the garbage
	// collector marks pointers to such objects fastest.)
	l := cfg.layout()
	at := lines(l.words)
	buf := alignedWords(at + wordsPerLine)
	w.build(cfg, l, buf[:l.words:l.words])
	g.shared = &buf[at]
	g.procs.Init()
	w.gauge.Store(g) // a new window: no processor has claimed a stripe to pass on
}
