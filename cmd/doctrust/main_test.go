package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/internal/testproc"
)

const sample = "../../../shared/corpus/pdf-incremental/qpdf/incremental-2.pdf"

// TestNoServiceStack: the service's dependencies must stay out of this
// program; each one linked adds its package initialisation to every run.
func TestNoServiceStack(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"github.com/aws/", "github.com/stripe/", "github.com/jhillyerd/", "modernc.org/",
			"github.com/modelcontextprotocol/", "net/http", "github.com/doctrust/doctrust/internal/config", "github.com/doctrust/doctrust/internal/store"} {
			if strings.HasPrefix(dep, banned) {
				t.Errorf("doctrust links %s", dep)
			}
		}
	}
}

func TestInspectInProcess(t *testing.T) {
	t.Setenv("RECEIPT_SECRET", "cli-test")
	var out, errb bytes.Buffer
	if code := run([]string{"inspect", sample, "--triage"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var r map[string]any
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || r["receipt"] == nil {
		t.Fatalf("report %s (%v)", out.String(), err)
	}
	if code := run([]string{"nonsense"}, &out, &errb); code != 2 {
		t.Errorf("unknown command: exit %d", code)
	}
}

// TestHandOver builds both programs side by side, as make build does:
// doctrust hands serve, and inspect without RECEIPT_SECRET, to
// doctrust-server.
func TestHandOver(t *testing.T) {
	if _, err := os.Stat(sample); err != nil {
		t.Skip("corpus not present")
	}
	bin := t.TempDir()
	for _, c := range [][]string{{"-o", filepath.Join(bin, "doctrust"), "."}, {"-o", filepath.Join(bin, serverName), "../doctrust-server"}} {
		if out, err := exec.Command("go", append([]string{"build"}, c...)...).CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
	}
	env := append(os.Environ(), "RECEIPT_SECRET=", "DATA_DIR="+t.TempDir())

	cmd := exec.Command(filepath.Join(bin, "doctrust"), "inspect", sample)
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("inspect: %v", err)
	}
	var r map[string]any
	if err := json.Unmarshal(out, &r); err != nil || r["receipt"] == nil {
		t.Fatalf("report %s (%v)", out, err)
	}

	serve := exec.Command(filepath.Join(bin, "doctrust"), "serve")
	serve.Env = append(env, "PORT="+testproc.FreePort(t))
	testproc.Serve(t, serve)
}
