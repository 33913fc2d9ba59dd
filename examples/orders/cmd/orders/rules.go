package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/datasource/file"
)

// watchRules puts the rules of rulesFile in force and watches it; with
// pushFile, the rules pushed in an earlier run are put in force over them,
// and pushed is the overlay that keeps the next pushes (nil without
// pushFile). The hand-written rulesFile is never written. stop ends the
// watch and the overlay's upkeep.
func watchRules(ctx context.Context, rulesFile, pushFile string, out io.Writer) (pushed datasource.WritableSource, stop func(), err error) {
	ctx, cancel := context.WithCancel(ctx)
	logger := slog.New(slog.NewTextHandler(out, &slog.HandlerOptions{Level: slog.LevelWarn}))
	watcher, err := file.Watch(ctx, rulesFile, datasource.WithLogger(logger))
	if err != nil {
		cancel()
		return nil, nil, fmt.Errorf("no rules are in force, so the service does not start: %w", err)
	}
	set := watcher.Property().Get()
	fmt.Fprintf(out, "rules from %s (watched: a file renamed into place applies within %v, one written in place once unchanged for %v): %d flow, %d degrade\n",
		rulesFile, file.DefaultPollInterval, file.DefaultSettle, len(set.Flow), len(set.Degrade))
	if pushFile == "" {
		return nil, cancel, nil
	}
	overlay := file.NewOverlay(pushFile, watcher)
	kinds, err := overlay.Load()
	if err != nil {
		cancel()
		return nil, nil, err
	}
	if len(kinds) > 0 {
		fmt.Fprintf(out, "pushed rules from %s in force over %s: %v\n", pushFile, rulesFile, kinds)
	}
	// Every change (a push, an edit of the rules file) brings the overlay
	// in step: it holds the kinds that differ from the file.
	stopPersist := datasource.Persist(overlay, datasource.WithLogger(logger))
	return overlay, func() { stopPersist(); cancel() }, nil
}
