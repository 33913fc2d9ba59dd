package rules_test

import (
	"fmt"

	"github.com/sentinelgen/sentinelgen/rules"
)

// A rule document is parsed with positions; every problem is reported with
// the file and line, and nothing of a bad document is returned.
func ExampleParse() {
	good := []byte("[[flow]]\nresource = \"createOrder\"\ngrade = \"qps\"\ncount = 100\n")
	s, err := rules.Parse(rules.Document{Name: "rules.toml", Data: good})
	fmt.Println(s.Flow[0].Resource, s.Flow[0].Count, s.FlowAt[0], err)

	bad := []byte("[[flow]]\nresource = \"createOrder\"\ncount = -1\n\n[[degrade]]\nresource = \"createOrder\"\ntimeWindow = 10\n")
	s, err = rules.Parse(rules.Document{Name: "rules.toml", Data: bad})
	fmt.Println(len(s.Flow), len(s.Degrade))
	for _, e := range rules.Errors(err) {
		fmt.Println(e)
	}
	// Output:
	// createOrder 100 rules.toml:1 <nil>
	// 0 0
	// rules.toml:3: count: -1 must be a finite number >= 0
	// rules.toml:5: count: missing; every rule needs its threshold (write count = 0 if you mean one that opens the breaker on the first slow call or error)
}
