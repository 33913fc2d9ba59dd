package conformance

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// event is one line of a scenario file (see testdata/README.md).
type event struct {
	Op string `json:"op"`

	// rules: Sentinel JSON arrays; a kind left out keeps its rules.
	Flow      json.RawMessage `json:"flow,omitempty"`
	Degrade   json.RawMessage `json:"degrade,omitempty"`
	ParamFlow json.RawMessage `json:"paramFlow,omitempty"`
	System    json.RawMessage `json:"system,omitempty"`
	Authority json.RawMessage `json:"authority,omitempty"`

	// advance: how far the clock moves.
	Ms int64 `json:"ms,omitempty"`
	Us int64 `json:"us,omitempty"`

	// system-readings: the load average and CPU usage (0..1) system
	// protection reads from now on, -1 for unknown; one left out keeps its
	// value.
	Load *float64 `json:"load,omitempty"`
	CPU  *float64 `json:"cpu,omitempty"`

	// entry, call, exit, check.
	ID          string `json:"id,omitempty"`
	Resource    string `json:"resource,omitempty"`
	Acquire     *int   `json:"acquire,omitempty"`
	Type        string `json:"type,omitempty"`
	Origin      string `json:"origin,omitempty"`
	Entrance    string `json:"entrance,omitempty"`
	Args        []any  `json:"args,omitempty"`
	Prioritized bool   `json:"prioritized,omitempty"`
	RT          int64  `json:"rt,omitempty"`
	Error       bool   `json:"error,omitempty"`

	// Expect lists words the runtime's output for this event must contain.
	Expect string `json:"expect,omitempty"`
	// Differs names a deliberate difference of docs/differences.md: Java's
	// output here must differ from the runtime's (else the note is stale),
	// and contain the words of Java, when given.
	Differs string `json:"differs,omitempty"`
	Java    string `json:"java,omitempty"`
	// Note is a comment for the reader.
	Note string `json:"note,omitempty"`
}

// step is an event with the line it was read from.
type step struct {
	line int
	text string
	ev   event
}

// parseScenario reads a scenario file. Blank lines and lines starting with
// # or // are comments. A bad line is an error naming the file and line.
func parseScenario(name string, data []byte) ([]step, error) {
	var steps []step
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "//") {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		var ev event
		if err := dec.Decode(&ev); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, n, err)
		}
		switch ev.Op {
		case "rules", "advance", "entry", "call", "exit", "check", "system-readings":
		default:
			return nil, fmt.Errorf("%s:%d: unknown op %q (want rules, advance, entry, call, exit, check or system-readings)", name, n, ev.Op)
		}
		if ev.Op == "system-readings" && ev.Load == nil && ev.CPU == nil {
			return nil, fmt.Errorf("%s:%d: system-readings needs load or cpu", name, n)
		}
		if (ev.Op == "entry" || ev.Op == "call" || ev.Op == "check") && ev.Resource == "" {
			return nil, fmt.Errorf("%s:%d: %s needs a resource", name, n, ev.Op)
		}
		if ev.Op == "exit" && ev.ID == "" {
			return nil, fmt.Errorf("%s:%d: exit needs the id of an entry", name, n)
		}
		if ev.Java != "" && ev.Differs == "" {
			return nil, fmt.Errorf("%s:%d: java is only for an event that differs", name, n)
		}
		steps = append(steps, step{line: n, text: line, ev: ev})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return steps, nil
}

// hasWords reports whether every space-separated word of want is a word of
// got.
func hasWords(got, want string) bool {
	words := strings.Fields(got)
	for _, w := range strings.Fields(want) {
		found := false
		for _, g := range words {
			if g == w {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
