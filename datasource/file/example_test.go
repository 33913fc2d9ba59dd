package file_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/datasource/file"
	sentinel "github.com/sentinelgen/sentinelgen/runtime"
)

// A service watches its rules file: the rules apply at start and again after
// every edit; a broken edit is rejected and the last good rules stay.
// Writers replace the file by rename, so each edit is read whole, at once.
func ExampleWatch() {
	dir, _ := os.MkdirTemp("", "rules")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "rules.toml")
	replace := func(content string) {
		os.WriteFile(path+".tmp", []byte(content), 0o644)
		os.Rename(path+".tmp", path)
	}
	replace("[[flow]]\nresource = \"createOrder\"\ngrade = \"qps\"\ncount = 100\n")

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// file.Watch(ctx, path) with the default intervals; shorter ones here.
	src := file.New(path, file.WithPollInterval(10*time.Millisecond), file.WithSettle(20*time.Millisecond))
	w, err := datasource.Watch(ctx, src, datasource.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		fmt.Println("cannot start:", err) // fail fast on boot
		return
	}
	fmt.Println("in force:", sentinel.FlowRules()[0].Count)

	replace("[[flow]]\nresource = \"createOrder\"\ngrade = \"qps\"\ncount = -1\n")
	for w.Rejected() == 0 {
		time.Sleep(time.Millisecond)
	}
	fmt.Println("rejected:", w.LastError() != nil, "still in force:", sentinel.FlowRules()[0].Count)

	replace("[[flow]]\nresource = \"createOrder\"\ngrade = \"qps\"\ncount = 50\n")
	for w.Applied() < 2 {
		time.Sleep(time.Millisecond)
	}
	fmt.Println("in force:", sentinel.FlowRules()[0].Count, "error:", w.LastError())

	cancel()
	<-w.Done()
	sentinel.LoadRules(sentinel.Rules{})
	// Output:
	// in force: 100
	// rejected: true still in force: 100
	// in force: 50 error: <nil>
}
