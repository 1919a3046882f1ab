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

	"github.com/doctrust/doctrust/internal/corpustest"
)

const sample = "../../../shared/corpus/pdf-incremental/qpdf/incremental-2.pdf"

func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Setenv("RECEIPT_SECRET", "cli-test")
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func needSample(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(sample); err != nil {
		corpustest.Skip(t, "../shared/corpus")
	}
}

func TestInspectPrintsReport(t *testing.T) {
	needSample(t)
	code, out, errs := runCLI(t, "inspect", sample, "--triage", "--policy", `{"reject":50}`)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"id", "summary", "signals", "document", "triage", "policy", "receipt"} {
		if _, ok := r[k]; !ok {
			t.Errorf("missing %s", k)
		}
	}
	if code, _, _ := runCLI(t, "nonsense"); code != 2 {
		t.Errorf("unknown command: exit %d", code)
	}
}

func TestInspectErrors(t *testing.T) {
	needSample(t)
	if code, _, _ := runCLI(t); code != 2 {
		t.Errorf("no args: exit %d", code)
	}
	if code, _, errs := runCLI(t, "inspect", "main.go"); code != 3 || !strings.Contains(errs, "not_a_pdf") {
		t.Errorf("unreadable: exit %d %s", code, errs)
	}
	if code, _, errs := runCLI(t, "inspect", sample, "--policy", `{"review":"x"}`); code != 2 || !strings.Contains(errs, "invalid policy") {
		t.Errorf("bad policy: exit %d %s", code, errs)
	}
	if code, _, _ := runCLI(t, "inspect", "/nonexistent.pdf"); code != 1 {
		t.Errorf("missing file: exit %d", code)
	}
}

func TestComparePrintsReport(t *testing.T) {
	needSample(t)
	code, out, errs := runCLI(t, "compare", sample, sample)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r["relationship"] != "identical" || r["engineVersion"] == nil {
		t.Fatalf("report %v", r)
	}
	if code, _, errs := runCLI(t, "compare", sample, "main.go"); code != 3 || !strings.Contains(errs, "not_a_pdf") {
		t.Errorf("not a PDF: exit %d %s", code, errs)
	}
	if code, _, _ := runCLI(t, "compare", sample); code != 2 {
		t.Errorf("one file: exit %d", code)
	}
}

// TestMetadataPrintsListing: `doctrust metadata FILE` prints the listing
// the API returns, byte for byte the same for the same file.
func TestMetadataPrintsListing(t *testing.T) {
	needSample(t)
	code, out, errs := runCLI(t, "metadata", sample)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		MediaType  string `json:"mediaType"`
		Containers []struct {
			Name    string `json:"name"`
			Entries []struct{ Key, Value string }
		} `json:"containers"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.MediaType != "pdf" || len(r.Containers) == 0 || r.Containers[0].Name != "File" {
		t.Fatalf("listing %s", out)
	}
	if _, again, _ := runCLI(t, "metadata", sample); again != out {
		t.Fatal("two listings of one file differ")
	}
	if code, _, errs := runCLI(t, "metadata", "main.go"); code != 3 || !strings.Contains(errs, "not_a_pdf") {
		t.Errorf("unreadable: exit %d %s", code, errs)
	}
	if code, _, _ := runCLI(t, "metadata"); code != 2 {
		t.Errorf("no file: exit %d", code)
	}
	if code, _, _ := runCLI(t, "metadata", "/nonexistent.pdf"); code != 1 {
		t.Errorf("missing file: exit %d", code)
	}
}

// TestInvalidEnvironmentRefused: a value the service cannot use stops
// serve and admin before anything is built, naming the variable; it is
// never read as the default (PORT=abc once served on 8080).
func TestInvalidEnvironmentRefused(t *testing.T) {
	t.Setenv("DATA_DIR", t.TempDir())
	for _, c := range []struct{ name, value string }{{"PORT", "abc"}, {"WORKERS", "-1"}, {"MAX_UPLOAD_MB", "x"}, {"STORE", "postgres"}} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(c.name, c.value)
			for _, cmd := range [][]string{{"serve"}, {"admin", "plan", "a@example.com", "team"}} {
				var out, errb bytes.Buffer
				if code := run(cmd, &out, &errb); code != 2 || !strings.Contains(errb.String(), c.name+`="`+c.value+`" must be`) {
					t.Errorf("%s with %s=%s: exit %d, %q", cmd[0], c.name, c.value, code, errb.String())
				}
			}
		})
	}
	// inspect without RECEIPT_SECRET opens the store, so it checks too.
	t.Setenv("RECEIPT_SECRET", "")
	t.Setenv("PORT", "abc")
	var out, errb bytes.Buffer
	if code := run([]string{"inspect", "main.go"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "PORT") {
		t.Errorf("inspect: exit %d, %q", code, errb.String())
	}
}

// TestOneBinary builds doctrust alone, as go build ./cmd/doctrust does, and
// runs every kind of command from it: inspect with the secret from the
// store, then serve.
func TestOneBinary(t *testing.T) {
	needSample(t)
	bin := filepath.Join(t.TempDir(), "doctrust")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	env := append(os.Environ(), "RECEIPT_SECRET=", "DATA_DIR="+t.TempDir())
	cmd := exec.Command(bin, "inspect", sample)
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("inspect: %v", err)
	}
	var r map[string]any
	if err := json.Unmarshal(out, &r); err != nil || r["receipt"] == nil {
		t.Fatalf("report %s (%v)", out, err)
	}
	serve := exec.Command(bin, "serve")
	serve.Env = append(env, "PORT="+testproc.FreePort(t))
	testproc.Serve(t, serve)
}
