package main

import (
	"reflect"
	"slices"
	"testing"
)

func TestMedian(t *testing.T) {
	tests := []struct {
		in   []float64
		want float64
	}{
		{[]float64{5}, 5},
		{[]float64{9, 1, 5}, 5},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{100, 1, 2, 3, 1000}, 3}, // outliers do not move it
		{nil, 0},
	}
	for _, tt := range tests {
		in := slices.Clone(tt.in)
		if got := median(in); got != tt.want {
			t.Errorf("median(%v) = %v, want %v", tt.in, got, tt.want)
		}
		if !slices.Equal(in, tt.in) {
			t.Errorf("median reordered its input: %v", in)
		}
	}
}

func TestSummarizeTakesMedianOfEachFigure(t *testing.T) {
	run := &benchRun{
		names: []string{"Pass/a"},
		samples: map[string][]measurement{"Pass/a": {
			{nsPerOp: 30, bytesPerOp: 0, allocsPerOp: 0, hasMem: true, metrics: map[string]float64{"x-floor": 2}},
			{nsPerOp: 90, bytesPerOp: 16, allocsPerOp: 1, hasMem: true, metrics: map[string]float64{"x-floor": 9}},
			{nsPerOp: 31, bytesPerOp: 0, allocsPerOp: 0, hasMem: true, metrics: map[string]float64{"x-floor": 3}},
		}},
	}
	got := summarize(run)["Pass/a"]
	want := stat{nsPerOp: 31, bytesPerOp: 0, allocsPerOp: 0, hasMem: true, runs: 3, rounds: []float64{30, 90, 31}, metrics: map[string]float64{"x-floor": 3}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("summarize = %+v, want %+v", got, want)
	}
}

func TestGroupNames(t *testing.T) {
	got := groupNames([]string{"Pass/a", "Pass/b", "Floor/x", "Pass/c", "Solo"})
	want := []group{
		{name: "Pass", cases: []string{"a", "b", "c"}},
		{name: "Floor", cases: []string{"x"}},
		{name: "Solo", cases: []string{"Solo"}},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d groups, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i].name != want[i].name || !slices.Equal(got[i].cases, want[i].cases) {
			t.Errorf("group %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}
