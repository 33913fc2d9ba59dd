package blocklog_test

import (
	"context"
	"log/slog"
	"os"
	"time"

	"github.com/sentinelgen/sentinelgen/metrics/blocklog"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// A flood of blocks makes one record per resource and second. (Start ticks
// by itself once a second; the example ticks by hand.)
func Example() {
	res := runtime.NewResource("example/createOrder")
	_ = runtime.LoadRules(runtime.Rules{Flow: []runtime.FlowRule{{Resource: res.Name(), Grade: runtime.FlowGradeQPS, Count: 0}}})
	defer runtime.LoadRules(runtime.Rules{})

	h := slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{} // for a stable output
		}
		return a
	}})
	l := blocklog.New(blocklog.Config{Logger: slog.New(h), Level: slog.LevelWarn})
	for range 1000 {
		res.Entry(context.Background())
	}
	l.Tick(time.Date(2026, 12, 1, 11, 0, 5, 0, time.UTC))
	// Output:
	// level=WARN msg="sentinel blocked" second="2026-12-01 11:00:04" resource=example/createOrder blocked=1000 types.flow=1000 "rules.flow rule #0 (QPS 0)"=1000
}
