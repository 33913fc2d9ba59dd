// Package conformance holds the side-by-side check of the runtime against
// Java Sentinel (com.alibaba.csp:sentinel-core 1.8.9): its tests replay the
// same scenario files (testdata/scenarios, plus seeded random ones made at
// test time) through the runtime under a ManualClock and through the Java
// program of java/ under a rewritten clock, and diff what the two observe,
// event by event. A second test round-trips rule documents through
// Sentinel's own rule classes.
//
// The package has no API: it is all tests. The format of a scenario is
// described in testdata/README.md; the differences the comparison found and
// kept on purpose are listed in docs/differences.md.
package conformance
