package bench

import "testing"

// callsPerCheck is enough calls to cross the breakers' minimum request count
// several times over, so a breaker that trips on healthy calls would show.
const callsPerCheck = 4 * breakerMinRequests

// TestPeersAgree checks that every library, configured as the benchmarks
// configure it, admits every call on the pass resource and refuses every call
// on the block resource by its flow check. Without it a misconfigured peer
// would produce a fast but meaningless number.
func TestPeersAgree(t *testing.T) {
	if len(peers) == 0 {
		t.Fatal("no peers were set up")
	}
	for _, p := range peers {
		t.Run(p.name, func(t *testing.T) {
			for i := range callsPerCheck {
				if got := p.pass.once(); got != passed {
					t.Fatalf("pass configuration, call %d: %v, want %v", i+1, got, passed)
				}
			}
			for i := range callsPerCheck {
				if got := p.block.once(); got != blockedByFlow {
					t.Fatalf("block configuration, call %d: %v, want %v", i+1, got, blockedByFlow)
				}
			}
		})
	}
}

// TestPeerNamesAreTableKeys pins the benchmark names that cmd/benchtable's
// goal checks look up; renaming a peer must be done in both places.
func TestPeerNamesAreTableKeys(t *testing.T) {
	want := []string{"sentinelgen", "sentinel-golang", "failsafe-go", "gobreaker+rate"}
	if len(peers) != len(want) {
		t.Fatalf("got %d peers, want %d", len(peers), len(want))
	}
	for i, p := range peers {
		if p.name != want[i] {
			t.Errorf("peer %d is %q, want %q", i, p.name, want[i])
		}
	}
}
