package ddblocal

import (
	"os/exec"
	"syscall"
)

// setParentDeathSignal makes the kernel kill the JVM if the test binary
// dies without running stop (a test timeout panics past deferred calls),
// so no server outlives its tests.
func setParentDeathSignal(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
