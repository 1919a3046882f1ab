package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/doctrust/doctrust/internal/cli"
)

const (
	serverName    = "doctrust-server"
	serverPackage = "github.com/doctrust/doctrust/cmd/doctrust-server"
)

var errNoServer = errors.New(serverName + " not found beside doctrust or on PATH (make build builds both)")

// handOver replaces this process with doctrust-server running the same
// command line, so signals, exit codes and standard streams are its own.
func handOver(command string) cli.Command {
	return func(args []string, _, stderr io.Writer) int {
		path, argv, err := serverCommand(append([]string{command}, args...))
		if err == nil {
			err = syscall.Exec(path, argv, os.Environ())
		}
		fmt.Fprintf(stderr, "doctrust: %s: %v\n", command, err)
		return 1
	}
}

// serverCommand finds doctrust-server: beside this program (make build, go
// install), else from the module's source when this program itself runs
// from `go run` (so `go run ./cmd/doctrust serve` keeps working), else on
// PATH.
func serverCommand(args []string) (string, []string, error) {
	exe, err := os.Executable()
	if err == nil {
		if p := filepath.Join(filepath.Dir(exe), serverName); isExecutable(p) {
			return p, append([]string{p}, args...), nil
		}
		if goTool, err := exec.LookPath("go"); err == nil && fromGoRun(exe) {
			return goTool, append([]string{"go", "run", serverPackage}, args...), nil
		}
	}
	if p, err := exec.LookPath(serverName); err == nil {
		return p, append([]string{p}, args...), nil
	}
	return "", nil, errNoServer
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// fromGoRun: go run links the program into a go-build folder of the
// temporary directory, and was started inside the module's source, where
// `go run` builds doctrust-server from the same tree.
func fromGoRun(exe string) bool {
	return strings.Contains(filepath.ToSlash(exe), "/go-build")
}
