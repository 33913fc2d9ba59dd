package edge

import (
	"context"
	"log/slog"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/datasource/file"
)

// WatchRules puts the rules of path in force and keeps them in step with
// the file until ctx ends, logging what it loads; the commands of this
// example and of the gRPC one call it for their -rules flag.
func WatchRules(ctx context.Context, path string, logger *slog.Logger) error {
	w, err := file.Watch(ctx, path, datasource.WithLogger(logger))
	if err != nil {
		return err
	}
	set := w.Property().Get()
	logger.Info("rules in force", "file", path, "flow", len(set.Flow), "degrade", len(set.Degrade),
		"paramFlow", len(set.ParamFlow), "system", len(set.System), "authority", len(set.Authority))
	return nil
}
