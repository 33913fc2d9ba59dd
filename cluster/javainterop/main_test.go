package javainterop

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/cluster/tokenclient"
	"github.com/sentinelgen/sentinelgen/cluster/tokenserver"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// instanceEnv, when set, makes the test binary a Go instance of the fleet
// (see goInstance) instead of running tests; serverEnv makes it a Go token
// server (see goServer).
const (
	instanceEnv = "SENTINELGEN_TOKEN_INSTANCE"
	serverEnv   = "SENTINELGEN_TOKEN_SERVER"
)

func TestMain(m *testing.M) {
	for env, run := range map[string]func() error{instanceEnv: goInstance, serverEnv: goServer} {
		if os.Getenv(env) != "" {
			if err := run(); err != nil {
				fmt.Fprintln(os.Stderr, env+":", err)
				os.Exit(2)
			}
			os.Exit(0)
		}
	}
	os.Exit(m.Run())
}

// serverConfig is what the test hands a Go token server process.
type serverConfig struct {
	Listen     string
	Namespace  string
	Rules      []runtime.FlowRule
	ParamRules []runtime.ParamFlowRule
	Flow       tokenserver.FlowConfig
}

// goServer is a Go token server in a process of its own, so that a test
// can stop it (SIGSTOP), kill it and measure its CPU time, as it does
// Java's. It prints "listening ADDR", then serves until killed.
func goServer() error {
	var cfg serverConfig
	if err := json.Unmarshal([]byte(os.Getenv(serverEnv)), &cfg); err != nil {
		return err
	}
	s, err := tokenserver.New(tokenserver.Config{Flow: cfg.Flow, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		return err
	}
	if err := s.LoadFlowRules(cfg.Namespace, cfg.Rules); err != nil {
		return err
	}
	if err := s.LoadParamFlowRules(cfg.Namespace, cfg.ParamRules); err != nil {
		return err
	}
	l, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return err
	}
	fmt.Println("listening", l.Addr())
	return s.Serve(l)
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
