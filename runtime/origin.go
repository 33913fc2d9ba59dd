package runtime

import "context"

type originKey struct{}

// WithOrigin returns ctx carrying the caller's name (Sentinel's origin, e.g.
// the calling application). Authority rules and flow rules with a LimitApp
// other than "default" read it; other calls never look at it.
func WithOrigin(ctx context.Context, origin string) context.Context {
	return context.WithValue(ctx, originKey{}, origin)
}

// OriginFrom returns the origin set by WithOrigin, or "" if none.
func OriginFrom(ctx context.Context) string {
	if ctx == nil {
		return ""
	}
	origin, _ := ctx.Value(originKey{}).(string)
	return origin
}
