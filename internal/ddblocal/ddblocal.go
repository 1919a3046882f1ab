// Package ddblocal runs AWS's DynamoDB Local for tests, so the DynamoDB
// store is exercised against the real transaction, condition and TTL
// semantics rather than a hand-written fake.
//
// The jar ships inside the npm package amplify-dynamodb-simulator, which
// `make tools` installs under .tools; $DYNAMODB_LOCAL_DIR points elsewhere.
// DynamoDB Local has no option to choose its listening address: it binds
// every interface on the port it is given. It runs in memory with dummy
// credentials and only for the life of the test binary.
package ddblocal

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/doctrust/doctrust/internal/testproc"
)

// startTimeout bounds the JVM's start-up; a cold JVM on a loaded CI
// machine takes a few seconds, never a minute.
const startTimeout = 60 * time.Second

// pkgDir is where `make tools` leaves the jar, relative to the repo root.
var pkgDir = filepath.Join(".tools", "node_modules", "amplify-dynamodb-simulator", "emulator")

// Dir returns the folder holding DynamoDBLocal.jar and whether the jar is
// there: $DYNAMODB_LOCAL_DIR when set, else the copy under the repo root.
func Dir() (string, bool) {
	dir := os.Getenv("DYNAMODB_LOCAL_DIR")
	if dir == "" {
		root, ok := testproc.RepoRoot()
		if !ok {
			return "", false
		}
		dir = filepath.Join(root, pkgDir)
	}
	_, err := os.Stat(filepath.Join(dir, "DynamoDBLocal.jar"))
	return dir, err == nil
}

// Start runs DynamoDB Local in memory on a free port and returns its
// endpoint URL once it accepts connections. stop kills it; call it once.
func Start() (endpoint string, stop func(), err error) {
	dir, ok := Dir()
	if !ok {
		return "", nil, errors.New("ddblocal: DynamoDBLocal.jar not found (run `make tools` or set DYNAMODB_LOCAL_DIR)")
	}
	// The free port is found by binding and releasing it, so another
	// process can take it before the JVM binds; a few attempts cover that.
	for attempt := 0; ; attempt++ {
		endpoint, stop, err = start(dir)
		if err == nil || attempt == 2 {
			return endpoint, stop, err
		}
	}
}

func start(dir string) (string, func(), error) {
	port, err := freePort()
	if err != nil {
		return "", nil, err
	}
	// Even in memory DynamoDB Local writes dynamodb-local-metadata.json
	// into its working directory: a scratch folder keeps it out of the
	// package being tested.
	work, err := os.MkdirTemp("", "ddblocal-")
	if err != nil {
		return "", nil, fmt.Errorf("ddblocal: %w", err)
	}
	cmd := exec.Command("java",
		"-Djava.library.path="+filepath.Join(dir, "DynamoDBLocal_lib"),
		"-jar", filepath.Join(dir, "DynamoDBLocal.jar"),
		"-inMemory", "-disableTelemetry", "-port", strconv.Itoa(port))
	cmd.Dir = work
	out := &testproc.LimitedBuffer{Max: 16 << 10}
	cmd.Stdout, cmd.Stderr = out, out
	testproc.SetParentDeathSignal(cmd)
	if err := cmd.Start(); err != nil {
		os.RemoveAll(work)
		return "", nil, fmt.Errorf("ddblocal: starting java: %w", err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cmd.Process.Kill()
			<-exited
			os.RemoveAll(work)
		})
	}

	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	deadline := time.Now().Add(startTimeout)
	for {
		select {
		case <-exited:
			stop()
			return "", nil, fmt.Errorf("ddblocal: DynamoDB Local exited during start-up: %s", out.String())
		default:
		}
		if ready(addr) {
			return "http://" + addr, stop, nil
		}
		if time.Now().After(deadline) {
			stop()
			return "", nil, fmt.Errorf("ddblocal: DynamoDB Local did not answer on %s within %v: %s", addr, startTimeout, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// ready reports whether the server answers HTTP: any status will do, as
// an unsigned GET is refused by DynamoDB but only once the handler is up.
func ready(addr string) bool {
	c := http.Client{Timeout: time.Second}
	resp, err := c.Get("http://" + addr + "/")
	if err != nil {
		return false
	}
	resp.Body.Close()
	return true
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("ddblocal: finding a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

var (
	endpoint string // set by Main when DynamoDB Local runs
	missing  string // why it does not, when it does not
)

// Main is a TestMain for packages testing against DynamoDB Local: it
// starts one server for all of the package's tests, which reach it
// through Endpoint. Without the jar the tests skip, except under CI
// (env CI set), where a missing jar fails the run rather than silently
// testing nothing.
func Main(m *testing.M) {
	if _, ok := Dir(); !ok {
		if os.Getenv("CI") != "" {
			fmt.Fprintln(os.Stderr, "FAIL: DynamoDB Local not found; `make tools` installs it (or set DYNAMODB_LOCAL_DIR)")
			os.Exit(1)
		}
		missing = "DynamoDB Local not found; `make tools` installs it (or set DYNAMODB_LOCAL_DIR)"
		fmt.Fprintln(os.Stderr, "SKIP: "+missing)
		os.Exit(m.Run())
	}
	ep, stop, err := Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "FAIL:", err)
		os.Exit(1)
	}
	endpoint = ep
	code := m.Run()
	stop()
	os.Exit(code)
}

// Endpoint returns the URL of the server Main started, or skips the test
// when the jar is not installed.
func Endpoint(t testing.TB) string {
	t.Helper()
	if endpoint == "" {
		if missing == "" {
			t.Fatal("ddblocal: Endpoint called without ddblocal.Main as TestMain")
		}
		t.Skip(missing)
	}
	return endpoint
}
