package javainterop

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/cluster/tokenclient"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// instanceEnv, when set, makes the test binary a Go instance of the fleet
// (see goInstance) instead of running tests.
const instanceEnv = "SENTINELGEN_TOKEN_INSTANCE"

func TestMain(m *testing.M) {
	if os.Getenv(instanceEnv) != "" {
		if err := goInstance(); err != nil {
			fmt.Fprintln(os.Stderr, "instance:", err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// instanceConfig is what the test hands a Go instance, as JSON in
// instanceEnv.
type instanceConfig struct {
	Server, Namespace string
	Rules             []runtime.FlowRule
	Rate, Seconds     int
	StartMs           int64
}

// goInstance is one Go service of the fleet: its flow rules are in cluster
// mode, decided by the token server through the Go client. It offers Rate
// calls per second to each rule's resource from StartMs for Seconds, and
// prints "second N RESOURCE pass P block B" per whole second N and
// resource, as the Java app does.
func goInstance() error {
	var cfg instanceConfig
	if err := json.Unmarshal([]byte(os.Getenv(instanceEnv)), &cfg); err != nil {
		return err
	}
	c, err := tokenclient.New(tokenclient.Config{Addr: cfg.Server, Namespace: cfg.Namespace})
	if err != nil {
		return err
	}
	defer c.Close()
	runtime.SetTokenService(c)
	if err := runtime.LoadFlowRules(cfg.Rules); err != nil {
		return err
	}
	for deadline := time.Now().Add(20 * time.Second); !c.Connected(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			return fmt.Errorf("not connected to %s", cfg.Server)
		}
	}
	fmt.Println("connected")
	n := len(cfg.Rules)
	resources := make([]*runtime.Resource, n)
	pass, block := make([][]int, n), make([][]int, n)
	for i, r := range cfg.Rules {
		resources[i] = runtime.NewResource(r.Resource)
		pass[i], block[i] = make([]int, cfg.Seconds), make([]int, cfg.Seconds)
	}
	time.Sleep(time.Until(time.UnixMilli(cfg.StartMs)))
	interval := time.Second / time.Duration(cfg.Rate)
	next := time.Now()
	for {
		sec := int((time.Now().UnixMilli() - cfg.StartMs) / 1000)
		if sec >= cfg.Seconds {
			break
		}
		for i, res := range resources {
			if e, blocked := res.Entry(context.Background()); blocked != nil {
				block[i][sec]++
			} else {
				pass[i][sec]++
				e.Exit()
			}
		}
		next = next.Add(interval)
		time.Sleep(time.Until(next))
	}
	for s := range cfg.Seconds {
		for i, r := range cfg.Rules {
			fmt.Printf("second %d %s pass %d block %d\n", cfg.StartMs/1000+int64(s), r.Resource, pass[i][s], block[i][s])
		}
	}
	fmt.Fprintf(os.Stderr, "go instance, token client: %+v\n", c.Stats())
	return nil
}
