package load

import (
	"fmt"
	"strings"

	"github.com/sentinelgen/sentinelgen/examples/orders"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// Second is what the callers got back for the calls that arrived in one
// second of the run.
type Second struct {
	At             int // seconds since the start: 0 is the first second
	Offered        int // calls that arrived
	Passed         int // orders confirmed by the service itself
	BlockedFlow    int // refused by the QPS rule (blockHandler answered)
	BlockedDegrade int // refused by the open breaker (blockHandler answered)
	Fallback       int // failed and answered by the fallback (pending orders)
	Invalid        int // failed validation, passed through unchanged (ignore=)
	Unexpected     int // any other answer; always 0 unless the example is broken
	// Runtime is createOrder's statistics as the runtime saw this second,
	// read just before it ended: its Pass equals Admitted and its Block the
	// two blocked counts when the report and the runtime agree.
	Runtime runtime.Snapshot
	// Breaker is the breaker's state when the second began followed by every
	// state it moved to during the second.
	Breaker []string
}

// Admitted is the number of calls the rules let through to the service.
func (s Second) Admitted() int { return s.Passed + s.Fallback + s.Invalid }

// Header names the columns of String.
func Header() string {
	return fmt.Sprintf("%4s %7s %6s %6s %8s %9s %8s %7s  %s",
		"sec", "offered", "pass", "flow", "degrade", "fallback", "invalid", "avg-rt", "breaker")
}

// Legend says what each column of Header holds, one line per column.
func Legend() string {
	return `  sec       the second of the run
  offered   createOrder calls that arrived
  pass      orders the service confirmed
  flow      refused by the QPS flow rule (the blockHandler answered)
  degrade   refused by the open circuit breaker (the blockHandler answered)
  fallback  failed downstream and answered by the fallback
  invalid   failed validation and passed through unchanged (ignore=)
  avg-rt    mean response time of the calls that completed
  breaker   the breaker's state at the start of the second, then each change`
}

// String formats the second as one line under Header.
func (s Second) String() string {
	rt := "-" // no call completed
	if s.Runtime.Success > 0 {
		rt = fmt.Sprintf("%.0fms", s.Runtime.AvgRTMs)
	}
	line := fmt.Sprintf("%4d %7d %6d %6d %8d %9d %8d %7s  %s",
		s.At+1, s.Offered, s.Passed, s.BlockedFlow, s.BlockedDegrade, s.Fallback, s.Invalid,
		rt, strings.Join(s.Breaker, " → "))
	if s.Unexpected > 0 {
		line += fmt.Sprintf("  (%d unexpected answers)", s.Unexpected)
	}
	return line
}

// Report is the outcome of a whole run.
type Report struct {
	Seconds []Second
	Total   Second // the sum over Seconds (At is -1); its Breaker lists every state visited, in order
	// Outcomes is what the service's own handlers counted. Its block and
	// fallback counts equal Total's when the handlers did their job.
	Outcomes orders.OutcomeCounts
}

// String formats the whole report: the header, one line per second and the
// totals.
func (r Report) String() string {
	var b strings.Builder
	b.WriteString(Header())
	b.WriteByte('\n')
	for _, s := range r.Seconds {
		b.WriteString(s.String())
		b.WriteByte('\n')
	}
	b.WriteString(r.TotalsLine())
	b.WriteByte('\n')
	return b.String()
}

// TotalsLine formats Total as a line under Header.
func (r Report) TotalsLine() string {
	t := r.Total
	return fmt.Sprintf("%4s %7d %6d %6d %8d %9d %8d", "all",
		t.Offered, t.Passed, t.BlockedFlow, t.BlockedDegrade, t.Fallback, t.Invalid)
}
