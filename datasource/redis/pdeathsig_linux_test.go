package redis

import (
	"os/exec"
	"syscall"
)

// dieWithTest makes the kernel kill cmd when the test binary dies, even
// killed before its cleanup runs, so no redis-server outlives it.
func dieWithTest(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
