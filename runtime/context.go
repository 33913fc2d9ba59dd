package runtime

import "context"

type entranceKey struct{}

// WithEntrance returns ctx marked as having entered the service through the
// entrance name (typically an inbound resource such as an HTTP route). Chain
// flow rules whose RefResource is name apply to calls made with the returned
// context or any context derived from it.
func WithEntrance(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, entranceKey{}, name)
}

// EntranceFrom returns the entrance set by WithEntrance, or "" if none.
func EntranceFrom(ctx context.Context) string {
	if ctx == nil {
		return ""
	}
	name, _ := ctx.Value(entranceKey{}).(string)
	return name
}
