package datasource_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/datasource/file"
	"github.com/sentinelgen/sentinelgen/rules"
	sentinel "github.com/sentinelgen/sentinelgen/runtime"
)

// Rules changed through the runtime API are written back to the watched
// file, so a restart finds them.
func ExampleWatcher_Persist() {
	dir, _ := os.MkdirTemp("", "rules")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "rules.toml")
	os.WriteFile(path, []byte("[[flow]]\nresource = \"createOrder\"\ngrade = \"qps\"\ncount = 100\n"), 0o644)
	quiet := datasource.WithLogger(slog.New(slog.DiscardHandler))

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w, err := datasource.Watch(ctx, file.New(path, file.WithSettle(10*time.Millisecond)), quiet)
	if err != nil {
		fmt.Println(err)
		return
	}
	stop, err := w.Persist(quiet)
	if err != nil {
		fmt.Println(err)
		return
	}

	// An operator raises the limit through an admin API.
	sentinel.LoadFlowRules([]sentinel.FlowRule{{Resource: "createOrder", Grade: sentinel.FlowGradeQPS, Count: 300}})

	stop() // writes what is pending; a service would stop at shutdown
	cancel()
	<-w.Done()
	sentinel.LoadRules(sentinel.Rules{})

	saved, err := rules.Load(path)
	fmt.Println(saved.Flow[0].Resource, saved.Flow[0].Count, err)
	// Output:
	// createOrder 300 <nil>
}
