package pay

import "context"

// Ship's fallback has the wrong signature: the finding points at the
// handler's declaration too, as the generator's diagnostic does.
//
//sentinel:resource name=directive.ship fallback=shipFallback
func Ship(ctx context.Context, id int) error { return nil }

func shipFallback(ctx context.Context) error { return nil }
