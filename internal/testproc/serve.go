package testproc

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// FreePort is a loopback port free a moment ago, for a server a test
// starts in another process.
func FreePort(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// Serve starts cmd (a `doctrust serve` with PORT in its environment) and
// returns once it prints its "serving on" line; the test's end interrupts
// it.
func Serve(t testing.TB, cmd *exec.Cmd) {
	t.Helper()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() })
	line := make(chan string, 1)
	go func() {
		l, _ := bufio.NewReader(stdout).ReadString('\n')
		line <- l
	}()
	select {
	case l := <-line:
		if !strings.Contains(l, "serving on http://127.0.0.1:") {
			t.Fatalf("serve printed %q", l)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("serve did not start in 60 s")
	}
}
