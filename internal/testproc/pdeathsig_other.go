//go:build !linux

package testproc

import "os/exec"

// SetParentDeathSignal has no portable equivalent off Linux; stop remains
// the only way a helper server ends.
func SetParentDeathSignal(*exec.Cmd) {}
