//go:build !linux

package ddblocal

import "os/exec"

// setParentDeathSignal has no portable equivalent off Linux; stop remains
// the only way the JVM ends.
func setParentDeathSignal(*exec.Cmd) {}
