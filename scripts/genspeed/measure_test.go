package main

import (
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	ms := func(ns ...int) []time.Duration {
		out := make([]time.Duration, len(ns))
		for i, n := range ns {
			out[i] = time.Duration(n) * time.Millisecond
		}
		return out
	}
	cases := []struct {
		in   []time.Duration
		want time.Duration
	}{
		{nil, 0},
		{ms(7), 7 * time.Millisecond},
		{ms(9, 1, 5), 5 * time.Millisecond},
		{ms(4, 1, 3, 100), 3500 * time.Microsecond},
	}
	for _, c := range cases {
		in := append([]time.Duration(nil), c.in...)
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
		for i := range in {
			if in[i] != c.in[i] {
				t.Fatalf("median reordered its input: %v", c.in)
			}
		}
	}
}

func TestPairedRatio(t *testing.T) {
	ms := func(xs ...int) []time.Duration {
		ds := make([]time.Duration, len(xs))
		for i, x := range xs {
			ds[i] = time.Duration(x) * time.Millisecond
		}
		return ds
	}
	// Per round the ratios are 1.1, 1.2 and 1.0: the median is 1.1
	// (the ratio of the medians would be 1.0).
	if got := pairedRatio(ms(110, 1200, 1000), ms(100, 1000, 1000)); got < 1.0999 || got > 1.1001 {
		t.Errorf("pairedRatio = %v, want 1.1", got)
	}
	if got := pairedRatio(ms(120, 100), ms(100, 100)); got < 1.0999 || got > 1.1001 {
		t.Errorf("pairedRatio of two rounds = %v, want the mean of 1.2 and 1.0", got)
	}
	if got := pairedRatio(nil, nil); got != 0 {
		t.Errorf("pairedRatio of no rounds = %v, want 0", got)
	}
}
