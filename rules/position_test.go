package rules

import (
	"errors"
	"fmt"
	"testing"
)

func TestPositionString(t *testing.T) {
	cases := []struct {
		pos  Position
		want string
	}{
		{Position{}, "-"},
		{Position{File: "rules.toml", Line: 12}, "rules.toml:12"},
		{Position{File: "rules.toml"}, "rules.toml"},
		{Position{File: "flow.json", Path: "[2].count"}, "flow.json: [2].count"},
		{Position{File: "flow.json", Line: 7, Path: "[2].count"}, "flow.json:7: [2].count"},
		{Position{Path: "flow[0]"}, "flow[0]"},
		{Position{Line: 3}, "line 3"},
	}
	for _, c := range cases {
		if got := c.pos.String(); got != c.want {
			t.Errorf("%#v.String() = %q, want %q", c.pos, got, c.want)
		}
	}
}

func TestErrorText(t *testing.T) {
	cases := []struct {
		err  Error
		want string
	}{
		{Error{Pos: Position{File: "rules.toml", Line: 12}, Field: "count", Msg: "-3 must be a finite number >= 0"},
			"rules.toml:12: count: -3 must be a finite number >= 0"},
		{Error{Pos: Position{File: "flow.json", Line: 7, Path: "[2].count"}, Field: "count", Msg: "bad"},
			"flow.json:7: [2].count: bad"},
		{Error{Pos: Position{File: "flow.json", Path: "[2].clusterConfig.flowId"}, Field: "clusterConfig.flowId", Msg: "bad"},
			"flow.json: [2].clusterConfig.flowId: bad"},
		{Error{Pos: Position{File: "flow.json", Path: "[2]"}, Field: "count", Msg: "bad"},
			"flow.json: [2]: count: bad"},
		{Error{Field: "count", Msg: "bad"}, "count: bad"},
		{Error{Pos: Position{File: "a.toml", Line: 1}, Msg: "TOML syntax: x"}, "a.toml:1: TOML syntax: x"},
	}
	for _, c := range cases {
		if got := c.err.Error(); got != c.want {
			t.Errorf("Error() = %q, want %q", got, c.want)
		}
	}
}

func TestErrorsFlattensJoinsAndWraps(t *testing.T) {
	a, b, c := &Error{Msg: "a"}, &Error{Msg: "b"}, &Error{Msg: "c"}
	err := errors.Join(a, fmt.Errorf("wrapped: %w", errors.Join(b, errors.New("plain"))), c)
	got := Errors(err)
	if len(got) != 3 || got[0] != a || got[1] != b || got[2] != c {
		t.Fatalf("Errors = %v, want [a b c]", got)
	}
	if Errors(nil) != nil {
		t.Fatal("Errors(nil) is not nil")
	}
}
