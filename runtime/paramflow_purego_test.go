package runtime

import "github.com/sentinelgen/sentinelgen/runtime/internal/argview"

// argviewPlain is true when slice arguments are copied (sentinel_purego),
// which allocates by design.
const argviewPlain = argview.Plain
