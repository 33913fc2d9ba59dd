// Package unexported guards an unexported type and an unexported function:
// the generated names stay unexported (guardedQuoteService, guardedQuote).
package unexported

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime"
)

type quoteService struct{ prices map[string]float64 }

// price looks a symbol up.
//
//sentinel:resource name=unexported.price blockHandler=priceBlocked
func (q *quoteService) price(ctx context.Context, symbol string) (float64, error) {
	return q.prices[symbol], nil
}

func (q *quoteService) priceBlocked(ctx context.Context, symbol string, blockErr *runtime.BlockError) (float64, error) {
	return -1, nil
}

// quote formats a quote.
//
//sentinel:resource name=unexported.quote fallback=quoteFallback
func quote(ctx context.Context, symbol string) (string, error) {
	return symbol + " 42", nil
}

func quoteFallback(ctx context.Context, symbol string) (string, error) {
	return symbol + " n/a", nil
}
