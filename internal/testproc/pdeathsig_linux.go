package testproc

import (
	"os/exec"
	"syscall"
)

// SetParentDeathSignal makes the kernel kill a helper server if the test
// binary dies without stopping it (a test timeout panics past deferred
// calls), so no server outlives its tests.
func SetParentDeathSignal(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
