package rules_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/sentinelgen/sentinelgen/rules"
	sentinel "github.com/sentinelgen/sentinelgen/runtime"
)

// A service watches its rules file: the rules apply at start and again after
// every edit; a broken edit is rejected and the last good rules stay.
func ExampleWatchFile() {
	dir, _ := os.MkdirTemp("", "rules")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "rules.toml")
	os.WriteFile(path, []byte("[[flow]]\nresource = \"createOrder\"\ngrade = \"qps\"\ncount = 100\n"), 0o644)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w, err := rules.WatchFile(ctx, path,
		rules.WithPollInterval(10*time.Millisecond),
		rules.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		fmt.Println("cannot start:", err) // fail fast on boot
		return
	}
	fmt.Println("in force:", sentinel.FlowRules()[0].Count)

	os.WriteFile(path, []byte("[[flow]]\nresource = \"createOrder\"\ngrade = \"qps\"\ncount = -1\n"), 0o644)
	for w.Rejected() == 0 {
		time.Sleep(time.Millisecond)
	}
	fmt.Println("rejected:", w.LastError() != nil, "still in force:", sentinel.FlowRules()[0].Count)

	os.WriteFile(path, []byte("[[flow]]\nresource = \"createOrder\"\ngrade = \"qps\"\ncount = 50\n"), 0o644)
	for w.Applied() < 2 {
		time.Sleep(time.Millisecond)
	}
	fmt.Println("in force:", sentinel.FlowRules()[0].Count, "error:", w.LastError())

	cancel()
	<-w.Done()
	sentinel.LoadRules(nil, nil)
	// Output:
	// in force: 100
	// rejected: true still in force: 100
	// in force: 50 error: <nil>
}

// Rules changed through the runtime API are written back to the watched
// file, so a restart finds them.
func ExamplePersist() {
	dir, _ := os.MkdirTemp("", "rules")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "rules.toml")
	os.WriteFile(path, []byte("[[flow]]\nresource = \"createOrder\"\ngrade = \"qps\"\ncount = 100\n"), 0o644)
	quiet := rules.WithLogger(slog.New(slog.DiscardHandler))

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w, err := rules.WatchFile(ctx, path, quiet)
	if err != nil {
		fmt.Println(err)
		return
	}
	stop := rules.Persist(rules.FileSource(path), quiet)

	// An operator raises the limit through an admin API.
	sentinel.LoadFlowRules([]sentinel.FlowRule{{Resource: "createOrder", Grade: sentinel.FlowGradeQPS, Count: 300}})

	stop() // writes what is pending; a service would stop at shutdown
	cancel()
	<-w.Done()
	sentinel.LoadRules(nil, nil)

	saved, err := rules.Load(path)
	fmt.Println(saved.Flow[0].Resource, saved.Flow[0].Count, err)
	// Output:
	// createOrder 300 <nil>
}
