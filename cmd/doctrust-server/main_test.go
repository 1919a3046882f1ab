package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

const sample = "../../../shared/corpus/pdf-incremental/qpdf/incremental-2.pdf"

func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Setenv("RECEIPT_SECRET", "cli-test")
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestInspectPrintsReport(t *testing.T) {
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
}

func TestInspectErrors(t *testing.T) {
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
