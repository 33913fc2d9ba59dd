package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/internal/nacosapi"
	"github.com/sentinelgen/sentinelgen/internal/nacosrules"
	"github.com/sentinelgen/sentinelgen/rules"
)

// nacosStartTimeout bounds the first read of the rules kept in Nacos: a
// service whose Nacos does not answer fails to start rather than hang.
const nacosStartTimeout = 10 * time.Second

// watchNacos puts app's rules kept in Nacos at addr (every kind, one dataId
// each, in group of namespace) in force and follows them. pushed writes a
// dashboard push of any of those kinds back to its dataId, from which the
// subscription of every instance of app, this one included, reads it.
//
// The example talks to Nacos over its HTTP API (internal/nacosrules)
// because the main module takes no Nacos SDK; a service uses the
// datasource/nacos module. stop ends the watch.
func watchNacos(ctx context.Context, addr, namespace, group, app string, out io.Writer) (pushed datasource.WritableSource, stop func(), err error) {
	client, err := nacosapi.New(addr, nacosapi.Options{})
	if err != nil {
		return nil, nil, err
	}
	logger := slog.New(slog.NewTextHandler(out, &slog.HandlerOptions{Level: slog.LevelWarn}))
	src, err := nacosrules.New(nacosrules.Config{Client: client, Namespace: namespace, Group: group, App: app, Logger: logger})
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	watcher, err := datasource.Watch(ctx, src, datasource.WithLogger(logger), datasource.WithInitialTimeout(nacosStartTimeout))
	if err != nil {
		cancel()
		return nil, nil, fmt.Errorf("no rules are in force, so the service does not start: %w", err)
	}
	w, err := watcher.Writer()
	if err != nil {
		cancel()
		return nil, nil, err
	}
	set := watcher.Property().Get()
	fmt.Fprintf(out, "rules from %v (dataIds %s, %s, ...; followed by long poll): %d flow, %d degrade\n",
		src, src.DataID(rules.KindFlow), src.DataID(rules.KindDegrade), len(set.Flow), len(set.Degrade))
	return namedWriter{w, src.String()}, func() { cancel(); <-watcher.Done() }, nil
}

// namedWriter is a WritableSource with the name the example prints.
type namedWriter struct {
	datasource.WritableSource
	name string
}

func (n namedWriter) String() string { return n.name }
