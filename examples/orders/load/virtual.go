package load

import (
	"container/heap"
	"context"
	"time"
)

// virtualTimeline runs coroutines on simulated time. Exactly one of them runs
// at any moment: a coroutine runs until it sleeps or returns, then the
// scheduler resumes the one with the earliest wake-up time (ties in the order
// they were scheduled) after moving the clock to that time. Every run with the
// same inputs therefore makes the same calls in the same order at the same
// simulated instants, whatever the machine's load.
//
// Only the running coroutine and, between two of them, the scheduler touch
// the fields; the channel hand-offs order those accesses.
type virtualTimeline struct {
	now     time.Duration
	setTime func(time.Duration) // moves the runtime's clock along with now
	seq     uint64
	queue   wakeQueue
	parked  chan struct{} // the running coroutine sends when it sleeps or returns
}

func newVirtualTimeline(start time.Duration, setTime func(time.Duration)) *virtualTimeline {
	setTime(start)
	return &virtualTimeline{now: start, setTime: setTime, parked: make(chan struct{})}
}

func (v *virtualTimeline) Now() time.Duration { return v.now }

// Sleep parks the running coroutine until the clock reaches now+d. The
// context is not consulted: nothing cancels a simulated run halfway.
func (v *virtualTimeline) Sleep(_ context.Context, d time.Duration) error {
	resume := v.schedule(v.now + max(d, 0))
	v.parked <- struct{}{}
	<-resume
	return nil
}

// Go schedules f to start at the current time, after the running coroutine
// parks and after every coroutine already due at this time.
func (v *virtualTimeline) Go(f func()) {
	resume := v.schedule(v.now)
	go func() {
		<-resume
		f()
		v.parked <- struct{}{}
	}()
}

// run starts main as the first coroutine and returns when no coroutine is
// left: main and everything it started have returned.
func (v *virtualTimeline) run(main func()) {
	v.Go(main)
	for v.queue.Len() > 0 {
		w := heap.Pop(&v.queue).(wakeup)
		if w.at > v.now {
			v.now = w.at
			v.setTime(w.at)
		}
		w.resume <- struct{}{}
		<-v.parked
	}
}

func (v *virtualTimeline) schedule(at time.Duration) chan struct{} {
	v.seq++
	w := wakeup{at: at, seq: v.seq, resume: make(chan struct{})}
	heap.Push(&v.queue, w)
	return w.resume
}

// wakeup is a parked coroutine and the time it resumes at.
type wakeup struct {
	at     time.Duration
	seq    uint64 // order of scheduling, to break ties deterministically
	resume chan struct{}
}

// wakeQueue is a min-heap of wake-ups by (at, seq).
type wakeQueue []wakeup

func (q wakeQueue) Len() int { return len(q) }
func (q wakeQueue) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].seq < q[j].seq
}
func (q wakeQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *wakeQueue) Push(x any)   { *q = append(*q, x.(wakeup)) }
func (q *wakeQueue) Pop() any {
	old := *q
	w := old[len(old)-1]
	*q = old[:len(old)-1]
	return w
}
