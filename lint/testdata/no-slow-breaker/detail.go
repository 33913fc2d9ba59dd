// Package detail has breakers that only count errors.
package detail

import "context"

// Detail reads an order's details from a dependency.
//
//sentinel:resource name=noslow.detail fallback=detailFallback
func Detail(ctx context.Context, id int64) (string, error) { return "", nil }

func detailFallback(ctx context.Context, id int64, err error) (string, error) { return "", nil }

// Lines reads an order's lines; its breakers watch slowness too.
//
//sentinel:resource name=noslow.lines fallback=linesFallback
func Lines(ctx context.Context, id int64) ([]string, error) { return nil, nil }

func linesFallback(ctx context.Context, id int64, err error) ([]string, error) { return nil, nil }
