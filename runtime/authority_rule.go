package runtime

// AuthorityStrategy says how an AuthorityRule treats the origins it lists.
// Values are Sentinel's.
type AuthorityStrategy int32

const (
	// AuthorityWhite admits only the listed origins.
	AuthorityWhite AuthorityStrategy = 0
	// AuthorityBlack refuses the listed origins.
	AuthorityBlack AuthorityStrategy = 1
)

// AuthorityRule is Sentinel's AuthorityRule: a white or black list of the
// callers (origins, see WithOrigin) of a resource. A call without an origin
// passes, as in Sentinel.
type AuthorityRule struct {
	// Resource names the guarded resource (required).
	Resource string
	// LimitApp is the comma-separated list of origins, matched exactly.
	LimitApp string
	// Strategy says whether the list admits or refuses.
	Strategy AuthorityStrategy
}
