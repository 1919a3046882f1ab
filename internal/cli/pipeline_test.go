package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/engine/baseline"
	"github.com/doctrust/doctrust/internal/analysis"
)

// Two committed fixtures (scripts/fixtures/traces): a genuine Ghostscript
// statement (low, score 0) and the same statement with an opaque FreeText
// annotation over a figure (elevated, score 60).
var (
	gsStatement       = filepath.Join("..", "..", "engine", "testdata", "detection", "traces", "genuine-gs-statement-1.pdf")
	gsForgedStatement = filepath.Join("..", "..", "engine", "testdata", "detection", "traces", "forged-annot-freetext-gs-statement-1.pdf")
)

func testSecret() ([]byte, error) { return []byte("cli-test-secret"), nil }

func runInspect(t *testing.T, l Local, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := InspectLocal(l)(args, &out, &errb)
	return code, out.String(), errb.String()
}

type inspected struct {
	Summary struct {
		RiskBand  string `json:"riskBand"`
		RiskScore int    `json:"riskScore"`
	} `json:"summary"`
	Policy *struct {
		Verdict string `json:"verdict"`
	} `json:"policy"`
	IssuerBaseline *struct {
		Requested string `json:"requested"`
		Resolved  bool   `json:"resolved"`
		Source    string `json:"source"`
	} `json:"issuerBaseline"`
}

func decodeReport(t *testing.T, s string) inspected {
	t.Helper()
	var r inspected
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		t.Fatalf("report %q: %v", s, err)
	}
	return r
}

// TestFailOn: --fail-on BAND exits 5 when the file's band reaches it, 0
// below it, and the report is printed either way.
func TestFailOn(t *testing.T) {
	l := Local{Secret: testSecret}
	if r := decodeReport(t, mustRun(t, l, gsForgedStatement)); r.Summary.RiskBand != "elevated" {
		t.Fatalf("fixture band %q, want elevated", r.Summary.RiskBand)
	}
	for _, c := range []struct {
		file, band string
		want       int
	}{
		{gsForgedStatement, "elevated", 5},
		{gsForgedStatement, "low", 5},
		{gsForgedStatement, "high", 0},
		{gsStatement, "elevated", 0},
		{gsStatement, "low", 5},
	} {
		code, out, _ := runInspect(t, l, c.file, "--fail-on", c.band)
		if code != c.want || !strings.Contains(out, `"riskBand"`) {
			t.Errorf("%s --fail-on %s: exit %d (want %d), printed %d bytes", filepath.Base(c.file), c.band, code, c.want, len(out))
		}
	}
	if code, _, errs := runInspect(t, l, gsForgedStatement, "--fail-on", "severe"); code != 2 || !strings.Contains(errs, "--fail-on") {
		t.Errorf("unknown band: exit %d %q", code, errs)
	}
}

func mustRun(t *testing.T, l Local, args ...string) string {
	t.Helper()
	code, out, errs := runInspect(t, l, args...)
	if code != 0 {
		t.Fatalf("inspect %v: exit %d %s", args, code, errs)
	}
	return out
}

// TestPolicyRejectExits: a policy whose verdict is reject exits 5; review
// and accept exit 0.
func TestPolicyRejectExits(t *testing.T) {
	l := Local{Secret: testSecret}
	for _, c := range []struct {
		policy, verdict string
		want            int
	}{
		{`{"reject":60}`, "reject", 5},
		{`{"review":50,"reject":70}`, "review", 0},
		{`{"rejectOn":["annotation-overlays"]}`, "reject", 5},
	} {
		code, out, errs := runInspect(t, l, gsForgedStatement, "--policy", c.policy)
		if code != c.want {
			t.Errorf("policy %s: exit %d, want %d (%s)", c.policy, code, c.want, errs)
			continue
		}
		if r := decodeReport(t, out); r.Policy == nil || r.Policy.Verdict != c.verdict {
			t.Errorf("policy %s: block %+v, want verdict %s", c.policy, r.Policy, c.verdict)
		}
	}
	if code, _, _ := runInspect(t, l, gsStatement, "--policy", `{"reject":60}`); code != 0 {
		t.Errorf("genuine under reject 60: exit %d", code)
	}
}

// TestBatchGate: in a batch one file reaching the band fails the run with
// 5; a batch where some path is missing still exits 1 (1 to 4 win).
func TestBatchGate(t *testing.T) {
	l := Local{Secret: testSecret}
	dir := t.TempDir()
	for _, f := range []string{gsStatement, gsForgedStatement} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, out, _ := runInspect(t, l, dir, "--fail-on", "elevated", "--jobs", "2"); code != 5 || strings.Count(out, "\n") != 2 {
		t.Errorf("batch: exit %d, %d lines", code, strings.Count(out, "\n"))
	}
	if code, _, _ := runInspect(t, l, dir, "--fail-on", "high"); code != 0 {
		t.Errorf("batch below the band: exit %d", code)
	}
	if code, _, _ := runInspect(t, l, dir, filepath.Join(dir, "missing.pdf"), "--fail-on", "elevated"); code != 1 {
		t.Errorf("batch with a missing path: exit %d, want 1", code)
	}
}

// TestIssuerFlag: --issuer resolves a built-in baseline with no store; with
// --account it asks the install's store for that account's own first.
func TestIssuerFlag(t *testing.T) {
	out := mustRun(t, Local{Secret: testSecret}, gsStatement, "--issuer", "public-x-ray-pdftk")
	r := decodeReport(t, out)
	if r.IssuerBaseline == nil || !r.IssuerBaseline.Resolved || r.IssuerBaseline.Source != baseline.SourcePublicSpecimen {
		t.Fatalf("built-in issuer: %+v", r.IssuerBaseline)
	}
	r = decodeReport(t, mustRun(t, Local{Secret: testSecret}, gsStatement, "--issuer", "nobody-we-know"))
	if r.IssuerBaseline == nil || r.IssuerBaseline.Resolved || r.IssuerBaseline.Requested != "nobody-we-know" {
		t.Fatalf("unknown issuer: %+v", r.IssuerBaseline)
	}
	if code, _, errs := runInspect(t, Local{Secret: testSecret}, gsStatement, "--issuer", "Not A Slug"); code != 2 || !strings.Contains(errs, "--issuer") {
		t.Errorf("bad slug: exit %d %q", code, errs)
	}
	if code, _, _ := runInspect(t, Local{Secret: testSecret}, gsStatement, "--account", "a@example.com"); code != 2 {
		t.Errorf("--account alone: exit %d", code)
	}

	// The account's own profile answers before the built-in one.
	own := baseline.New("public-x-ray-pdftk", "own")
	var asked string
	l := Local{Secret: testSecret, AccountBaselines: func(ctx context.Context, email string) (analysis.Resolver, func(), error) {
		asked = email
		return func(ctx context.Context, issuer string) (*baseline.Profile, string, error) {
			return own, baseline.SourceCustomer, nil
		}, func() {}, nil
	}}
	r = decodeReport(t, mustRun(t, l, gsStatement, "--issuer", "public-x-ray-pdftk", "--account", "ap@example.com"))
	if asked != "ap@example.com" || r.IssuerBaseline == nil || r.IssuerBaseline.Source != baseline.SourceCustomer {
		t.Fatalf("account issuer: asked %q, %+v", asked, r.IssuerBaseline)
	}
	// Triage mode ignores the issuer, as the API does.
	if r := decodeReport(t, mustRun(t, l, gsStatement, "--issuer", "public-x-ray-pdftk", "--triage")); r.IssuerBaseline != nil {
		t.Errorf("triage kept the issuer: %+v", r.IssuerBaseline)
	}
}

// TestVerifyCommand: a report inspect printed verifies with the same
// secret (exit 0), not with another (5), and not once a figure changed.
func TestVerifyCommand(t *testing.T) {
	report := mustRun(t, Local{Secret: testSecret}, gsForgedStatement)
	path := filepath.Join(t.TempDir(), "report.json")
	if err := os.WriteFile(path, []byte(report), 0o644); err != nil {
		t.Fatal(err)
	}
	verify := func(secret string, file string) (int, string) {
		var out, errb bytes.Buffer
		code := Verify(func() ([]byte, error) { return []byte(secret), nil })([]string{file}, &out, &errb)
		return code, out.String() + errb.String()
	}
	if code, out := verify("cli-test-secret", path); code != 0 || strings.TrimSpace(out) != `{"valid":true}` {
		t.Errorf("same secret: exit %d %s", code, out)
	}
	if code, out := verify("another-secret", path); code != 5 || !strings.Contains(out, "bad_signature") {
		t.Errorf("other secret: exit %d %s", code, out)
	}
	tampered := strings.Replace(report, `"riskScore":60`, `"riskScore":6`, 1)
	if tampered == report {
		t.Fatal("fixture score moved; adjust the tamper")
	}
	if err := os.WriteFile(path, []byte(tampered), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out := verify("cli-test-secret", path); code != 5 || !strings.Contains(out, "report_mismatch") {
		t.Errorf("tampered: exit %d %s", code, out)
	}
	if err := os.WriteFile(path, []byte(`{"summary":{}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _ := verify("cli-test-secret", path); code != 2 {
		t.Errorf("no receipt: exit %d", code)
	}
}

func TestVersionCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Version(nil, &out, &errb); code != 0 || !strings.HasPrefix(out.String(), "doctrust ") || !strings.Contains(out.String(), " engine ") {
		t.Errorf("version: exit %d %q", code, out.String())
	}
	if code := Version([]string{"x"}, &out, &errb); code != 2 {
		t.Errorf("version x: exit %d", code)
	}
}
