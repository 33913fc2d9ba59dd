package transport

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// slowClientsEnv, when set to "address count", makes the test binary the
// attacker of TestSlowClientsDoNotStarveTheDashboard instead of running
// the tests: count connections that each send a push's headers and then
// one byte of its body every trickle, and open again a second after the
// server closes them.
const slowClientsEnv = "SENTINELGEN_TRANSPORT_SLOW_CLIENTS"

// trickle is the time between two bytes of a slow body.
const trickle = 2 * time.Second

func TestMain(m *testing.M) {
	if spec := os.Getenv(slowClientsEnv); spec != "" {
		slowClients(spec)
		return
	}
	os.Exit(m.Run())
}

// slowClients runs the attack until the process is killed, printing how
// many connections it holds once a second.
func slowClients(spec string) {
	addr, n, _ := strings.Cut(spec, " ")
	count, _ := strconv.Atoi(n)
	var open, dials atomic.Int64
	for i := 0; i < count; i++ {
		go func() {
			buf := make([]byte, 512)
			for {
				dials.Add(1)
				c, err := net.Dial("tcp", addr)
				if err != nil {
					time.Sleep(time.Second)
					continue
				}
				open.Add(1)
				_, err = io.WriteString(c, slowRequest(addr))
				for err == nil {
					_ = c.SetReadDeadline(time.Now().Add(trickle))
					if _, err = c.Read(buf); err != nil {
						if ne, ok := err.(net.Error); ok && ne.Timeout() {
							_, err = c.Write([]byte("x"))
						}
					}
				}
				_ = c.Close()
				open.Add(-1)
				time.Sleep(time.Second)
			}
		}()
	}
	for {
		time.Sleep(time.Second)
		fmt.Printf("open %d dials %d\n", open.Load(), dials.Load())
	}
}

// openFiles is the number of file descriptors the process has open.
func openFiles(t *testing.T) int {
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("cannot count open files: %v", err)
	}
	return len(fds)
}

// The drill of slow clients: a flood of connections trickling their bodies,
// more than the process has file descriptors, while the dashboard reads and
// pushes. The command center's own soft limit is lowered for the test to a
// few hundred descriptors above those open, so the drill means the same on
// any machine; the attacker is another process (its own limit) holding 1100
// connections, or fewer if its hard limit is lower. Every request of the
// dashboard must succeed; their p99 is printed and bounded generously.
func TestSlowClientsDoNotStarveTheDashboard(t *testing.T) {
	if testing.Short() {
		t.Skip("drill of several seconds")
	}
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Skip(err)
	}
	attackers := 1100
	if lim.Max < uint64(attackers)+200 {
		attackers = int(lim.Max) - 200
	}
	soft := uint64(openFiles(t) + 400)
	if soft >= uint64(attackers) {
		t.Skipf("the fd limit (%d) leaves no room for an attack larger than it", lim.Max)
	}
	lowered := syscall.Rlimit{Cur: soft, Max: lim.Max}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lowered); err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { _ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim) })

	f := newFixture(t, Config{})
	addr := f.srv.Addr().String()
	t.Logf("command center fd limit %d, MaxConns %d (%d per client); %d slow connections", soft, f.srv.cfg.MaxConns, f.srv.cfg.MaxConnsPerClient, attackers)

	attack := exec.Command(os.Args[0], "-test.run=^$")
	attack.Env = append(os.Environ(), slowClientsEnv+"="+addr+" "+strconv.Itoa(attackers))
	out, err := attack.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := attack.Start(); err != nil {
		t.Fatal(err)
	}
	var last atomic.Value
	last.Store("")
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			last.Store(sc.Text())
		}
	}()
	t.Cleanup(func() {
		_ = attack.Process.Kill()
		_ = attack.Wait()
	})

	// The attack holds every slot one address may hold (the attacker and
	// the dashboard share 127.0.0.1 here) before the dashboard comes.
	full := f.srv.cfg.MaxConnsPerClient
	deadline := time.Now().Add(20 * time.Second)
	for f.srv.conns.open() < full && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	held := f.srv.conns.open()
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	var took []time.Duration
	var failures []string
	push := url.Values{"type": {"flow"}, "data": {`[{"resource":"drill","grade":1,"count":5.0}]`}}
	for end := time.Now().Add(8 * time.Second); time.Now().Before(end); {
		start := time.Now()
		var resp *http.Response
		var err error
		if len(took)%5 == 4 {
			resp, err = client.PostForm(f.base+"/setRules", push)
		} else {
			resp, err = client.Get(f.base + "/getRules?type=flow")
		}
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				err = fmt.Errorf("status %d", resp.StatusCode)
			}
		}
		took = append(took, time.Since(start))
		if err != nil {
			failures = append(failures, err.Error())
		}
		time.Sleep(20 * time.Millisecond)
	}
	slices.Sort(took)
	p99 := took[len(took)*99/100]
	t.Logf("%d dashboard requests during the attack: p50 %v, p99 %v, max %v; %d failed; connections held at the start %d; attacker: %v",
		len(took), took[len(took)/2], p99, took[len(took)-1], len(failures), held, last.Load())
	t.Logf("limiter: displaced %d (%d unread), refused %d", f.srv.conns.displaced.Load(), f.srv.conns.displacedUnread.Load(), f.srv.conns.refused.Load())
	if held < full {
		t.Errorf("the attack held only %d connections of %d: the drill did not fill the command center", held, full)
	}
	if len(failures) > 0 {
		t.Errorf("%d of %d requests failed during the attack, e.g. %s", len(failures), len(took), failures[0])
	}
	if p99 > 2*time.Second {
		t.Errorf("p99 %v during the attack", p99)
	}
}
