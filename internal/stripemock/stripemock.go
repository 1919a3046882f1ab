// Package stripemock runs stripe-mock, Stripe's own stand-in for its API
// (github.com/stripe/stripe-mock, pinned in the Makefile), for tests that
// send real stripe-go requests: it answers from Stripe's OpenAPI
// description and rejects parameters the API would reject.
//
// `make tools` builds it into .tools/bin; $STRIPE_MOCK_BIN points
// elsewhere. It is started on 127.0.0.1 for both of its listeners (it
// opens an HTTPS one beside the HTTP one, on every interface unless told
// otherwise), on ports the system picks and the server reports. Without
// the binary a test skips, except under CI (env CI set), where it fails
// rather than silently testing nothing, as internal/ddblocal does.
package stripemock

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doctrust/doctrust/internal/testproc"
)

// startTimeout bounds start-up; loading the bundled OpenAPI description
// takes about a second.
const startTimeout = 30 * time.Second

const missing = "stripe-mock not found; `make tools` builds it into .tools/bin (or set STRIPE_MOCK_BIN)"

// Bin returns the stripe-mock binary and whether it is there:
// $STRIPE_MOCK_BIN when set, else .tools/bin/stripe-mock under the repo root.
func Bin() (string, bool) {
	bin := os.Getenv("STRIPE_MOCK_BIN")
	if bin == "" {
		root, ok := testproc.RepoRoot()
		if !ok {
			return "", false
		}
		bin = filepath.Join(root, ".tools", "bin", "stripe-mock")
	}
	fi, err := os.Stat(bin)
	return bin, err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// Start runs a stripe-mock for the test and returns its HTTP base URL
// (for STRIPE_API_BASE); it is stopped when the test ends.
func Start(t testing.TB) string {
	t.Helper()
	bin, ok := Bin()
	if !ok {
		if os.Getenv("CI") != "" {
			t.Fatal(missing)
		}
		t.Skip(missing)
	}
	url, stop, err := start(bin)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return url
}

func start(bin string) (string, func(), error) {
	cmd := exec.Command(bin, "-http-addr", "127.0.0.1:0", "-https-addr", "127.0.0.1:0")
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, fmt.Errorf("stripemock: %w", err)
	}
	out := &testproc.LimitedBuffer{Max: 16 << 10}
	cmd.Stderr = out
	testproc.SetParentDeathSignal(cmd)
	if err := cmd.Start(); err != nil {
		return "", nil, fmt.Errorf("stripemock: starting %s: %w", bin, err)
	}
	stop := func() {
		cmd.Process.Kill()
		cmd.Wait()
	}
	// The listening lines come first; after them stripe-mock logs every
	// request, so its output keeps being drained (into the bounded buffer)
	// or it would block on a full pipe.
	addrs := make(chan map[string]string, 1)
	go func() {
		found := map[string]string{}
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(out, line)
			for _, proto := range []string{"HTTP", "HTTPS"} {
				if a, ok := strings.CutPrefix(line, "Listening for "+proto+" at address: "); ok {
					found[proto] = strings.TrimSpace(a)
				}
			}
			if len(found) == 2 {
				addrs <- found
				break
			}
		}
		close(addrs)
		io.Copy(out, pipe)
	}()
	select {
	case found, ok := <-addrs:
		if !ok {
			stop()
			return "", nil, fmt.Errorf("stripemock: exited before listening: %s", out.String())
		}
		for proto, a := range found {
			if err := loopback(a); err != nil {
				stop()
				return "", nil, fmt.Errorf("stripemock: %s listener: %w", proto, err)
			}
		}
		return "http://" + found["HTTP"], stop, nil
	case <-time.After(startTimeout):
		stop()
		return "", nil, fmt.Errorf("stripemock: not listening within %v: %s", startTimeout, out.String())
	}
}

// loopback checks that a listener is bound to a loopback address only.
func loopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return errors.New("bound to " + addr + ", not a loopback address")
	}
	return nil
}
